import * as vscode from 'vscode';
import { newGatewayToken } from '../../core/gateway/bearerToken';
import type { Gateway, GatewayHttp, UpstreamClient } from '../../core/gateway/gateway';
import { loadGatewayServer } from '../../core/gateway/loadGatewayServer';
import { SETTINGS_SECTION } from '../../core/settings/settingPath';
import { SettingsSchema } from '../../core/settings/settingsSchema';
import { DisposableStore, Emitter, type Event } from '../../core/util/event';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import type { HostController } from '../hostController';

/** `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const GATEWAY_PROVIDER_ID = 'mcpHost.gateway';
/** The server's name in the editor; kept across roles and restarts, so the editor sees one server whose tools change. */
export const GATEWAY_LABEL = 'MCP Host';
const ENABLED_KEY = 'gateway.enabled';
export const GATEWAY_SETTING = `${SETTINGS_SECTION}.${ENABLED_KEY}`;

/** What the Servers view shows of the gateway (gatewayTreeNodes.ts). */
export type GatewayStatus =
  | { readonly kind: 'off' }
  /** Turned on, but the workspace is not trusted: the host starts no server, so nothing is offered. */
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'listening'; readonly url: string; readonly clients: readonly UpstreamClient[] };

interface Running {
  readonly gateway: Gateway;
  readonly url: string;
  /** Made per start, kept in memory only: the editor gets it in the definition's header, nothing writes it anywhere. */
  readonly token: string;
  readonly http: GatewayHttp;
  readonly subscriptions: DisposableStore;
}

/**
 * MCP Host as an MCP server of the editor's own MCP support (`vscode.lm.registerMcpServerDefinitionProvider`):
 * while `mcpHost.gateway.enabled` is on and the workspace is trusted, the core's Gateway listens on
 * loopback and the provider offers one HTTP definition with its bearer token. Confirmations are MCP
 * Host's own dialogs (`confirmations: 'host'`); tools the host auto-approves are annotated so the
 * editor does not ask a second time (`annotateForEditor`). The definition's version names the role and
 * the start, so the editor reads the tools again when either changes.
 */
export class EditorGateway implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly _onDidChangeMcpServerDefinitions = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this._onDidChangeMcpServerDefinitions.event;
  private readonly _onDidChange = new Emitter<void>();
  /** The status or the connected clients changed (the Servers view listens). */
  readonly onDidChange: Event<void> = this._onDidChange.event;
  private readonly disposables = new DisposableStore();
  private running?: Running;
  private _status: GatewayStatus = { kind: 'off' };
  private starts = 0;
  private role: string | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly controller: Pick<HostController, 'host' | 'onDidChange'>,
    private readonly logger: Logger,
  ) {
    this.role = controller.host.snapshot().role;
    this.disposables.add(this._onDidChange);
    this.disposables.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(GATEWAY_SETTING)) void this.sync();
      }),
    );
    this.disposables.add(
      controller.onDidChange(() => {
        const snapshot = this.controller.host.snapshot();
        // Trust is granted once per window (never taken back without a reload).
        if (this._status.kind === 'untrusted' && snapshot.trusted) void this.sync();
        if (snapshot.role !== this.role) {
          this.role = snapshot.role;
          if (this.running) this._onDidChangeMcpServerDefinitions.fire();
        }
      }),
    );
    void this.sync();
  }

  get status(): GatewayStatus {
    return this._status;
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    return this.running ? [this.definition(this.running)] : [];
  }

  /** The editor is about to connect: the current address and token, or nothing when the gateway was turned off meanwhile. */
  resolveMcpServerDefinition(): vscode.McpHttpServerDefinition | undefined {
    return this.running ? this.definition(this.running) : undefined;
  }

  /** Start or stop to match the setting and the workspace's trust; resolves when done. Calls are serialized. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.apply()).catch((e) => this.logger.error(`gateway: ${errorText(e)}`));
    return this.syncing;
  }

  dispose(): void {
    void this.close();
  }

  /** Stops listening (open sessions end); deactivate waits for it. */
  async close(): Promise<void> {
    this.closed = true;
    this.disposables.dispose();
    await this.syncing;
    await this.stop();
    this._onDidChangeMcpServerDefinitions.dispose();
  }

  private enabled(): boolean {
    const value = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>(ENABLED_KEY);
    const parsed = SettingsSchema.shape[ENABLED_KEY].safeParse(value ?? false);
    if (parsed.success) return parsed.data;
    this.logger.warn(`${GATEWAY_SETTING}: ${parsed.error.issues[0]?.message ?? 'expected true or false'}; the gateway stays off`);
    return false;
  }

  private async apply(): Promise<void> {
    if (this.closed) return;
    const wanted = this.enabled();
    const trusted = this.controller.host.snapshot().trusted;
    if (!wanted || !trusted) {
      const had = this.running !== undefined;
      await this.stop();
      if (wanted && this._status.kind !== 'untrusted') {
        this.logger.info('gateway: the workspace is not trusted, so MCP Host starts no server and offers the editor none');
      }
      this.setStatus(wanted ? { kind: 'untrusted' } : { kind: 'off' });
      if (had) this._onDidChangeMcpServerDefinitions.fire();
      return;
    }
    if (this.running) return;
    this.setStatus({ kind: 'starting' });
    try {
      this.running = await this.start();
    } catch (e) {
      this.logger.error(`gateway: could not start: ${errorText(e)}`);
      this.setStatus({ kind: 'failed', message: errorText(e) });
      return;
    }
    this.starts++;
    this.logger.info(`gateway: offered to the editor's agents as "${GATEWAY_LABEL}" at ${this.running.url} (role ${this.role ?? '(none)'})`);
    this.setStatus({ kind: 'listening', url: this.running.url, clients: this.running.gateway.clients() });
    this._onDidChangeMcpServerDefinitions.fire();
  }

  private async start(): Promise<Running> {
    const { Gateway } = loadGatewayServer();
    const gateway = new Gateway(this.controller.host, { confirmations: 'host', annotateForEditor: true, logger: this.logger });
    const token = newGatewayToken();
    const subscriptions = new DisposableStore();
    try {
      const http = await gateway.listenHttp({ token });
      let known = gateway.clients();
      subscriptions.add(
        gateway.onDidChangeClients((now) => {
          logClientChanges(this.logger, known, now);
          known = now;
          if (this.running?.gateway === gateway) this.setStatus({ kind: 'listening', url: http.url, clients: now });
        }),
      );
      return { gateway, url: http.url, token, http, subscriptions };
    } catch (e) {
      subscriptions.dispose();
      await gateway.close();
      throw e;
    }
  }

  private async stop(): Promise<void> {
    const r = this.running;
    if (!r) return;
    this.running = undefined;
    r.subscriptions.dispose();
    try {
      await r.http.close();
      await r.gateway.close();
    } catch (e) {
      this.logger.warn(`gateway: closing: ${errorText(e)}`);
    }
    this.logger.info('gateway: stopped; the editor is offered no MCP Host server');
  }

  private definition(r: Running): vscode.McpHttpServerDefinition {
    return new vscode.McpHttpServerDefinition(GATEWAY_LABEL, vscode.Uri.parse(r.url), { Authorization: `Bearer ${r.token}` }, `${this.starts}:${this.role ?? ''}`);
  }

  private setStatus(status: GatewayStatus): void {
    this._status = status;
    this._onDidChange.fire();
  }
}

/** Output lines for clients that came or went since the last list. */
function logClientChanges(logger: Logger, before: readonly UpstreamClient[], after: readonly UpstreamClient[]): void {
  const was = new Set(before.map((c) => c.id));
  const is = new Set(after.map((c) => c.id));
  for (const c of after) if (!was.has(c.id)) logger.info(`gateway: ${clientText(c)} connected`);
  for (const c of before) if (!is.has(c.id)) logger.info(`gateway: ${clientText(c)} disconnected after ${c.calls} call${c.calls === 1 ? '' : 's'}`);
}

export function clientText(c: UpstreamClient): string {
  return `"${c.name}"${c.version ? ` ${c.version}` : ''} (${c.transport})`;
}
