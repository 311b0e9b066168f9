import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Implementation,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerSettings } from '../settings/hostSettings';
import type { ResolvedServer } from '../settings/resolveServerSettings';
import { redactSecrets } from '../settings/redactSecrets';
import { Emitter } from '../util/event';
import { mcpLevelToLogLevel, type Logger } from '../util/logger';
import { connectClient } from './connectClient';
import { ConnectionState } from './connectionState';
import { listAllTools } from './listAllTools';
import { ProcessStdioTransport } from './processStdioTransport';
import { DEFAULT_BACKOFF, restartDelay, type BackoffPolicy } from './restartBackoff';

export interface ServerConnectionOptions {
  /** Settings as configured: variables are resolved on every start. */
  readonly settings: ServerSettings;
  readonly resolve: (settings: ServerSettings) => Promise<ResolvedServer>;
  readonly logger: Logger;
  readonly clientInfo: Implementation;
  readonly backoff?: BackoffPolicy;
  /** A connection that stays up this long resets the count of consecutive failures. */
  readonly stableAfterMs?: number;
  /** Quiet time that coalesces a burst of list_changed notifications into one refresh. */
  readonly refreshDebounceMs?: number;
}

/** Raised by callTool when there is no live connection; the router turns it into an `error` outcome. */
export class ServerUnavailableError extends Error {}

const STDERR_TAIL = 8;

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
  private transport?: Transport;
  /** The transport of a start still in initialize: closed too by stop/dispose, or its process outlives us. */
  private pendingTransport?: Transport;
  private generation = 0;
  private failures = 0;
  private connectedAt = 0;
  private restartTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private disposed = false;
  private _secretValues: readonly string[] = [];
  private readonly stderrTail: string[] = [];
  private startPromise?: Promise<void>;

  constructor(private readonly options: ServerConnectionOptions) {
    this.name = options.settings.name;
    if (!options.settings.enabled) this._state = ConnectionState.disabled;
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
  /** Secret values used by this server's settings, to be masked wherever text leaves the host. */
  get secretValues(): readonly string[] {
    return this._secretValues;
  }
  /** The child process id of a stdio server while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessStdioTransport ? this.transport.pid : undefined;
  }

  /** Start (or restart) the server; resolves once it is connected or has failed. Never rejects. */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.options.settings.enabled) {
      this.setState(ConnectionState.disabled);
      return Promise.resolve();
    }
    this.clearRestart();
    this.failures = 0;
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
    this.clearRestart();
    await this.closeCurrent();
    this._tools = [];
    if (!this.disposed) this.setState(this.options.settings.enabled ? ConnectionState.stopped : ConnectionState.disabled);
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
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          await this.discover(this.generation);
        } while (this.refreshAgain && !this.disposed);
      } catch (e) {
        this.options.logger.warn(`[${this.name}] refreshing tools failed: ${this.redact(errorText(e))}`);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /**
   * Send `tools/call`. Timeouts and aborts send `notifications/cancelled` (the SDK does it) and
   * reject; the router classifies the rejection.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CallToolResult> {
    const client = this.client;
    if (!client || !ConnectionState.isConnected(this._state)) {
      throw new ServerUnavailableError(`server "${this.name}" is ${ConnectionState.describe(this._state)}`);
    }
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: options.timeoutMs,
      signal: options.signal,
    });
    return result as CallToolResult;
  }

  redact(text: string): string {
    return redactSecrets(text, this._secretValues);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    this.clearRestart();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    await this.closeCurrent();
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
    this.stderrTail.length = 0;

    let transport: Transport | undefined;
    try {
      const connected = await withTimeout(
        connectClient(resolved.server, {
          clientInfo: this.options.clientInfo,
          timeoutMs: settings.connectTimeoutMs,
          onStderrLine: (line) => this.onStderr(line),
          onFallback: (reason) => this.options.logger.info(`[${this.name}] ${reason}`),
          onTransport: (t) => {
            transport = t;
            this.pendingTransport = t;
          },
        }),
        settings.connectTimeoutMs + 1000,
        () => `did not finish initialize within ${settings.connectTimeoutMs} ms`,
      ).finally(() => {
        if (this.pendingTransport === transport) this.pendingTransport = undefined;
      });
      if (gen !== this.generation) {
        await connected.client.close().catch(() => undefined);
        return;
      }
      this.client = connected.client;
      this.transport = connected.transport;
      const client = connected.client;
      client.onclose = () => this.onClosed(gen);
      client.onerror = (err) => this.options.logger.debug(`[${this.name}] transport: ${this.redact(errorText(err))}`);
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        const p = n.params;
        const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
        this.options.logger[mcpLevelToLogLevel(p.level)](`[${this.name}]${p.logger ? ` ${p.logger}:` : ''} ${this.redact(data)}`);
      });
      const capabilities = client.getServerCapabilities() ?? {};
      if (capabilities.tools) {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onListChanged(gen));
      }
      const info = {
        protocolVersion: connected.protocolVersion,
        serverInfo: client.getServerVersion(),
        capabilities,
        instructions: client.getInstructions(),
      };
      // Tools first, then "connected": whoever waits for the state sees the tools with it.
      await this.discover(gen);
      if (gen !== this.generation) return;
      this.connectedAt = Date.now();
      this.setState({ kind: 'connected', info });
      this.options.logger.info(
        `[${this.name}] ${ConnectionState.describe(this._state)} over ${connected.transportKind}, ${this._tools.length} tools` +
          (capabilities.tools ? '' : ' (no tools capability)'),
      );
    } catch (e) {
      if (gen !== this.generation) return;
      const closing = transport;
      this.client = undefined;
      this.transport = undefined;
      await closing?.close().catch(() => undefined);
      const message = this.failureMessage(e, transport);
      if (isRestart) {
        this.scheduleRestart(message);
      } else {
        this.setState({ kind: 'error', message });
        this.options.logger.error(`[${this.name}] failed to start: ${message}`);
      }
    }
  }

  private async discover(gen: number): Promise<void> {
    const client = this.client;
    if (!client) return;
    const capabilities = client.getServerCapabilities() ?? {};
    // A server without the tools capability is never sent tools/list.
    const tools = capabilities.tools
      ? await listAllTools(client, { timeoutMs: this.options.settings.connectTimeoutMs })
      : [];
    if (gen !== this.generation) return;
    this._tools = tools;
    this._onDidChangeTools.fire(tools);
  }

  private onListChanged(gen: number): void {
    if (gen !== this.generation || this.disposed) return;
    this.options.logger.debug(`[${this.name}] notifications/tools/list_changed`);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (gen === this.generation) void this.refreshTools();
    }, this.options.refreshDebounceMs ?? 30);
  }

  private onClosed(gen: number): void {
    if (gen !== this.generation || this.disposed) return;
    const t = this.transport;
    this.client = undefined;
    this.transport = undefined;
    const exit = t instanceof ProcessStdioTransport ? t.exit : undefined;
    const reason = exit
      ? `server process exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})${this.stderrHint()}`
      : 'connection closed';
    if (this.connectedAt && Date.now() - this.connectedAt >= (this.options.stableAfterMs ?? 60_000)) this.failures = 0;
    this.options.logger.warn(`[${this.name}] ${reason}`);
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    this.failures++;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const delay = restartDelay(backoff, this.failures);
    if (delay === undefined) {
      const message = `gave up after ${backoff.maxFailures} failed restarts: ${reason}`;
      this.setState({ kind: 'error', message });
      this.options.logger.error(`[${this.name}] ${message}`);
      return;
    }
    const attempt = this.failures + 1;
    // The last known tools stay registered: a call meanwhile gets a clear "restarting" error, not "not found".
    this.setState({ kind: 'restarting', attempt, delayMs: delay, reason });
    const gen = this.generation;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (gen === this.generation && !this.disposed) void this.connect(attempt, true);
    }, delay);
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async closeCurrent(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pending = this.pendingTransport;
    this.client = undefined;
    this.transport = undefined;
    this.pendingTransport = undefined;
    if (client) await client.close().catch(() => undefined);
    if (transport) await transport.close().catch(() => undefined);
    if (pending) await pending.close().catch(() => undefined);
  }

  private onStderr(line: string): void {
    const clean = this.redact(line);
    this.stderrTail.push(clean);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.options.logger.info(`[${this.name}] stderr: ${clean}`);
  }

  private stderrHint(): string {
    const last = this.stderrTail.filter((l) => l.trim()).slice(-2);
    return last.length ? `; last stderr: ${last.join(' | ')}` : '';
  }

  private failureMessage(e: unknown, transport: Transport | undefined): string {
    const exit = transport instanceof ProcessStdioTransport ? transport.exit : undefined;
    let message = errorText(e);
    if (exit && /connection closed/i.test(message)) {
      message = `server process exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}) before initialize completed`;
    } else if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
      message = `did not answer initialize within ${this.options.settings.connectTimeoutMs} ms (connectTimeoutMs)`;
    } else if ((e instanceof StreamableHTTPError || e instanceof SseError) && e.code !== undefined && e.code > 0) {
      message = `HTTP ${e.code}: ${message}${e.code === 401 || e.code === 403 ? ' (check the server\'s headers and secrets)' : ''}`;
    }
    return this.redact(message + this.stderrHint());
  }

  private setState(state: ConnectionState): void {
    if (this.disposed && state.kind !== 'stopped') return;
    this._state = state;
    this._onDidChangeState.fire(state);
  }
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

function withTimeout<T>(p: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message())), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
