import { AuditLog } from '../audit/auditLog';
import type { AuditRecord } from '../audit/auditRecord';
import { resolveAuditPath } from '../audit/resolveAuditPath';
import { ToolRouter, type ToolCallRequest, type ToolCallResult } from '../calls/toolRouter';
import { createDefaultTransportFactory } from '../mcp/defaultTransportFactory';
import { ServerFleet, type ServerControl, type ServerStateEvent } from '../mcp/serverFleet';
import { ActivePolicies } from '../policy/activePolicies';
import { ServerRequests } from '../requests/serverRequests';
import type { HostSettings } from '../settings/hostSettings';
import { recordToolListChange } from '../tools/toolListLog';
import { ToolRegistry, type ToolsChangedEvent } from '../tools/toolRegistry';
import { DisposableStore, Emitter, type Event } from '../util/event';
import { nullLogger } from '../util/logger';
import { HostCatalog } from './hostCatalog';
import { connectionFacts, HostSnapshot } from './hostSnapshot';
import { createHostSignIn, createRemoteAuth, serverResolver, type SignInControl } from './hostAuth';
import { CLIENT_INFO, type McpHostOptions } from './mcpHostOptions';

export type { ServerStateEvent } from '../mcp/serverFleet';
export type { McpHostOptions } from './mcpHostOptions';

/**
 * The MCP host, editor-free: settings in; a snapshot of servers, tools, resources and prompts, events,
 * `call()`, `catalog` (read resources, use prompts) and lifecycle out. It composes the server fleet,
 * the tool registry, the policies, the router and the catalog.
 */
export class McpHost {
  private readonly store = new DisposableStore();
  private readonly _onDidChange = this.store.add(new Emitter<void>());
  /** Anything the snapshot shows may have changed. */
  readonly onDidChange = this._onDidChange.event;
  readonly onDidChangeServerState: Event<ServerStateEvent>;
  /** A server's tool list changed after its first discovery (list_changed, refresh, restart). */
  readonly onDidChangeToolList: Event<ToolsChangedEvent>;
  /** Every audit record, once written. */
  readonly onDidRecord: Event<AuditRecord>;
  /** Start, stop or restart one server, or refresh tools (commands of the tree and the CLI). */
  readonly servers: ServerControl;
  /** Sign in to / out of remote servers that use OAuth (issue 11). */
  readonly auth: SignInControl;
  readonly catalog: HostCatalog;

  private _settings: HostSettings;
  private trusted: boolean;
  private readonly policies: ActivePolicies;
  private readonly registry: ToolRegistry;
  private readonly fleet: ServerFleet;
  private readonly router: ToolRouter;
  private readonly audit: AuditLog;
  private cached?: HostSnapshot;
  private closing?: Promise<void>;

  constructor(private readonly options: McpHostOptions) {
    const logger = options.logger ?? nullLogger;
    this._settings = options.settings;
    this.trusted = options.trusted ?? true;
    this.policies = new ActivePolicies(options.settings, { role: options.role, timeoutMs: options.timeoutOverrideMs, assumeYes: options.assumeYes, workspaceFolder: options.workspaceFolder }, logger);
    this.audit = new AuditLog(options.auditSinks ?? [], logger);
    this.audit.useFile(this.auditFile());
    this.onDidRecord = this.audit.onDidRecord;
    const requests = this.store.add(new ServerRequests(options.serverRequests, { policies: this.policies, trusted: () => this.trusted, audit: this.audit, logger, workspaceFolder: options.workspaceFolder }));
    this.registry = new ToolRegistry(options.settings.toolNames, options.settings.servers.map((s) => s.name));
    const remote = this.store.add(createRemoteAuth(options));
    this.fleet = new ServerFleet(options.settings.servers, {
      resolve: serverResolver(options),
      transports: options.transports ?? createDefaultTransportFactory(remote),
      logger,
      clientInfo: options.clientInfo ?? CLIENT_INFO,
      features: requests.features,
      calls: requests.calls,
      backoff: options.backoff,
      logLevel: options.logLevel,
      trusted: () => this.trusted,
      wanted: (s) => this.policies.current.usesServer(s.name),
      maxMessageBytes: () => this._settings.maxMessageBytes,
    });
    this.auth = this.store.add(createHostSignIn(options, { remote, servers: this.fleet, logger, audit: this.audit }));
    this.router = new ToolRouter({ registry: this.registry, servers: this.fleet, policies: this.policies, confirmer: options.confirmer, audit: this.audit, logger });
    this.catalog = new HostCatalog({ servers: this.fleet, policies: this.policies, audit: this.audit, logger });
    // The host listens first, so whoever listens to the events below reads a fresh snapshot.
    for (const e of [this.registry.onDidChange, this.fleet.onDidChangeState, this.fleet.onDidChangeCatalogs]) this.store.add(e(() => this.changed()));
    this.store.add(this.registry.onDidChangeToolList((e) => recordToolListChange(logger, this.audit, e)));
    this.store.add(this.fleet.onDidChangeTools((e) => (e.tools ? this.registry.setServerTools(e.server, e.tools) : this.registry.removeServer(e.server, !e.removed))));
    this.onDidChangeServerState = this.fleet.onDidChangeState;
    this.onDidChangeToolList = this.registry.onDidChangeToolList;
    this.servers = this.fleet;
  }

  get settings(): HostSettings {
    return this._settings;
  }

  /** Path of the JSONL audit file in force, if any. */
  get auditPath(): string | undefined {
    return this.audit.path;
  }

  /** Servers, tools, role and trust as of now (recomputed after every change). */
  snapshot(): HostSnapshot {
    return (this.cached ??= new HostSnapshot({
      settings: this._settings,
      policies: this.policies.current,
      trusted: this.trusted,
      connections: this.fleet.all().map((c) => connectionFacts(c, this.registry.history(c.name))),
      entries: this.registry.entries(),
      problems: this.registry.problems(),
    }));
  }

  call(request: ToolCallRequest): Promise<ToolCallResult> {
    return this.router.call(request);
  }

  /** Start every server the active role uses, in parallel; resolves when each has settled. */
  start(): Promise<void> {
    return this.fleet.start();
  }

  /** Wait (at most `timeoutMs`) until no server of the role is still starting. */
  whenReady(timeoutMs?: number): Promise<void> {
    return this.fleet.whenSettled((s) => this.policies.current.usesServer(s.name), timeoutMs);
  }

  /** Switch role: start what the new role needs, stop what it no longer uses. */
  async setRole(name: string | undefined): Promise<void> {
    this.policies.setRole(name);
    this.changed();
    await this.fleet.reconcile();
  }

  async setTrusted(trusted: boolean): Promise<void> {
    if (trusted === this.trusted) return;
    this.trusted = trusted;
    this.changed();
    await this.fleet.reconcile();
  }

  /** Apply new settings without disturbing servers whose settings did not change. */
  async applySettings(next: HostSettings): Promise<void> {
    this._settings = next;
    this.audit.useFile(this.auditFile());
    this.policies.update(next);
    this.registry.configure(next.toolNames, next.servers.map((s) => s.name));
    this.changed();
    await this.fleet.apply(next.servers);
    this.changed();
  }

  /** Ends every server process; a second caller waits for the same work. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.fleet.close();
      this.registry.dispose();
      this.audit.dispose();
      this.store.dispose();
    })();
    return this.closing;
  }

  private changed(): void {
    this.cached = undefined;
    this._onDidChange.fire();
  }

  private auditFile(): string | undefined {
    const o = this.options;
    return resolveAuditPath({ override: o.auditPathOverride, setting: this._settings.auditPath, fallback: o.defaultAuditPath }, o.workspaceFolder);
  }
}
