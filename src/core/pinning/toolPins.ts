import type { Implementation, Tool } from '@modelcontextprotocol/client';
import type { AuditLog } from '../audit/auditLog';
import type { Actor } from '../audit/auditRecord';
import type { PinningMode } from '../settings/hostSettings';
import type { ResolvedSettings } from '../settings/resolveServerSettings';
import { definitionHash } from '../tools/definitionHash';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import { buildReview, type DefinitionReview } from './definitionReview';
import { withServer, type LockedServer, type LockedTool } from './lockfile';
import type { LockfileRead, LockfileStore } from './lockfileStore';
import { hasDrift, isConsistent, pinServer, type Quarantine, type ServerPins } from './pinningPolicy';
import { sameIdentity, serverIdentity, type ServerIdentity } from './serverIdentity';

export class ReviewError extends Error {}

export interface ToolPinsOptions {
  readonly store: LockfileStore;
  readonly audit: AuditLog;
  readonly logger: Logger;
  /** Written as `${workspaceFolder}` in identities, so the lockfile reads the same on every machine. */
  readonly workspaceFolder?: string;
  /** What `initialize` told us about a connected server (recorded with its review). */
  readonly serverInfo: (server: string) => Implementation | undefined;
}

interface Live {
  tools?: readonly Tool[];
  identity?: ServerIdentity;
  /** With `${env:}` values in place of the variables, as earlier versions wrote it (see setResolved). */
  resolvedIdentity?: ServerIdentity;
}

/**
 * The lockfile at run time: holds each server's listed tools against its reviewed entry, answers
 * "is this tool quarantined, and why" in O(1) for the router and the snapshot, and turns a person's
 * approval into a new lockfile entry (plus an audit record).
 */
export class ToolPins {
  private readonly _onDidChange = new Emitter<void>();
  /** Quarantines, pending reviews or the lockfile changed. */
  readonly onDidChange = this._onDidChange.event;
  private _read?: LockfileRead;
  private readonly live = new Map<string, Live>();
  private readonly pins = new Map<string, ServerPins>();
  /** Servers whose listing is partial in this process (a one-shot call): never reviewed or written from. */
  private readonly partial = new Set<string>();

  constructor(
    private mode: PinningMode,
    private readonly o: ToolPinsOptions,
  ) {
    // Read on first use, or right after the servers were spawned: a large lockfile (15 MB for
    // 20,000 tools) is then parsed while the servers start instead of before (one-shot `call`).
    if (mode !== 'off') setImmediate(() => void this.read).unref();
  }

  private get read(): LockfileRead {
    if (!this._read) {
      this._read = this.o.store.read();
      if ('error' in this._read) this.o.logger.error(`pinning: ${this._read.error}; every tool is quarantined until it is fixed`);
    }
    return this._read;
  }

  private set read(r: LockfileRead) {
    this._read = r;
  }

  get pinningMode(): PinningMode {
    return this.mode;
  }

  /** Where the lockfile is and whether it exists or why it cannot be used. */
  get lockfile(): { readonly location: string; readonly exists: boolean; readonly error?: string } {
    const r = this.read;
    return 'error' in r ? { location: this.o.store.location, exists: true, error: r.error } : { location: this.o.store.location, exists: r.exists };
  }

  setMode(mode: PinningMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.recomputeAll();
  }

  /** Re-read the lockfile (changed on disk: a pull, `mcp-host lock` in a terminal). */
  reload(): void {
    this.read = this.o.store.read();
    this.recomputeAll();
  }

  /**
   * The settings a server is started with, after variable resolution (from the fleet, before each
   * start). The lockfile is shared, so its identity keeps each `${env:NAME}` as written, never the
   * value; a changed value is caught per user by consent (identityKey.ts says why). An entry that an
   * earlier version wrote with the values still counts as reviewed while they match, and the next
   * lock or approval rewrites it with the variables.
   */
  setResolved(server: string, resolved: ResolvedSettings): void {
    const live = this.liveOf(server);
    const o = { secretValues: resolved.secretValues, workspaceFolder: this.o.workspaceFolder };
    live.identity = serverIdentity(resolved.shown, o);
    live.resolvedIdentity = Object.keys(resolved.shownVariables).length ? serverIdentity(resolved.server, o) : undefined;
    if (live.tools) this.recompute(server);
  }

  /** A server's listed tools (undefined: it holds none any more). Call before the registry hears of them. */
  setTools(server: string, tools: readonly Tool[] | undefined): void {
    this.liveOf(server).tools = tools;
    this.recompute(server);
  }

  /** The lockfile as the consent question needs it: the server's entry, and how it is about to start. */
  consentInput(server: string): { mode: PinningMode; lockError?: string; entry?: LockedServer; identity?: ServerIdentity } {
    return { mode: this.mode, ...('error' in this.read ? { lockError: this.read.error } : { entry: this.entry(server) }), identity: this.live.get(server)?.identity };
  }

  /**
   * A one-shot call uses one tool of `server`: its listing stops at that tool and keeps only it
   * (listAllTools `stopAfter`). Each listed tool is still held against its pin exactly; what the
   * server lists is not taken as its whole list, so no tool counts as removed and nothing can be
   * reviewed, approved or locked from it in this process.
   */
  listsPartially(server: string, tool: string): void {
    this.partial.add(server);
    // Its pin is read while the server starts, not after the listing found the tool.
    if (this.mode !== 'off') setImmediate(() => this.entry(server, [tool])).unref();
  }

  /** A server removed from the settings. */
  forget(server: string): void {
    this.live.delete(server);
    if (this.pins.delete(server)) this._onDidChange.fire();
  }

  quarantine(server: string, tool: string): Quarantine | undefined {
    return this.pins.get(server)?.quarantined.get(tool);
  }

  /** Lockfile entries whose hash is not the hash of their definition ("server/tool"). */
  inconsistentEntries(): string[] {
    if ('error' in this.read) return [];
    const out: string[] = [];
    for (const [server, entry] of Object.entries(this.read.lock.servers)) {
      for (const [tool, t] of Object.entries(entry.tools)) if (!isConsistent(t)) out.push(`${server}/${tool}`);
    }
    return out;
  }

  /** Names of the servers the lockfile has an entry for. */
  lockedServers(): string[] {
    return 'error' in this.read ? [] : Object.keys(this.read.lock.servers).sort();
  }

  /** Every server's pins as of now (for a snapshot). */
  snapshot(): ReadonlyMap<string, ServerPins> {
    return new Map(this.pins);
  }

  /** The server's tools held against the lockfile, while it holds tools. */
  serverPins(server: string): ServerPins | undefined {
    return this.pins.get(server);
  }

  /** What approving the server would write, or undefined when it matches the lockfile. */
  review(server: string): DefinitionReview | undefined {
    const p = this.pins.get(server);
    if (!p || !hasDrift(p)) return undefined;
    return buildReview(p, { before: this.entry(server)?.identity, after: this.live.get(server)?.identity });
  }

  /** Write the reviewed definitions of `server` to the lockfile. `token` is the one of the review the person saw. */
  approve(server: string, token: string, by: Actor, atConsent = false): void {
    if (this.mode === 'locked') throw new ReviewError('mcpHost.pinning is "locked": nothing is written; update mcp-host.lock.json with "mcp-host lock" and commit it');
    const review = this.checkedReview(server, token);
    const pins = this.pins.get(server);
    this.writeEntries([server], []);
    this.record(review, pins, 'approve', by, atConsent);
  }

  /** Keep the lockfile as it is: the tools stay quarantined; the decision is audited. */
  reject(server: string, token: string, by: Actor): void {
    this.record(this.checkedReview(server, token), this.pins.get(server), 'reject', by);
  }

  /**
   * `mcp-host lock`: write the entries of every listed server in `servers` from what it lists now, and
   * drop entries of servers no longer configured. Returns the reviews that were approved.
   */
  lockAll(servers: readonly string[], configured: readonly string[], by: Actor): DefinitionReview[] {
    const listed = servers.filter((s) => this.live.get(s)?.tools && this.live.get(s)?.identity);
    const reviews = listed.map((s) => this.review(s)).filter((r): r is DefinitionReview => !!r);
    const pins = reviews.map((r) => this.pins.get(r.server));
    const lock = 'error' in this.read ? undefined : this.read.lock;
    const dropped = lock ? Object.keys(lock.servers).filter((s) => !configured.includes(s)) : [];
    const holdsValues = listed.some((s) => this.holdsValues(s));
    if (reviews.length || dropped.length || holdsValues || 'error' in this.read || !this.read.exists) this.writeEntries(listed, dropped);
    reviews.forEach((r, i) => this.record(r, pins[i], 'approve', by));
    return reviews;
  }

  /** Whether the server's lockfile entry was written by an earlier version, with the values of its `${env:}` in place. */
  holdsValues(server: string): boolean {
    const live = this.live.get(server);
    const locked = live?.resolvedIdentity && this.entry(server, []);
    return !!locked && !!live.identity && !sameIdentity(locked.identity, live.identity) && sameIdentity(locked.identity, live.resolvedIdentity!);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private checkedReview(server: string, token: string): DefinitionReview {
    if (this.partial.has(server)) throw new ReviewError(`server "${server}" was started for one call and listed only that tool: review it in a full session`);
    const review = this.review(server);
    if (!review) throw new ReviewError(`server "${server}" has nothing to review: its tools match the lockfile`);
    if (review.token !== token) throw new ReviewError(`the tools of server "${server}" changed while they were being reviewed; review them again`);
    return review;
  }

  private writeEntries(servers: readonly string[], dropped: readonly string[]): void {
    let lock = 'error' in this.read ? { version: 1 as const, servers: {} } : this.read.lock;
    for (const server of servers) lock = withServer(lock, server, this.entryFromLive(server));
    for (const server of dropped) lock = withServer(lock, server, undefined);
    this.o.store.write(lock);
    this.read = { lock, exists: true };
    this.recomputeAll();
  }

  private entryFromLive(server: string): LockedServer {
    if (this.partial.has(server)) throw new ReviewError(`server "${server}" was started for one call and listed only that tool: lock it in a full session`);
    const live = this.live.get(server);
    if (!live?.tools || !live.identity) throw new ReviewError(`server "${server}" is not connected: start it to review its tools`);
    const tools: Record<string, LockedTool> = {};
    for (const t of live.tools) if (!(t.name in tools)) tools[t.name] = { hash: definitionHash(t), definition: t };
    const info = this.o.serverInfo(server);
    return { identity: live.identity, ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}), tools };
  }

  private record(r: DefinitionReview, p: ServerPins | undefined, decision: 'approve' | 'reject', by: Actor, atConsent = false): void {
    void this.o.audit.record({
      kind: 'review',
      ts: new Date().toISOString(),
      server: r.server,
      decision,
      by,
      firstReview: r.firstReview,
      added: (p?.added ?? []).map((t) => ({ tool: t.name, hash: definitionHash(t) })),
      changed: (p?.changed ?? []).map((c) => ({ tool: c.tool, fields: c.fields, before: c.before.hash, after: definitionHash(c.after) })),
      removed: (p?.removed ?? []).map((t) => ({ tool: t.definition.name, hash: t.hash })),
      identityChanges: r.identityChanges,
      ...(atConsent ? { atConsent } : {}),
    });
    this.o.logger.info(`[${r.server}] tool definitions ${decision === 'approve' ? 'approved' : 'rejected'} by ${by.user} (${by.via}${atConsent ? ', when allowing it to start' : ''})`);
  }

  /** The server's lockfile entry; `tools`: only those of its tools are needed (a partial listing). */
  private entry(server: string, tools?: readonly string[]): LockedServer | undefined {
    const r = this.read;
    if ('error' in r) return undefined;
    return r.server ? r.server(server, tools) : r.lock.servers[server];
  }

  private liveOf(server: string): Live {
    let live = this.live.get(server);
    if (!live) this.live.set(server, (live = {}));
    return live;
  }

  private recompute(server: string, fire = true): void {
    const live = this.live.get(server);
    if (!live?.tools) {
      if (this.pins.delete(server) && fire) this._onDidChange.fire();
      return;
    }
    const partial = this.partial.has(server);
    this.pins.set(
      server,
      pinServer({
        server,
        mode: this.mode,
        locked: this.entry(server, partial ? live.tools.map((t) => t.name) : undefined),
        lockError: 'error' in this.read ? this.read.error : undefined,
        identity: live.identity,
        resolvedIdentity: live.resolvedIdentity,
        tools: live.tools,
        partial,
      }),
    );
    if (fire) this._onDidChange.fire();
  }

  private recomputeAll(): void {
    for (const server of this.live.keys()) this.recompute(server, false);
    this._onDidChange.fire();
  }
}
