import type { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ListRootsResult } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ServerSettings } from '../settings/hostSettings';
import { errorText } from '../util/errorText';
import type { Disposable } from '../util/event';
import { rootsWithin, serverRoots, type RootsSource } from './rootsSource';
import { ServerRequestRun, type ServerRequestDeps } from './serverRequestRun';

/**
 * Roots: a server's `roots` setting, else the workspace folders, answered by the host (no question
 * to the user) to servers the role uses in a trusted workspace, and audited. A server with
 * `roots: false` is not told the host has roots at all. `notifications/roots/list_changed` goes to
 * the connected servers that follow the workspace folders when those change.
 */
export class RootsFeature implements ClientFeature, Disposable {
  readonly capabilities: ClientCapabilities = { roots: { listChanged: true } };
  /** Clients whose roots are the workspace folders; weak, so a closed one can be collected without telling us. */
  private readonly followers = new Set<WeakRef<Client>>();
  /** Answers being prepared, per client (see settled). */
  private readonly answering = new WeakMap<Client, Set<Promise<unknown>>>();
  private readonly subscription?: Disposable;

  constructor(
    private readonly deps: ServerRequestDeps,
    private readonly source: RootsSource,
  ) {
    this.subscription = source.onDidChange?.(() => this.notifyChanged());
  }

  declares(server: ServerSettings): boolean {
    return server.roots !== false;
  }

  install(client: Client, server: ServerSettings): void {
    const answering = new Set<Promise<unknown>>();
    this.answering.set(client, answering);
    client.setRequestHandler('roots/list', (_request, extra) => {
      const answer = this.list(server, extra.mcpReq.signal);
      answering.add(answer);
      void answer.finally(() => answering.delete(answer)).catch(() => undefined);
      return answer;
    });
    if (server.roots === undefined) this.followers.add(new WeakRef(client));
  }

  /**
   * Resolves once every `roots/list` the server sent so far has been answered. A server that asks
   * right after `initialize` (server-filesystem) has asked before it answers `tools/list`, so the
   * host sends no tool call before that server has its roots.
   */
  async settled(client: Client): Promise<void> {
    const answering = this.answering.get(client);
    if (!answering?.size) return;
    await Promise.allSettled([...answering]);
    // The SDK sends the answer a few promise steps after the handler settles; let it go out first.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  dispose(): void {
    this.subscription?.dispose();
    this.followers.clear();
  }

  /** The server's roots: those of its settings, narrowed to the source's current ones when it has any (`RootsSource.current`). */
  async list(server: ServerSettings, signal: AbortSignal = new AbortController().signal): Promise<ListRootsResult> {
    const run = new ServerRequestRun(this.deps, 'roots', server.name, {});
    const refused = run.refusal(() => true, 'mcpHost.roles');
    const allowed = refused ? [] : [...(serverRoots(server, this.source) ?? [])];
    const current = refused ? undefined : await this.source.current?.(server.name, signal).catch(() => undefined);
    const roots = current ? rootsWithin(current, allowed) : allowed;
    const answer = { roots: roots.map((r) => r.uri), ...(current ? { offered: current.map((r) => r.uri) } : {}) };
    await run.finish({ outcome: refused ? 'denied' : 'accepted', decidedBy: 'policy', answer, ...(refused ? { reason: refused } : {}) });
    return { roots };
  }

  /** Tell every connected server that follows the workspace folders that the roots changed. */
  notifyChanged(): void {
    for (const ref of [...this.followers]) {
      const client = ref.deref();
      if (!client) {
        this.followers.delete(ref);
        continue;
      }
      // Not connected yet (it reads the roots when it asks), or closed for good.
      if (!client.transport) continue;
      client.sendRootsListChanged().catch((e: unknown) => this.deps.logger.debug(`roots/list_changed not sent: ${errorText(e)}`));
    }
  }
}
