import { UriTemplate, type ListResourceTemplatesResult, type Prompt, type Resource } from '@modelcontextprotocol/server';

type ResourceTemplate = ListResourceTemplatesResult['resourceTemplates'][number];
import type { HostSnapshot } from '../host/hostSnapshot';

/** A prompt as the gateway lists it: unique across servers (`server_name` where two servers use one name). */
export interface OfferedPrompt {
  readonly server: string;
  readonly prompt: Prompt;
  readonly name: string;
}

/**
 * The resources, templates and prompts the active role may use, as one server's catalog (the
 * snapshot's role views), and which server a read or a prompt of the upstream client goes to.
 * Reads and prompt uses themselves go through `host.catalog` (role check, audit).
 */
export class GatewayCatalog {
  constructor(private readonly snapshot: () => HostSnapshot) {}

  resources(): Resource[] {
    const seen = new Set<string>();
    const out: Resource[] = [];
    for (const { resource } of this.snapshot().visibleResources()) {
      if (seen.has(resource.uri)) continue;
      seen.add(resource.uri);
      out.push(resource as Resource);
    }
    return out;
  }

  templates(): ResourceTemplate[] {
    return this.snapshot()
      .visibleResourceTemplates()
      .map((t) => t.template as ResourceTemplate);
  }

  /** The server a URI is read from: the first that lists it, else the first whose template matches it. */
  serverOf(uri: string): string | undefined {
    const snapshot = this.snapshot();
    const listed = snapshot.visibleResources().find((r) => r.resource.uri === uri);
    if (listed) return listed.server;
    for (const t of snapshot.visibleResourceTemplates()) {
      try {
        if (new UriTemplate(t.template.uriTemplate).match(uri)) return t.server;
      } catch {
        // a template the SDK cannot parse matches nothing
      }
    }
    return undefined;
  }

  prompts(): OfferedPrompt[] {
    const views = this.snapshot().visiblePrompts();
    const count = new Map<string, number>();
    for (const v of views) count.set(v.prompt.name, (count.get(v.prompt.name) ?? 0) + 1);
    return views.map((v) => ({ server: v.server, prompt: v.prompt as Prompt, name: count.get(v.prompt.name)! > 1 ? `${v.server}_${v.prompt.name}` : v.prompt.name }));
  }

  prompt(name: string): OfferedPrompt | undefined {
    return this.prompts().find((p) => p.name === name);
  }
}
