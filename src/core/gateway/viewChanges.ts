import type { HostSnapshot } from '../host/hostSnapshot';

export type ViewKind = 'tools' | 'resources' | 'prompts';

/**
 * Which parts of the role view changed since the last look: the host says "something changed"
 * on every state change of a server, the gateway tells its clients only when the tools (names and
 * definitions), resources or prompts they are offered differ.
 */
export class ViewChanges {
  private last: Record<ViewKind, string>;

  constructor(
    private readonly snapshot: () => HostSnapshot,
    private readonly changed: (kind: ViewKind) => void,
  ) {
    this.last = this.keys();
  }

  check(): void {
    const next = this.keys();
    for (const kind of ['tools', 'resources', 'prompts'] as const) if (next[kind] !== this.last[kind]) this.changed(kind);
    this.last = next;
  }

  private keys(): Record<ViewKind, string> {
    const s = this.snapshot();
    return {
      tools: s.exposed.map(({ entry, rule }) => `${entry.name}\u0000${entry.definitionHash}\u0000${rule}`).join('\u0001'),
      resources: [...s.visibleResources().map((r) => `${r.server}\u0000${r.resource.uri}`), ...s.visibleResourceTemplates().map((t) => `${t.server}\u0000${t.template.uriTemplate}`)].join('\u0001'),
      prompts: s.visiblePrompts().map((p) => `${p.server}\u0000${p.prompt.name}`).join('\u0001'),
    };
  }
}
