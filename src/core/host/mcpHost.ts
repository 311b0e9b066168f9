import { isAbsolute, join } from 'node:path';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { AuditLog, JsonlFileSink, type AuditSink } from '../audit/auditLog';
import type { Confirmer } from '../calls/confirmer';
import { ToolRouter, type ToolCallRequest, type ToolCallResult } from '../calls/toolRouter';
import { ConnectionState } from '../mcp/connectionState';
import type { BackoffPolicy } from '../mcp/restartBackoff';
import { ServerConnection } from '../mcp/serverConnection';
import { ConfirmationPolicy, type ConfirmationRule } from '../policy/confirmationPolicy';
import { RolePolicy } from '../policy/rolePolicy';
import { SessionApprovals } from '../policy/sessionApprovals';
import type { HostSettings, ServerSettings, SettingsProblem } from '../settings/hostSettings';
import { resolveServerSettings, type SecretResolver } from '../settings/resolveServerSettings';
import { canonicalJson } from '../tools/definitionHash';
import { ToolRegistry, type RegistryEntry, type ToolsChangedEvent } from '../tools/toolRegistry';
import { DisposableStore, Emitter } from '../util/event';
import { nullLogger, type Logger } from '../util/logger';

export interface McpHostOptions {
  readonly settings: HostSettings;
  readonly workspaceFolder?: string;
  readonly env?: Record<string, string | undefined>;
  readonly secrets: SecretResolver;
  readonly confirmer: Confirmer;
  readonly logger?: Logger;
  /** Extra audit sinks (memory, UI). The JSONL file from `mcpHost.audit.path` is added by the host. */
  readonly auditSinks?: readonly AuditSink[];
  /** Audit file used when `mcpHost.audit.path` is not set (the extension's workspace storage). */
  readonly defaultAuditPath?: string;
  /** Overrides `mcpHost.audit.path` (CLI `--audit`). */
  readonly auditPathOverride?: string;
  /** Overrides `mcpHost.activeRole` (CLI `--role`). */
  readonly role?: string;
  /** Overrides every server's per-call timeout (CLI `--timeout`). */
  readonly timeoutOverrideMs?: number;
  /** False in an untrusted workspace: no configured server is started. */
  readonly trusted?: boolean;
  readonly assumeYes?: boolean;
  readonly clientInfo?: Implementation;
  readonly backoff?: BackoffPolicy;
}

export interface ServerStateEvent {
  readonly server: string;
  readonly state: ConnectionState;
}

export interface ExposedTool {
  readonly entry: RegistryEntry;
  readonly rule: ConfirmationRule;
}

export const CLIENT_INFO: Implementation = { name: 'mcp-host', version: '0.1.0' };

/**
 * The MCP host: one ServerConnection per configured server, a registry of uniquely named tools,
 * role and confirmation policies, and the router every call goes through. Editor-free.
 */
export class McpHost {
  private readonly store = new DisposableStore();
  private readonly _onDidChangeServerState = this.store.add(new Emitter<ServerStateEvent>());
  readonly onDidChangeServerState = this._onDidChangeServerState.event;
  private readonly _onDidChangeToolList = this.store.add(new Emitter<ToolsChangedEvent>());
  /** list_changed diffs (and other changes after first discovery). */
  readonly onDidChangeToolList = this._onDidChangeToolList.event;
  private readonly _onDidChangeSettings = this.store.add(new Emitter<void>());
  readonly onDidChangeSettings = this._onDidChangeSettings.event;

  readonly registry: ToolRegistry;
  readonly audit: AuditLog;
  readonly approvals = new SessionApprovals();
  readonly router: ToolRouter;
  readonly logger: Logger;

  private _settings: HostSettings;
  private roleOverride?: string;
  private trusted: boolean;
  private _rolePolicy!: RolePolicy;
  private _confirmationPolicy!: ConfirmationPolicy;
  private readonly connections = new Map<string, ServerConnection>();
  private readonly connectionListeners = new Map<string, DisposableStore>();
  private disposing?: Promise<void>;
  private fileSink?: JsonlFileSink;
  /** The start in progress (servers are started one event-loop turn apart). */
  private starting?: Promise<void>;

  constructor(private readonly options: McpHostOptions) {
    this._settings = options.settings;
    this.roleOverride = options.role;
    this.trusted = options.trusted ?? true;
    this.logger = options.logger ?? nullLogger;
    this.registry = new ToolRegistry(this._settings.toolNames, this._settings.servers.map((s) => s.name));
    this.audit = new AuditLog([], this.logger);
    this.configureAudit();
    this.updatePolicies();
    this.store.add({ dispose: () => this.registry.dispose() });
    this.store.add(this.registry.onDidChangeToolList((e) => this.onToolList(e)));
    this.router = new ToolRouter({
      context: {
        registry: this.registry,
        connection: (s) => this.connections.get(s),
        rolePolicy: () => this._rolePolicy,
        confirmationPolicy: () => this._confirmationPolicy,
        timeoutMs: (s) => this.timeoutFor(s),
        maxResultChars: () => this._settings.maxResultChars,
      },
      confirmer: options.confirmer,
      audit: this.audit,
      approvals: this.approvals,
      logger: this.logger,
      assumeYes: options.assumeYes,
    });
    for (const s of this._settings.servers) this.createConnection(s);
  }

  get settings(): HostSettings {
    return this._settings;
  }

  /** The active role's name, or undefined for "no role". */
  get roleName(): string | undefined {
    return this._rolePolicy.roleName;
  }

  get rolePolicy(): RolePolicy {
    return this._rolePolicy;
  }

  get confirmationPolicy(): ConfirmationPolicy {
    return this._confirmationPolicy;
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  /** Path of the JSONL audit file in force, if any. */
  get auditPath(): string | undefined {
    return this.resolveAuditPath();
  }

  connection(server: string): ServerConnection | undefined {
    return this.connections.get(server);
  }

  allConnections(): readonly ServerConnection[] {
    return this._settings.servers.map((s) => this.connections.get(s.name)!).filter(Boolean);
  }

  /** Start every server the active role uses, in parallel; resolves when each has settled. */
  start(): Promise<void> {
    this.starting = (async () => {
      const starts: Promise<void>[] = [];
      for (const c of this.allConnections()) {
        starts.push(this.startIfWanted(c));
        // spawn() is synchronous: yield between servers so ten of them do not block the
        // extension host for the sum of their spawns (measured: 94–140 ms for 10).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await Promise.all(starts);
    })();
    return this.starting;
  }

  /** Wait (bounded) until no server of the role is still starting. */
  async whenReady(timeoutMs?: number): Promise<void> {
    const all = (async () => {
      await this.starting;
      await Promise.all(
        this.allConnections()
          .filter((c) => this._rolePolicy.usesServer(c.name))
          .map((c) => c.whenSettled()),
      );
    })();
    if (timeoutMs === undefined) return all;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    if (timer) clearTimeout(timer);
  }

  /** Tools the active role's model sees, in registry order, with their confirmation rule. */
  exposedTools(): readonly ExposedTool[] {
    const out: ExposedTool[] = [];
    for (const entry of this.registry.entries()) {
      if (!this._rolePolicy.allows(entry.server, entry.tool.name)) continue;
      const c = this.connections.get(entry.server);
      if (!c || !(ConnectionState.isConnected(c.state) || c.state.kind === 'restarting')) continue;
      out.push({ entry, rule: this._confirmationPolicy.rule(entry.server, entry.tool.name) });
    }
    return out;
  }

  /** Whether the active role sees a registry entry. */
  isVisible(entry: RegistryEntry): boolean {
    return this._rolePolicy.allows(entry.server, entry.tool.name);
  }

  ruleFor(entry: RegistryEntry): ConfirmationRule {
    return this._confirmationPolicy.rule(entry.server, entry.tool.name);
  }

  call(request: ToolCallRequest): Promise<ToolCallResult> {
    return this.router.call(request);
  }

  /** Naming problems from the registry (reject-mode duplicates). */
  problems(): readonly SettingsProblem[] {
    return this.registry.problems();
  }

  async restartServer(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no server named "${name}"`);
    if (!this.trusted) return;
    await c.restart();
  }

  async stopServer(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no server named "${name}"`);
    await c.stop();
    this.registry.removeServer(name);
  }

  async startServer(name: string): Promise<void> {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no server named "${name}"`);
    if (!this.trusted) {
      c.markUntrusted();
      return;
    }
    await c.start();
  }

  async refreshTools(name?: string): Promise<void> {
    const targets = name ? [this.connections.get(name)].filter((c): c is ServerConnection => !!c) : this.allConnections();
    await Promise.all(targets.filter((c) => ConnectionState.isConnected(c.state)).map((c) => c.refreshTools()));
  }

  /** Switch role: start what the new role needs, stop what it no longer uses. */
  async setRole(name: string | undefined): Promise<void> {
    if (name && !this._settings.roles.some((r) => r.name === name)) throw new Error(`no role named "${name}"`);
    this.roleOverride = name ?? '';
    this.updatePolicies();
    await this.reconcileRunning();
    this._onDidChangeSettings.fire();
  }

  async setTrusted(trusted: boolean): Promise<void> {
    if (trusted === this.trusted) return;
    this.trusted = trusted;
    await this.reconcileRunning();
  }

  /**
   * Apply new settings without disturbing what did not change: added servers start, removed ones
   * stop, changed ones restart, untouched ones keep running.
   */
  async applySettings(next: HostSettings): Promise<void> {
    const before = new Map(this._settings.servers.map((s) => [s.name, s]));
    const after = new Map(next.servers.map((s) => [s.name, s]));
    this._settings = next;
    this.roleOverride = this.options.role;
    this.configureAudit();
    this.updatePolicies();
    this.registry.configure(next.toolNames, next.servers.map((s) => s.name));
    const work: Promise<void>[] = [];
    for (const [name] of before) {
      if (!after.has(name)) work.push(this.removeConnection(name));
    }
    for (const [name, s] of after) {
      const old = before.get(name);
      if (!old) {
        this.createConnection(s);
      } else if (canonicalJson(old) !== canonicalJson(s)) {
        work.push(this.removeConnection(name).then(() => void this.createConnection(s)));
      }
    }
    await Promise.all(work);
    await this.reconcileRunning();
    this._onDidChangeSettings.fire();
  }

  /** Ends every server process; a second caller waits for the same work. */
  dispose(): Promise<void> {
    this.disposing ??= this.doDispose();
    return this.disposing;
  }

  private async doDispose(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.dispose()));
    for (const l of this.connectionListeners.values()) l.dispose();
    this.connectionListeners.clear();
    this.connections.clear();
    this.audit.dispose();
    this.store.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private timeoutFor(server: string): number {
    if (this.options.timeoutOverrideMs !== undefined) return this.options.timeoutOverrideMs;
    return this._settings.servers.find((s) => s.name === server)?.timeoutMs ?? this._settings.timeoutMs;
  }

  private updatePolicies(): void {
    const name = this.roleOverride !== undefined ? this.roleOverride || undefined : this._settings.activeRole || undefined;
    let role = name ? this._settings.roles.find((r) => r.name === name) : undefined;
    if (name && !role) {
      // Fail closed: a role that does not exist offers nothing, never everything.
      this.logger.error(`role "${name}" is not defined in mcpHost.roles; no server is started and no tool is offered`);
      role = { name, servers: [], tools: [], exclude: [], autoApprove: [], confirm: [] };
    }
    this._rolePolicy = new RolePolicy(role, this._settings.servers);
    this._confirmationPolicy = new ConfirmationPolicy(this._settings, role);
  }

  private resolveAuditPath(): string | undefined {
    const p = this.options.auditPathOverride ?? this._settings.auditPath ?? this.options.defaultAuditPath;
    if (!p) return undefined;
    if (isAbsolute(p)) return p;
    return join(this.options.workspaceFolder ?? process.cwd(), p);
  }

  private configureAudit(): void {
    const path = this.resolveAuditPath();
    const sinks: AuditSink[] = [...(this.options.auditSinks ?? [])];
    // Keep the open file when a settings change leaves the path as it was.
    if (this.fileSink?.path !== path) this.fileSink = path ? new JsonlFileSink(path) : undefined;
    if (this.fileSink) sinks.push(this.fileSink);
    this.audit.setSinks(sinks);
  }

  private createConnection(s: ServerSettings): ServerConnection {
    const c = new ServerConnection({
      settings: s,
      resolve: (settings) =>
        resolveServerSettings(settings, {
          workspaceFolder: this.options.workspaceFolder,
          env: this.options.env ?? process.env,
          secrets: this.options.secrets,
        }),
      logger: this.logger,
      clientInfo: this.options.clientInfo ?? CLIENT_INFO,
      backoff: this.options.backoff,
    });
    const listeners = new DisposableStore();
    listeners.add(c.onDidChangeState((state) => this._onDidChangeServerState.fire({ server: s.name, state })));
    listeners.add(c.onDidChangeTools((tools) => this.registry.setServerTools(s.name, tools)));
    this.connections.set(s.name, c);
    this.connectionListeners.set(s.name, listeners);
    return c;
  }

  private async removeConnection(name: string): Promise<void> {
    const c = this.connections.get(name);
    this.connections.delete(name);
    this.connectionListeners.get(name)?.dispose();
    this.connectionListeners.delete(name);
    this.registry.removeServer(name, false);
    if (c) await c.dispose();
    this._onDidChangeServerState.fire({ server: name, state: ConnectionState.stopped });
  }

  private async startIfWanted(c: ServerConnection): Promise<void> {
    if (!c.settings.enabled) return;
    if (!this._rolePolicy.usesServer(c.name)) return;
    if (!this.trusted) {
      c.markUntrusted();
      return;
    }
    if (c.state.kind === 'idle' || c.state.kind === 'stopped' || c.state.kind === 'untrusted') await c.start();
  }

  private async reconcileRunning(): Promise<void> {
    const work: Promise<void>[] = [];
    for (const c of this.allConnections()) {
      const wanted = this.trusted && c.settings.enabled && this._rolePolicy.usesServer(c.name);
      const running = c.state.kind !== 'idle' && c.state.kind !== 'stopped' && c.state.kind !== 'disabled' && c.state.kind !== 'untrusted';
      if (wanted && !running) work.push(this.startIfWanted(c));
      else if (!wanted && running) {
        work.push(c.stop().then(() => this.registry.removeServer(c.name)));
      } else if (!this.trusted && c.settings.enabled && this._rolePolicy.usesServer(c.name)) c.markUntrusted();
    }
    await Promise.all(work);
  }

  private onToolList(e: ToolsChangedEvent): void {
    const parts = [
      e.added.length ? `added ${e.added.join(', ')}` : '',
      e.removed.length ? `removed ${e.removed.join(', ')}` : '',
      e.changed.length ? `changed ${e.changed.map((c) => c.tool).join(', ')}` : '',
    ].filter(Boolean);
    this.logger.info(`[${e.server}] tools changed: ${parts.join('; ')}`);
    for (const c of e.changed) {
      if (c.descriptionBefore !== c.descriptionAfter) {
        // A description is part of the prompt: a changed one can change behaviour or carry injected instructions.
        this.logger.warn(
          `[${e.server}] description of tool "${c.tool}" changed:\n  before: ${JSON.stringify(c.descriptionBefore ?? '')}\n  after:  ${JSON.stringify(c.descriptionAfter ?? '')}`,
        );
      }
    }
    void this.audit.record({ kind: 'toolsChanged', ts: e.ts, server: e.server, added: e.added, removed: e.removed, changed: e.changed });
    this._onDidChangeToolList.fire(e);
  }
}
