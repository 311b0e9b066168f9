import type { Tool } from '@modelcontextprotocol/client';
import { SecretRedactor } from '../audit/secretRedactor';
import type { ServerSettings } from '../settings/hostSettings';
import type { ResolvedServer, ResolvedSettings } from '../settings/resolveServerSettings';
import { canonicalJson } from '../tools/definitionHash';
import { DisposableStore, Emitter } from '../util/event';
import { withTimeout } from '../util/withTimeout';
import { ConnectionState } from './connectionState';
import { ServerConnection } from './serverConnection';
import type { ServerConnectionOptions } from './serverConnectionOptions';

export interface ServerStateEvent {
  readonly server: string;
  readonly state: ConnectionState;
}

/** A server's discovered tools, or `tools: undefined` when they are to be forgotten (stopped or removed). */
export type ServerToolsEvent =
  | { readonly server: string; readonly tools: readonly Tool[] }
  | { readonly server: string; readonly tools: undefined; readonly removed: boolean };

/** A subscribed resource changed on its server (`notifications/resources/updated`). */
export interface ResourceUpdatedEvent {
  readonly server: string;
  readonly uri: string;
}

/** What every connection of the fleet shares (passed on to each ServerConnection), and the fleet's own hooks. */
export interface ServerFleetOptions
  extends Pick<ServerConnectionOptions, 'resolve' | 'transports' | 'logger' | 'clientInfo' | 'features' | 'calls' | 'backoff' | 'logLevel' | 'maxMessageBytes' | 'eras' | 'toolLists'> {
  /** Whether servers may run at all (workspace trust). */
  readonly trusted: () => boolean;
  /** Whether the active role uses an enabled server (asked on every start and reconcile). */
  readonly wanted: (server: ServerSettings) => boolean;
  /**
   * Asked before every start with the resolved settings (after trust and role): undefined lets the
   * server start, a text refuses it (shown as its error). `explicit`: a person started it.
   */
  readonly admit?: (settings: ServerSettings, resolved: ResolvedSettings, explicit: boolean) => Promise<string | undefined>;
}

/** What a person (the tree's commands, the CLI) may do with one configured server. */
export interface ServerControl {
  startServer(name: string): Promise<void>;
  stopServer(name: string): Promise<void>;
  restartServer(name: string): Promise<void>;
  /** Re-read `tools/list` of one server, or of every connected one. */
  refreshTools(name?: string): Promise<void>;
}

interface Member {
  readonly connection: ServerConnection;
  readonly listeners: DisposableStore;
}

/**
 * Every configured server's connection, in settings order: create and remove them as the
 * settings change, start what the role wants, stop what it no longer uses, restart what changed.
 */
export class ServerFleet implements ServerControl {
  private readonly _onDidChangeState = new Emitter<ServerStateEvent>();
  readonly onDidChangeState = this._onDidChangeState.event;
  private readonly _onDidChangeTools = new Emitter<ServerToolsEvent>();
  readonly onDidChangeTools = this._onDidChangeTools.event;
  /** Masks every secret the servers' starts resolved (and key-redacted argument values): shared by all of them and the router. */
  readonly redactor = new SecretRedactor();
  private readonly _onDidChangeCatalogs = new Emitter<string>();
  /** A server's resources, templates or prompts changed (its name). */
  readonly onDidChangeCatalogs = this._onDidChangeCatalogs.event;
  private readonly _onDidUpdateResource = new Emitter<ResourceUpdatedEvent>();
  readonly onDidUpdateResource = this._onDidUpdateResource.event;

  private readonly members = new Map<string, Member>();
  /** Servers a person just started or restarted (their next admission is explicit). */
  private readonly explicit = new Set<string>();
  private settings: readonly ServerSettings[];
  /** The start in progress (servers are started one event-loop turn apart). */
  private starting?: Promise<void>;
  private closing?: Promise<void>;

  constructor(
    servers: readonly ServerSettings[],
    private readonly options: ServerFleetOptions,
  ) {
    this.settings = servers;
    for (const s of servers) this.add(s);
  }

  get(name: string): ServerConnection | undefined {
    return this.members.get(name)?.connection;
  }

  /** Connections in settings order. */
  all(): readonly ServerConnection[] {
    return this.settings.map((s) => this.members.get(s.name)?.connection).filter((c): c is ServerConnection => !!c);
  }

  /** Start every server the role wants, in parallel; resolves when each has settled. */
  start(): Promise<void> {
    this.starting = (async () => {
      const starts: Promise<void>[] = [];
      for (const c of this.all()) {
        starts.push(this.startIfWanted(c));
        // spawn() is synchronous: yield between servers so ten of them do not block the
        // extension host for the sum of their spawns (measured: 94–140 ms for 10).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await Promise.all(starts);
    })();
    return this.starting;
  }

  /** Resolves when the start in progress and the start-up of every server `which` picks have settled, or after `timeoutMs`. */
  async whenSettled(which: (s: ServerSettings) => boolean, timeoutMs?: number): Promise<void> {
    const all = (async () => {
      await this.starting;
      await Promise.all(this.all().filter((c) => which(c.settings)).map((c) => c.whenSettled()));
    })();
    if (timeoutMs === undefined) return all;
    await withTimeout(all, timeoutMs, () => 'not settled').catch(() => undefined);
  }

  async startServer(name: string): Promise<void> {
    const c = this.require(name);
    if (!this.options.trusted()) return c.markUntrusted();
    this.explicit.add(name);
    await c.start();
  }

  /** Start one server the role wants (and nothing else), its tools listed only up to `listUntil`. */
  async startOne(name: string, listUntil: string): Promise<void> {
    const c = this.require(name);
    if (!this.options.wanted(c.settings)) return;
    if (!this.options.trusted()) return c.markUntrusted();
    this.starting = c.start({ listUntil });
    await this.starting;
  }

  async stopServer(name: string): Promise<void> {
    await this.require(name).stop();
    this._onDidChangeTools.fire({ server: name, tools: undefined, removed: false });
  }

  async restartServer(name: string): Promise<void> {
    const c = this.require(name);
    if (!this.options.trusted()) return;
    this.explicit.add(name);
    await c.restart();
  }

  async refreshTools(name?: string): Promise<void> {
    const targets = name ? [this.require(name)] : this.all();
    await Promise.all(targets.filter((c) => ConnectionState.isConnected(c.state)).map((c) => c.refreshTools()));
  }

  /**
   * Apply new server settings without disturbing what did not change: added servers start,
   * removed ones stop, changed ones restart, untouched ones keep running.
   */
  async apply(next: readonly ServerSettings[]): Promise<void> {
    const before = new Map(this.settings.map((s) => [s.name, s]));
    this.settings = next;
    const work: Promise<void>[] = [];
    for (const name of before.keys()) if (!next.some((s) => s.name === name)) work.push(this.remove(name));
    for (const s of next) {
      const old = before.get(s.name);
      if (!old) this.add(s);
      else if (canonicalJson(old) !== canonicalJson(s)) work.push(this.remove(s.name).then(() => this.add(s)));
    }
    await Promise.all(work);
    await this.reconcile();
  }

  /** Start what the role wants and is at rest, stop what it no longer wants; mark servers held back by trust. */
  async reconcile(): Promise<void> {
    const trusted = this.options.trusted();
    const work: Promise<void>[] = [];
    for (const c of this.all()) {
      const used = this.options.wanted(c.settings);
      const wanted = trusted && used;
      if (wanted && !ConnectionState.needsStop(c.state)) work.push(this.startIfWanted(c));
      else if (!wanted && ConnectionState.needsStop(c.state)) work.push(this.stopServer(c.name));
      else if (!trusted && used) c.markUntrusted();
    }
    await Promise.all(work);
  }

  /** Ends every server process; a second caller waits for the same work. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.members.values()].map((m) => m.connection.close()));
      for (const m of this.members.values()) m.listeners.dispose();
      this.members.clear();
      this._onDidChangeState.dispose();
      this._onDidChangeTools.dispose();
      this._onDidChangeCatalogs.dispose();
      this._onDidUpdateResource.dispose();
    })();
    return this.closing;
  }

  private require(name: string): ServerConnection {
    const c = this.get(name);
    if (!c) throw new Error(`no server named "${name}"`);
    return c;
  }

  private async startIfWanted(c: ServerConnection): Promise<void> {
    if (!this.options.wanted(c.settings)) return;
    if (!this.options.trusted()) return c.markUntrusted();
    if (ConnectionState.startsWhenWanted(c.state)) await c.start();
  }

  private add(s: ServerSettings): void {
    const o = this.options;
    const connection = new ServerConnection({
      settings: s,
      resolve: (settings) => this.resolve(settings),
      transports: o.transports,
      logger: o.logger,
      clientInfo: o.clientInfo,
      features: o.features,
      calls: o.calls,
      backoff: o.backoff,
      redactor: this.redactor,
      maxMessageBytes: o.maxMessageBytes,
      logLevel: o.logLevel,
      eras: o.eras,
      toolLists: o.toolLists,
    });
    const listeners = new DisposableStore();
    listeners.add(connection.onDidChangeState((state) => this._onDidChangeState.fire({ server: s.name, state })));
    listeners.add(connection.onDidChangeTools((tools) => this._onDidChangeTools.fire({ server: s.name, tools })));
    listeners.add(connection.catalogs.onDidChange(() => this._onDidChangeCatalogs.fire(s.name)));
    listeners.add(connection.catalogs.resources.onDidUpdate((uri) => this._onDidUpdateResource.fire({ server: s.name, uri })));
    this.members.set(s.name, { connection, listeners });
  }

  private async resolve(settings: ServerSettings): Promise<ResolvedServer> {
    const explicit = this.explicit.delete(settings.name);
    const resolved = await this.options.resolve(settings);
    if (!resolved.ok || !this.options.admit) return resolved;
    const refusal = await this.options.admit(settings, resolved, explicit);
    return refusal === undefined ? resolved : { ok: false, error: refusal };
  }

  private async remove(name: string): Promise<void> {
    const m = this.members.get(name);
    this.members.delete(name);
    m?.listeners.dispose();
    this._onDidChangeTools.fire({ server: name, tools: undefined, removed: true });
    if (m) await m.connection.close();
    this._onDidChangeState.fire({ server: name, state: ConnectionState.stopped });
  }
}
