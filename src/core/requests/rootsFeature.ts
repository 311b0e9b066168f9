import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema, type ClientCapabilities, type ListRootsResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ServerSettings } from '../settings/hostSettings';
import { errorText } from '../util/errorText';
import type { Disposable } from '../util/event';
import type { RootsSource } from './rootsSource';
import { ServerRequestRun, type ServerRequestDeps } from './serverRequestRun';

/**
 * Roots: the workspace folders, answered by the host (no question to the user) to servers the
 * role uses in a trusted workspace, and audited; `notifications/roots/list_changed` goes to every
 * connected server when the folders change.
 */
export class RootsFeature implements ClientFeature, Disposable {
  readonly capabilities: ClientCapabilities = { roots: { listChanged: true } };
  /** Clients that may be live; weak, so a closed one can be collected without telling us. */
  private readonly clients = new Set<WeakRef<Client>>();
  private readonly subscription?: Disposable;

  constructor(
    private readonly deps: ServerRequestDeps,
    private readonly source: RootsSource,
  ) {
    this.subscription = source.onDidChange?.(() => this.notifyChanged());
  }

  install(client: Client, server: ServerSettings): void {
    client.setRequestHandler(ListRootsRequestSchema, () => this.list(server.name));
    this.clients.add(new WeakRef(client));
  }

  dispose(): void {
    this.subscription?.dispose();
    this.clients.clear();
  }

  async list(server: string): Promise<ListRootsResult> {
    const run = new ServerRequestRun(this.deps, 'roots', server, {});
    const refused = run.refusal(() => true, 'mcpHost.roles');
    const roots = refused ? [] : [...this.source.roots()];
    await run.finish({ outcome: refused ? 'denied' : 'accepted', decidedBy: 'policy', answer: { roots: roots.map((r) => r.uri) }, ...(refused ? { reason: refused } : {}) });
    return { roots };
  }

  /** Tell every connected server that the roots changed. */
  notifyChanged(): void {
    for (const ref of [...this.clients]) {
      const client = ref.deref();
      if (!client) {
        this.clients.delete(ref);
        continue;
      }
      // Not connected yet (it reads the roots when it asks), or closed for good.
      if (!client.transport) continue;
      client.sendRootsListChanged().catch((e: unknown) => this.deps.logger.debug(`roots/list_changed not sent: ${errorText(e)}`));
    }
  }
}
