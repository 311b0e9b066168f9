import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { PromptResult, ResourceReadResult } from '../core/host/hostCatalog';
import type { HostSnapshot } from '../core/host/hostSnapshot';

/** The JSON shapes of the session's resource and prompt answers. */

export type ResourceJson = { readonly server: string } & Pick<Resource, 'uri' | 'name' | 'title' | 'description' | 'mimeType' | 'size'>;
export type TemplateJson = { readonly server: string } & Pick<ResourceTemplate, 'uriTemplate' | 'name' | 'title' | 'description' | 'mimeType'>;
export type PromptJson = { readonly server: string } & Pick<Prompt, 'name' | 'title' | 'description' | 'arguments'>;

/** The resources and templates the active role may read, server by server. */
export function resourceViews(snapshot: HostSnapshot): { resources: ResourceJson[]; templates: TemplateJson[] } {
  return {
    resources: snapshot.visibleResources().map(({ server, resource: r }) => defined({ server, uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, size: r.size })),
    templates: snapshot
      .visibleResourceTemplates()
      .map(({ server, template: t }) => defined({ server, uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType })),
  };
}

/** The prompts the active role may use. */
export function promptViews(snapshot: HostSnapshot): PromptJson[] {
  return snapshot.visiblePrompts().map(({ server, prompt: p }) => defined({ server, name: p.name, title: p.title, description: p.description, arguments: p.arguments }));
}

export function readView(r: ResourceReadResult): Record<string, unknown> {
  return { server: r.server, uri: r.uri, outcome: r.outcome, durationMs: r.durationMs, contents: r.contents, ...(r.outcome === 'ok' ? {} : { error: r.text }) };
}

export function promptView(r: PromptResult): Record<string, unknown> {
  return defined({
    server: r.server,
    name: r.name,
    outcome: r.outcome,
    durationMs: r.durationMs,
    description: r.description,
    messages: r.messages,
    error: r.outcome === 'ok' ? undefined : r.text,
  });
}

function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
