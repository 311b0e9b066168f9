import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { SecretRedactor } from '../audit/secretRedactor';
import { signInRequiredIn } from '../auth/signInRequiredError';
import { DEFAULTS, type ServerSettings } from '../settings/hostSettings';
import { errorText } from '../util/errorText';
import { Emitter } from '../util/event';
import type { ToolDefinitionProblem } from './checkToolDefinitions';
import { wireNotifications } from './clientNotifications';
import { CoalescedRefresh } from './coalescedRefresh';
import { ConnectionState, whenStateSettles, type ServerInfo } from './connectionState';
import { discoverTools, narrowTo, newProblems, type CacheHint, type ListedTools } from './listAllTools';
import { mirrorsHeaders } from './headerAnnotations';
import { LiveConnection } from './liveConnection';
import { featuresSettled, openClient } from './openClient';
import { RestartSchedule } from './restartBackoff';
import { ServerCatalogs } from './serverCatalogs';
import { ServerResponseCache } from './responseCache';
import type { ServerConnectionOptions } from './serverConnectionOptions';
import type { ServerTransport, TransportKind } from './serverTransport';
import { StderrTail, describeClose, describeStartFailure } from './startFailure';
import type { ToolCallOptions } from './call/toolCall';
import { listedTool } from './listedTool';
import { identityHash, serverIdentity } from '../pinning/serverIdentity';
import { keepsAcrossProcesses } from './toolListStore';
import { canonicalJson } from '../tools/definitionHash';

export type { ServerConnectionOptions } from './serverConnectionOptions';
export type { ToolDefinitionProblem } from './checkToolDefinitions';

/** Raised by callTool when there is no live connection; the router turns it into an `error` outcome. */
export class ServerUnavailableError extends Error {}

/**
 * One MCP client for one configured server: transport, `initialize`, tool discovery (all pages),
 * list_changed refreshes, restart with backoff after an unexpected exit, and calls.
 */
export class ServerConnection {
  readonly name: string;
  private readonly _onDidChangeState = new Emitter<ConnectionState>();
  readonly onDidChangeState = this._onDidChangeState.event;
  /** Fires with the full tool list after every discovery (start, refresh, list_changed); not on stop. */
  private readonly _onDidChangeTools = new Emitter<readonly Tool[]>();
  readonly onDidChangeTools = this._onDidChangeTools.event;

  private _state: ConnectionState = ConnectionState.idle;
  private _tools: readonly Tool[] = [];
  private _toolProblems: readonly ToolDefinitionProblem[] = [];
  private live?: LiveConnection;
  /** Closing what an unexpected close left behind (the rest of a process group): awaited by the next close. */
  private reaping?: Promise<void>;
  /** The transport of a start still in initialize: closed too by stop/close, or its process outlives us. */
  private pendingTransport?: ServerTransport;
  private generation = 0;
  private readonly restarts: RestartSchedule;
  private readonly refresh: CoalescedRefresh;
  private closed = false;
  private readonly redactor: SecretRedactor;
  private readonly stderr: StderrTail;
  private startPromise?: Promise<void>;
  /** Resources, templates, prompts and the log level of the connected client. */
  readonly catalogs: ServerCatalogs;
  private listUntil?: string;
  /** Results the server said may be served again (ttlMs / cacheScope), bound to its identity. */
  private readonly cache = new ServerResponseCache();
  /** The server as last started (every variable resolved): the key of its list kept across processes. */
  private startedAs?: ServerSettings;

  constructor(private readonly options: ServerConnectionOptions) {
    this.name = options.settings.name;
    this.redactor = options.redactor ?? new SecretRedactor();
    if (!options.settings.enabled) this._state = ConnectionState.disabled;
    this.restarts = new RestartSchedule(options.backoff, options.stableAfterMs);
    this.stderr = new StderrTail((line) => options.logger.info(`[${this.name}] stderr: ${line}`));
    const refreshFailed = (e: unknown) => this.options.logger.warn(`[${this.name}] refreshing tools failed: ${this.redact(errorText(e))}`);
    this.refresh = new CoalescedRefresh(() => this.discover(this.generation, false), refreshFailed, options.refreshDebounceMs ?? 30);
    this.catalogs = new ServerCatalogs({
      ...options,
      server: this.name,
      redact: (t) => this.redact(t),
      listTimeoutMs: options.settings.connectTimeoutMs,
      onSubscriptionsChanged: () => void this.live?.relisten(),
    });
  }

  get settings(): ServerSettings {
    return this.options.settings;
  }
  get state(): ConnectionState {
    return this._state;
  }
  get tools(): readonly Tool[] {
    return this._tools;
  }
  /** Tools of the last discovery that were dropped (or loaded without a malformed part), with the reason. */
  get toolProblems(): readonly ToolDefinitionProblem[] {
    return this._toolProblems;
  }
  /** The server's process id while a stdio server runs. */
  get pid(): number | undefined {
    return this.live?.transport.pid;
  }
  /** How the current connection is carried (after any fallback), while connected. */
  get transportKind(): TransportKind | undefined {
    return this.live?.transport.kind;
  }
  /** The MCP session id a Streamable HTTP server assigned (`Mcp-Session-Id`), while connected. */
  get sessionId(): string | undefined {
    return this.live?.transport.transport.sessionId;
  }

  /** Start (or restart); resolves once connected or failed, never rejects. `listUntil`: first listing stops at the page naming it. */
  start(options: { listUntil?: string } = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.options.settings.enabled) return Promise.resolve(this.setState(ConnectionState.disabled));
    this.restarts.reset();
    this.listUntil = options.listUntil;
    this.startPromise = this.connect(1, false);
    return this.startPromise;
  }

  /** Resolves when the current start-up settles (connected, error, stopped...). */
  async whenSettled(): Promise<void> {
    // A start requested a moment ago may not have switched the state to "starting" yet.
    await this.startPromise;
    await whenStateSettles(() => this._state, this.onDidChangeState);
  }

  async stop(): Promise<void> {
    this.generation++;
    this.restarts.clear();
    this.refresh.cancel();
    await this.closeCurrent();
    this._tools = [];
    if (!this.closed) this.setState(this.options.settings.enabled ? ConnectionState.stopped : ConnectionState.disabled);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /**
   * Forget every result held for this server (its `private` ones included). For a change of
   * credentials the settings do not show (an OAuth sign-in or sign-out): the same settings must not
   * serve one account's results to the next.
   */
  forgetResults(): void {
    this.cache.clear();
  }

  /** Mark the server as not started because the workspace is untrusted. */
  markUntrusted(): void {
    this.setState(ConnectionState.untrusted);
  }

  /** Re-read every page of `tools/list` now (coalesced with any refresh in flight). */
  refreshTools(): Promise<void> {
    return this.refresh.now();
  }

  /**
   * Send `tools/call` (see sendToolCall: progress, tasks, the ServerCalls clock, a classified
   * rejection); resolves with the result as sent (any JSON object: the router checks it part by
   * part). A server that cannot be reached any more is treated like one that exited.
   */
  callTool(tool: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<Record<string, unknown>> {
    const live = this.live;
    if (!live || !ConnectionState.isConnected(this._state)) {
      return Promise.reject(new ServerUnavailableError(`server "${this.name}" is ${ConnectionState.describe(this._state)}`));
    }
    return live.callTool(listedTool(this._tools, tool), tool, args, options);
  }

  /** Mask every known secret (resolved `${secret:…}`, key-redacted argument values) in text that leaves the host. */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** Ends the server (its whole process group) for good. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.generation++;
    this.restarts.clear();
    this.refresh.close();
    await this.closeCurrent();
    this.catalogs.close();
    this._onDidChangeState.dispose();
    this._onDidChangeTools.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private async connect(attempt: number, isRestart: boolean): Promise<void> {
    const gen = ++this.generation;
    await this.closeCurrent();
    if (gen !== this.generation) return;
    this.setState({ kind: 'starting', attempt });
    const settings = this.options.settings;
    const resolved = await this.options.resolve(settings);
    if (gen !== this.generation) return;
    if (!resolved.ok) {
      // A configuration problem: retrying cannot help. Said on the log too: `call` and `session` show no table.
      this.setState({ kind: 'error', message: resolved.error });
      return this.options.logger.error(`[${this.name}] cannot start: ${resolved.error}`);
    }
    this.redactor.setServerSecrets(this.name, resolved.secretValues, resolved.shownVariables);
    this.startedAs = resolved.server;
    this.stderr.clear();
    const url = resolved.server.type === 'stdio' ? undefined : resolved.server.url;
    let transport: ServerTransport | undefined;
    const identity = identityHash(serverIdentity(resolved.server, { secretValues: resolved.secretValues }));
    let unproven = false;
    try {
      const opened = await openClient(resolved.server, {
        factory: this.options.transports,
        clientInfo: this.options.clientInfo,
        features: this.options.features,
        timeoutMs: settings.connectTimeoutMs,
        name: this.name,
        maxMessageBytes: settings.maxMessageBytes ?? this.options.maxMessageBytes?.() ?? DEFAULTS.maxMessageBytes,
        onStderrLine: (line) => this.stderr.push(this.redact(line)),
        onFallback: (reason) => this.options.logger.info(`[${this.name}] ${reason}`),
        onTransport: (t) => (transport = this.pendingTransport = t),
        abandoned: () => gen !== this.generation,
        ...(this.options.eras ? { eras: { store: this.options.eras, identity } } : {}),
        cache: { store: this.cache, partition: this.cache.useIdentity(credentialedIdentity(resolved.server)) },
      }).finally(() => {
        if (this.pendingTransport === transport) this.pendingTransport = undefined;
      });
      unproven = opened.unproven === true;
      const live = new LiveConnection(opened.client, opened.transport, url, (reason) => this.onLost(live, reason), {
        server: this.name,
        clocks: this.options.calls,
        // A call met a header mismatch: the server's tools changed without a list_changed; read them again.
        toolsStale: () => gen === this.generation && !this.closed && this.refresh.soon(),
      });
      if (gen !== this.generation) return live.close();
      this.live = live;
      const info = this.listen(live, gen, opened.protocolVersion);
      // Tools (and resources, prompts, a modern server's listen stream) first, then "connected": whoever waits for the state sees them with it.
      await Promise.all([this.discover(gen, true), this.catalogs.attach(opened.client), this.subscribe(live, gen)]);
      await featuresSettled(this.options.features ?? [], opened.client);
      if (gen !== this.generation) return;
      this.restarts.connected();
      this.setState({ kind: 'connected', info });
      this.options.logger.info(
        `[${this.name}] ${ConnectionState.describe(this._state)} over ${opened.transport.kind}, ${this._tools.length} tools` +
          (info.capabilities.tools ? '' : ' (no tools capability)'),
      );
    } catch (e) {
      if (gen !== this.generation) return;
      const closing = this.live;
      this.live = undefined;
      await Promise.all([closing?.close(), transport?.transport.close().catch(() => undefined)]);
      // Waits for a person to sign in: not an error, and never retried by itself (issue 11).
      const signIn = signInRequiredIn(e);
      if (signIn) {
        this.setState({ kind: 'needsSignIn', message: this.redactor.message(this.name, signIn.message), ...(signIn.issuer ? { issuer: signIn.issuer } : {}) });
        return this.options.logger.warn(`[${this.name}] ${ConnectionState.describe(this._state)}`);
      }
      // Opened from a remembered 2026-07-28 verdict, and its first requests failed: the server may
      // have changed era. Forget the verdict and connect again, probing (once: no verdict is left).
      if (unproven && this.options.eras) {
        await this.options.eras.delete(identity).catch(() => undefined);
        this.options.logger.info(`[${this.name}] the remembered protocol era (modern) did not work (${this.redact(errorText(e))}); detecting it again`);
        return this.connect(attempt, isRestart);
      }
      const message = this.redactor.message(this.name, describeStartFailure(e, transport, settings.connectTimeoutMs, this.stderr, url));
      if (isRestart) return this.scheduleRestart(message);
      this.setState({ kind: 'error', message });
      this.options.logger.error(`[${this.name}] failed to start: ${message}`);
    }
  }

  /** Wire the client's close, errors and notifications; returns what initialize told us. */
  private listen(live: LiveConnection, gen: number, protocolVersion: string | undefined): ServerInfo {
    return wireNotifications(live.client, protocolVersion, {
      name: this.name,
      logger: this.options.logger,
      redact: (t) => this.redact(t),
      onListChanged: () => {
        this.dropTools();
        if (gen === this.generation && !this.closed) this.refresh.soon();
      },
      onClose: () => live.lost(),
    });
  }

  /** A 2026-07-28 server's `subscriptions/listen` stream: its list changes and resource updates take the legacy notifications' path. */
  private subscribe(live: LiveConnection, gen: number): Promise<void> {
    return live.listen({
      server: this.name,
      logger: this.options.logger,
      redact: (t) => this.redact(t),
      timeoutMs: this.options.settings.connectTimeoutMs,
      resourceUris: () => this.catalogs.resources.subscribed,
      onReopened: () => {
        if (gen !== this.generation || this.closed) return;
        this.dropTools();
        this.refresh.soon();
        this.catalogs.relist();
      },
    });
  }

  /**
   * Every tool (or, for a one-shot call, the one it names). A connect's discovery takes a fresh list
   * the server allowed to be kept: this connection's own, or for a one-shot call one a process
   * before kept (ToolListStore); such a call also lists the whole server when the server allows
   * the list to be kept, so that the next call can skip it. Whatever the source, a one-shot call
   * keeps only the entries of its name, each checked as a listing's (narrowTo).
   */
  private async discover(gen: number, cached: boolean): Promise<void> {
    const client = this.live?.client;
    if (!client) return;
    const stopAfter = this.listUntil;
    this.listUntil = undefined;
    const listsTools = !!client.getServerCapabilities()?.tools;
    let whole: ListedTools | undefined = cached && listsTools ? this.cache.freshTools() : undefined;
    if (whole) this.options.logger.debug(`[${this.name}] tools/list: ${whole.tools.length} tools from the cache (the server's ttlMs)`);
    const check = { headers: mirrorsHeaders(client, this.live!.transport.kind) };
    let listed: ListedTools | undefined;
    if (whole && stopAfter !== undefined) listed = narrowTo(whole, stopAfter, check);
    else if (whole) listed = whole;
    else if (cached && listsTools && stopAfter !== undefined) listed = await this.keptTool(stopAfter, check);
    if (!listed) {
      const started = this.startedAs;
      const keeps = this.options.toolLists && started ? (hint: CacheHint) => keepsAcrossProcesses(started, hint) : undefined;
      whole = await discoverTools(client, { timeoutMs: this.options.settings.connectTimeoutMs, stopAfter, ...check, ...(keeps ? { whole: keeps } : {}) }, this.redactor);
      if (gen !== this.generation) return;
      if (!whole.partial) {
        this.cache.keepTools(whole, whole.ttlMs);
        await this.keepAcrossProcesses(whole);
      }
      listed = stopAfter !== undefined && !whole.partial ? narrowTo(whole, stopAfter, check) : whole;
    }
    if (gen !== this.generation) return;
    for (const p of newProblems(this._toolProblems, listed.problems)) this.options.logger.warn(`[${this.name}] ${p.message}`);
    this._toolProblems = listed.problems;
    this._tools = listed.tools;
    this._onDidChangeTools.fire(this._tools);
  }

  /** The entries named `tool` of a fresh list a process before kept (ToolListStore), or undefined: list the server. */
  private async keptTool(tool: string, check: { headers?: boolean }): Promise<ListedTools | undefined> {
    const store = this.options.toolLists;
    if (!store || !this.startedAs) return undefined;
    const kept = await store.get(this.startedAs, tool).catch((e: unknown) => void this.options.logger.debug(`[${this.name}] kept tool list unreadable: ${errorText(e)}`));
    // None of that name: list the server, whose answer says why (or shows a tool added since).
    if (!kept || (kept.tools.length === 0 && !kept.problems.some((p) => p.tool === tool))) return undefined;
    this.options.logger.debug(`[${this.name}] tools/list skipped: the list kept until ${new Date(kept.expiresAt).toISOString()} (the server's ttlMs)`);
    return narrowTo(kept, tool, check);
  }

  /** Keep a whole list for the processes after this one, when the server allowed it and the key holds every credential (keepsAcrossProcesses); the store caps its time. */
  private async keepAcrossProcesses(whole: ListedTools): Promise<void> {
    const store = this.options.toolLists;
    const started = this.startedAs;
    if (!store || !started || !keepsAcrossProcesses(started, whole)) return;
    await store
      .set(started, { tools: whole.tools, problems: whole.problems, expiresAt: Date.now() + whole.ttlMs! })
      .catch((e: unknown) => this.options.logger.debug(`[${this.name}] could not keep the tool list: ${errorText(e)}`));
  }

  /** The server's tools changed: neither this connection's list nor one kept for other processes is used again. */
  private dropTools(): void {
    this.cache.dropTools();
    if (this.options.toolLists && this.startedAs) void this.options.toolLists.delete(this.startedAs).catch(() => undefined);
  }

  /**
   * A connection ended on its own (the process exited, the transport closed, the server cannot be
   * reached: `reason`). What is left is closed (awaited by the next close); a restart is scheduled.
   */
  private onLost(live: LiveConnection, reason: string): void {
    if (live !== this.live || this.closed) return;
    const why = this.redactor.message(this.name, reason || describeClose(live.transport, this.stderr));
    this.live = undefined;
    this.reaping = live.close();
    this.catalogs.detach();
    this.restarts.closed();
    this.options.logger.warn(`[${this.name}] ${why}`);
    this.scheduleRestart(why);
  }

  private scheduleRestart(reason: string): void {
    const next = this.restarts.next();
    if (!next) {
      const message = `gave up after ${this.restarts.policy.maxFailures} failed restarts: ${reason}`;
      this.setState({ kind: 'error', message });
      return this.options.logger.error(`[${this.name}] ${message}`);
    }
    // The last known tools stay registered: a call meanwhile gets a clear "restarting" error, not "not found".
    this.setState({ kind: 'restarting', attempt: next.attempt, delayMs: next.delayMs, reason });
    const gen = this.generation;
    this.restarts.schedule(next.delayMs, () => {
      if (gen === this.generation && !this.closed) void this.connect(next.attempt, true);
    });
  }

  private async closeCurrent(): Promise<void> {
    const { live, pendingTransport: pending, reaping } = this;
    this.live = undefined;
    this.pendingTransport = undefined;
    this.reaping = undefined;
    this.catalogs.detach();
    await Promise.all([reaping, live?.close(), pending?.transport.close().catch(() => undefined)]);
  }

  private setState(state: ConnectionState): void {
    if (this.closed) return;
    this._state = state;
    this._onDidChangeState.fire(state);
  }
}

/**
 * The result cache's identity: the server as started, every resolved value included (env and header
 * values, so a new token or key is another identity and empties the cache), hashed; in memory only.
 * serverIdentity leaves secrets and env values out on purpose (pins and consent survive a rotated
 * key), so it cannot tell two credentials apart. OAuth tokens are not settings: a sign-in or
 * sign-out empties the cache itself (forgetResults).
 */
function credentialedIdentity(server: ServerSettings): string {
  return createHash('sha256').update(canonicalJson(server)).digest('hex');
}
