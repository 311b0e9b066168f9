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

  /**
   * The server a URI is read from: the first whose role view lists it, else the first whose
   * visible template matches it; failing both, a server that lists or matches it outside the role
   * (the reader refuses that read, and audits the refusal). undefined: no server has it.
   */
  serverOf(uri: string): string | undefined {
    const snapshot = this.snapshot();
    const visible = (v: { readonly visible: boolean }) => v.visible;
    const anyView = () => true;
    for (const only of [visible, anyView]) {
      const names = snapshot.servers.map((s) => s.name);
      const listed = names.find((n) => snapshot.resources(n).some((r) => only(r) && r.resource.uri === uri));
      if (listed) return listed;
      const matched = names.find((n) => snapshot.resourceTemplates(n).some((t) => only(t) && templateMatches(t.template.uriTemplate, uri)));
      if (matched) return matched;
    }
    return undefined;
  }

  prompts(): OfferedPrompt[] {
    const views = this.snapshot().visiblePrompts();
    const count = new Map<string, number>();
    for (const v of views) count.set(v.prompt.name, (count.get(v.prompt.name) ?? 0) + 1);
    return views.map((v) => ({ server: v.server, prompt: v.prompt as Prompt, name: count.get(v.prompt.name)! > 1 ? `${v.server}_${v.prompt.name}` : v.prompt.name }));
  }

  /** The prompt offered under `name`; else one a server lists under that name outside the role (the runner refuses it, and audits the refusal). */
  prompt(name: string): OfferedPrompt | undefined {
    const offered = this.prompts().find((p) => p.name === name);
    if (offered) return offered;
    const snapshot = this.snapshot();
    for (const { name: server } of snapshot.servers) {
      const view = snapshot.prompts(server).find((p) => p.prompt.name === name);
      if (view) return { server, prompt: view.prompt as Prompt, name };
    }
    return undefined;
  }
}

function templateMatches(template: string, uri: string): boolean {
  try {
    return !!new UriTemplate(template).match(uri);
  } catch {
    return false; // a template the SDK cannot parse matches nothing
  }
}
