import type { McpHost } from '../core/host/mcpHost';
import { promptView, promptViews, readView, resourceViews } from './catalogJsonViews';
import type { CatalogRequest } from './sessionProtocol';

/**
 * The session's resource and prompt requests, through `host.catalog` (role-gated and audited like
 * everything the editor does). A read or prompt the role may not use is an answer with outcome
 * "notAllowed", not an error line.
 */
export async function runCatalogOp(host: McpHost, request: CatalogRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const snapshot = host.snapshot();
  if (request.op !== 'resources' && request.op !== 'prompts' && !snapshot.server(request.server)) throw new Error(`no server named "${request.server}"`);
  switch (request.op) {
    case 'resources':
      return { role: snapshot.role ?? null, ...resourceViews(snapshot) };
    case 'prompts':
      return { role: snapshot.role ?? null, prompts: promptViews(snapshot) };
    case 'read': {
      const read = await host.catalog.readResource({ server: request.server, uri: request.uri, signal });
      const subscribed = request.subscribe && read.outcome === 'ok' ? await host.catalog.subscribe(request.server, request.uri) : undefined;
      return { ...readView(read), ...(subscribed !== undefined ? { subscribed } : {}) };
    }
    case 'unsubscribe':
      await host.catalog.unsubscribe(request.server, request.uri);
      return { server: request.server, uri: request.uri };
    case 'prompt':
      return promptView(await host.catalog.getPrompt({ server: request.server, name: request.name, args: request.args, signal }));
    case 'complete': {
      const ref = request.prompt !== undefined ? { type: 'ref/prompt' as const, name: request.prompt } : { type: 'ref/resource' as const, uri: request.template! };
      const completion = await host.catalog.complete({ server: request.server, ref, argument: request.argument, context: request.context, signal });
      return { server: request.server, ...completion };
    }
  }
}
