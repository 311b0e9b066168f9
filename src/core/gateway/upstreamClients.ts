import { Emitter, type Event } from '../util/event';
import { isoNow } from '../util/isoNow';

/** How an upstream client reached the gateway. */
export type UpstreamTransport = 'stdio' | 'http';

/** One MCP client connected to the gateway, as the tree and the CLI show it. */
export interface UpstreamClient {
  /** Stable for the connection (stdio) or for the client's name, version and transport (HTTP, where each request stands alone). */
  readonly id: string;
  /** Its `clientInfo.name` (`unknown` until it said). */
  readonly name: string;
  readonly version?: string;
  readonly transport: UpstreamTransport;
  /** When it connected (ISO time). */
  readonly since: string;
  /** Tool calls it made through the gateway. */
  readonly calls: number;
}

/**
 * The upstream clients of one gateway: who is connected, since when and how many calls each made.
 * A stdio connection is one client until it closes; over HTTP a client is known by its
 * `clientInfo` and transport, and stays listed until the gateway stops listening.
 */
export class UpstreamClients {
  private readonly byId = new Map<string, UpstreamClient>();
  private readonly _onDidChange = new Emitter<readonly UpstreamClient[]>();
  readonly onDidChange: Event<readonly UpstreamClient[]> = this._onDidChange.event;

  list(): readonly UpstreamClient[] {
    return [...this.byId.values()];
  }

  /** Records (or renames, once `clientInfo` is known) a client; returns its id. */
  seen(id: string, info: { readonly name?: string; readonly version?: string }, transport: UpstreamTransport): UpstreamClient {
    const prior = this.byId.get(id);
    const name = info.name || prior?.name || 'unknown';
    const version = info.version ?? prior?.version;
    if (prior && prior.name === name && prior.version === version) return prior;
    const next: UpstreamClient = { id, name, ...(version !== undefined ? { version } : {}), transport, since: prior?.since ?? isoNow(), calls: prior?.calls ?? 0 };
    this.byId.set(id, next);
    this._onDidChange.fire(this.list());
    return next;
  }

  called(id: string): void {
    const prior = this.byId.get(id);
    if (!prior) return;
    this.byId.set(id, { ...prior, calls: prior.calls + 1 });
    this._onDidChange.fire(this.list());
  }

  gone(id: string): void {
    if (this.byId.delete(id)) this._onDidChange.fire(this.list());
  }

  goneWhere(transport: UpstreamTransport): void {
    const ids = [...this.byId.values()].filter((c) => c.transport === transport).map((c) => c.id);
    for (const id of ids) this.byId.delete(id);
    if (ids.length) this._onDidChange.fire(this.list());
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
