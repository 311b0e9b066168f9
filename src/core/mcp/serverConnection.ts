import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { SignInRequiredError } from '../auth/signInRequiredError';
import type { ServerSettings } from '../settings/hostSettings';
import { redactSecrets } from '../settings/redactSecrets';
import { errorText } from '../util/errorText';
import { Emitter } from '../util/event';
import { wireNotifications } from './clientNotifications';
import { CoalescedRefresh } from './coalescedRefresh';
import { ConnectionState, type ServerInfo } from './connectionState';
import { listAllTools } from './listAllTools';
import { openClient } from './openClient';
import { RestartSchedule } from './restartBackoff';
import { ServerCatalogs } from './serverCatalogs';
import type { ServerConnectionOptions } from './serverConnectionOptions';
import type { ServerTransport, TransportKind } from './serverTransport';
import { StderrTail, describeClose, describeStartFailure } from './startFailure';
import { callToolWithProgress, type ProgressCallOptions } from './progressToolCall';

export type { ServerConnectionOptions } from './serverConnectionOptions';

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
  private client?: Client;
  private transport?: ServerTransport;
  /** The transport of a start still in initialize: closed too by stop/close, or its process outlives us. */
  private pendingTransport?: ServerTransport;
  private generation = 0;
  private readonly restarts: RestartSchedule;
  private readonly refresh: CoalescedRefresh;
  private closed = false;
  private _secretValues: readonly string[] = [];
  private readonly stderr: StderrTail;
  private startPromise?: Promise<void>;
  /** Resources, templates, prompts and the log level of the connected client. */
  readonly catalogs: ServerCatalogs;
  private listUntil?: string;

  constructor(private readonly options: ServerConnectionOptions) {
    this.name = options.settings.name;
    if (!options.settings.enabled) this._state = ConnectionState.disabled;
    this.restarts = new RestartSchedule(options.backoff, options.stableAfterMs);
    this.stderr = new StderrTail((line) => options.logger.info(`[${this.name}] stderr: ${line}`));
    this.refresh = new CoalescedRefresh(
      () => this.discover(this.generation),
      (e) => this.options.logger.warn(`[${this.name}] refreshing tools failed: ${this.redact(errorText(e))}`),
      options.refreshDebounceMs ?? 30,
    );
    this.catalogs = new ServerCatalogs({ ...options, server: this.name, redact: (t) => this.redact(t), listTimeoutMs: options.settings.connectTimeoutMs });
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
  /** The server's process id while a stdio server runs. */
  get pid(): number | undefined {
    return this.transport?.pid;
  }
  /** How the current connection is carried (after any fallback), while connected. */
  get transportKind(): TransportKind | undefined {
    return this.transport?.kind;
  }
  /** The MCP session id a Streamable HTTP server assigned (`Mcp-Session-Id`), while connected. */
  get sessionId(): string | undefined {
    return this.transport?.transport.sessionId;
  }

  /** Start (or restart); resolves once connected or failed, never rejects. `listUntil`: first listing stops at the page naming it. */
  start(options: { listUntil?: string } = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.options.settings.enabled) {
      this.setState(ConnectionState.disabled);
      return Promise.resolve();
    }
    this.restarts.reset();
    this.listUntil = options.listUntil;
    this.startPromise = this.connect(1, false);
    return this.startPromise;
  }

  /** Resolves when the current start-up settles (connected, error, stopped...). */
  async whenSettled(): Promise<void> {
    // A start requested a moment ago may not have switched the state to "starting" yet.
    await this.startPromise;
    while (ConnectionState.isSettling(this._state)) {
      await new Promise<void>((resolve) => {
        const d = this.onDidChangeState(() => {
          d.dispose();
          resolve();
        });
      });
    }
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

  /** Mark the server as not started because the workspace is untrusted. */
  markUntrusted(): void {
    this.setState(ConnectionState.untrusted);
  }

  /** Re-read every page of `tools/list` now (coalesced with any refresh in flight). */
  refreshTools(): Promise<void> {
    return this.refresh.now();
  }

  /**
   * Send `tools/call` with a progress token (as a task when the tool requires it). Timeouts and
   * aborts send `notifications/cancelled` (or `tasks/cancel`) and reject; the router classifies the rejection.
   */
  async callTool(tool: string, args: Record<string, unknown>, options: ProgressCallOptions): Promise<CallToolResult> {
    const client = this.client;
    if (!client || !ConnectionState.isConnected(this._state)) {
      throw new ServerUnavailableError(`server "${this.name}" is ${ConnectionState.describe(this._state)}`);
    }
    // While the server asks the user something, its calls' clocks stop (ServerCalls); that clock is
    // then the call's timeout, and progress restarts it like the SDK's resetTimeoutOnProgress would.
    const open = this.options.calls?.begin(this.name, tool, options.timeoutMs, options.signal, options.resetTimeoutOnProgress ?? true);
    try {
      const clocked = open ? { timeoutMs: open.sdkTimeoutMs, signal: open.signal, onProgress: open.withProgress(options.onProgress) } : {};
      return await callToolWithProgress(client, this._tools.find((t) => t.name === tool), tool, args, { ...options, ...clocked });
    } finally {
      open?.end();
    }
  }

  /** Mask this server's secret values (resolved `${secret:…}`) in text that leaves the host. */
  redact(text: string): string {
    return redactSecrets(text, this._secretValues);
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
      // A configuration problem: retrying cannot help.
      this.setState({ kind: 'error', message: resolved.error });
      return;
    }
    this._secretValues = resolved.secretValues;
    this.stderr.clear();

    let transport: ServerTransport | undefined;
    try {
      const opened = await openClient(resolved.server, {
        factory: this.options.transports,
        clientInfo: this.options.clientInfo,
        features: this.options.features,
        timeoutMs: settings.connectTimeoutMs,
        onStderrLine: (line) => this.stderr.push(this.redact(line)),
        onFallback: (reason) => this.options.logger.info(`[${this.name}] ${reason}`),
        onTransport: (t) => {
          transport = t;
          this.pendingTransport = t;
        },
      }).finally(() => {
        if (this.pendingTransport === transport) this.pendingTransport = undefined;
      });
      if (gen !== this.generation) {
        await opened.client.close().catch(() => undefined);
        return;
      }
      this.client = opened.client;
      this.transport = opened.transport;
      const info = this.listen(opened.client, gen, opened.protocolVersion);
      // Tools (and resources, prompts) first, then "connected": whoever waits for the state sees them with it.
      await Promise.all([this.discover(gen), this.catalogs.attach(opened.client)]);
      if (gen !== this.generation) return;
      this.restarts.connected();
      this.setState({ kind: 'connected', info });
      this.options.logger.info(
        `[${this.name}] ${ConnectionState.describe(this._state)} over ${opened.transport.kind}, ${this._tools.length} tools` +
          (info.capabilities.tools ? '' : ' (no tools capability)'),
      );
    } catch (e) {
      if (gen !== this.generation) return;
      const closing = transport;
      this.client = undefined;
      this.transport = undefined;
      await closing?.transport.close().catch(() => undefined);
      // Waits for a person to sign in: not an error, and never retried by itself (issue 11).
      if (e instanceof SignInRequiredError) {
        this.setState({ kind: 'needsSignIn', message: this.redact(e.message), ...(e.issuer ? { issuer: e.issuer } : {}) });
        return this.options.logger.warn(`[${this.name}] ${ConnectionState.describe(this._state)}`);
      }
      const message = this.redact(describeStartFailure(e, transport, settings.connectTimeoutMs, this.stderr));
      if (isRestart) {
        this.scheduleRestart(message);
      } else {
        this.setState({ kind: 'error', message });
        this.options.logger.error(`[${this.name}] failed to start: ${message}`);
      }
    }
  }

  /** Wire the client's close, errors and notifications; returns what initialize told us. */
  private listen(client: Client, gen: number, protocolVersion: string | undefined): ServerInfo {
    client.onclose = () => this.onClosed(gen);
    client.onerror = (err) => this.options.logger.debug(`[${this.name}] transport: ${this.redact(errorText(err))}`);
    return wireNotifications(client, protocolVersion, {
      name: this.name,
      logger: this.options.logger,
      redact: (t) => this.redact(t),
      onListChanged: () => {
        if (gen === this.generation && !this.closed) this.refresh.soon();
      },
    });
  }

  private async discover(gen: number): Promise<void> {
    const client = this.client;
    if (!client) return;
    // A server without the tools capability is never sent tools/list.
    const [stopAfter, timeoutMs] = [this.listUntil, this.options.settings.connectTimeoutMs];
    this.listUntil = undefined;
    const tools = client.getServerCapabilities()?.tools ? await listAllTools(client, { timeoutMs, stopAfter }) : [];
    if (gen !== this.generation) return;
    this._tools = tools;
    this._onDidChangeTools.fire(tools);
  }

  private onClosed(gen: number): void {
    // No client: the close of a start that failed after initialize (its catch handles it), not a loss.
    if (gen !== this.generation || this.closed || !this.client) return;
    const reason = describeClose(this.transport, this.stderr);
    this.client = undefined;
    this.catalogs.detach();
    this.transport = undefined;
    this.restarts.closed();
    this.options.logger.warn(`[${this.name}] ${reason}`);
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    const next = this.restarts.next();
    if (!next) {
      const message = `gave up after ${this.restarts.policy.maxFailures} failed restarts: ${reason}`;
      this.setState({ kind: 'error', message });
      this.options.logger.error(`[${this.name}] ${message}`);
      return;
    }
    // The last known tools stay registered: a call meanwhile gets a clear "restarting" error, not "not found".
    this.setState({ kind: 'restarting', attempt: next.attempt, delayMs: next.delayMs, reason });
    const gen = this.generation;
    this.restarts.schedule(next.delayMs, () => {
      if (gen === this.generation && !this.closed) void this.connect(next.attempt, true);
    });
  }

  private async closeCurrent(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pending = this.pendingTransport;
    this.client = undefined;
    this.transport = undefined;
    this.pendingTransport = undefined;
    this.catalogs.detach();
    if (client) await client.close().catch(() => undefined);
    if (transport) await transport.transport.close().catch(() => undefined);
    if (pending) await pending.transport.close().catch(() => undefined);
  }

  private setState(state: ConnectionState): void {
    if (this.closed) return;
    this._state = state;
    this._onDidChangeState.fire(state);
  }
}
