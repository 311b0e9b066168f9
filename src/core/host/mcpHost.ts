import { AuditLog } from '../audit/auditLog';
import type { AuditRecord } from '../audit/auditRecord';
import { hostAuditPath } from '../audit/resolveAuditPath';
import { ToolRouter, type ToolCallRequest, type ToolCallResult } from '../calls/toolRouter';
import type { ServerControl, ServerFleet, ServerStateEvent } from '../mcp/serverFleet';
import { ActivePolicies } from '../policy/activePolicies';
import type { HostSettings } from '../settings/hostSettings';
import { recordToolListChange } from './toolListLog';
import { ToolRegistry, type ToolsChangedEvent } from '../tools/toolRegistry';
import { DisposableStore, Emitter, type Event } from '../util/event';
import { nullLogger, type Logger } from '../util/logger';
import type { AppView } from '../apps/appView';
import { readAppView } from './readAppView';
import { createFleet } from './createFleet';
import { HostCatalog } from './hostCatalog';
import { serverResolver, type SignInControl } from './hostAuth';
import { connectionFacts, HostSnapshot } from './hostSnapshot';
import { HostTrust, type DefinitionControl } from './hostTrust';
import { prepareOneShot } from './oneShotTarget';
import type { McpHostOptions } from './mcpHostOptions';

export type { ServerStateEvent } from '../mcp/serverFleet';
export type { McpHostOptions } from './mcpHostOptions';
export type { AppView } from '../apps/appView';

/** The MCP host, editor-free: settings in; snapshot, events, `call()`, `catalog`, `auth`, `definitions` and lifecycle out. */
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
  /** Review tool definitions against the lockfile and approve them (mcpHost.pinning). */
  readonly definitions: DefinitionControl;
  /** Sign in to / out of remote servers that use OAuth. */
  readonly auth: SignInControl;
  /** Read resources and use prompts, through the role and the audit. */
  readonly catalog: HostCatalog;

  private _settings: HostSettings;
  private trusted: boolean;
  private readonly policies: ActivePolicies;
  private readonly registry: ToolRegistry;
  private readonly fleet: ServerFleet;
  private readonly router: ToolRouter;
  private readonly audit: AuditLog;
  private readonly trust: HostTrust;
  private cached?: HostSnapshot;
  private readonly logger: Logger;
  private closing?: Promise<void>;

  constructor(private readonly options: McpHostOptions) {
    const logger = (this.logger = options.logger ?? nullLogger);
    this._settings = options.settings;
    this.trusted = options.trusted ?? true;
    this.policies = new ActivePolicies(options.settings, { role: options.role, timeoutMs: options.timeoutOverrideMs, assumeYes: options.assumeYes, workspaceFolder: options.workspaceFolder }, logger);
    this.audit = new AuditLog(options.auditSinks ?? [], logger);
    this.audit.useFile(hostAuditPath(options, options.settings), options.settings.auditMaxBytes);
    this.onDidRecord = this.audit.onDidRecord;
    const trust = (this.trust = new HostTrust(options, this.audit, logger, () => this.fleet, () => this._settings));
    this.definitions = trust.definitions;
    this.registry = new ToolRegistry(options.settings.toolNames, options.settings.servers.map((s) => s.name));
    const maxMessageBytes = () => this._settings.maxMessageBytes;
    const servers = createFleet(options, { policies: this.policies, audit: this.audit, logger, trusted: () => this.trusted, admit: (...a) => trust.admit(...a), maxMessageBytes });
    this.store.add(servers.store);
    [this.fleet, this.auth] = [servers.fleet, servers.auth];
    this.router = new ToolRouter({ registry: this.registry, servers: this.fleet, policies: this.policies, confirmer: options.confirmer, audit: this.audit, logger, pins: trust.pins, tracing: () => this._settings.telemetry !== undefined });
    this.catalog = new HostCatalog({ servers: this.fleet, policies: this.policies, audit: this.audit, logger });
    // The host listens first, so whoever listens to the events below reads a fresh snapshot.
    for (const e of [this.registry.onDidChange, this.fleet.onDidChangeState, this.fleet.onDidChangeCatalogs, trust.onDidChange]) this.store.add(e(() => this.changed()));
    this.store.add(this.registry.onDidChangeToolList((e) => recordToolListChange(logger, this.audit, e)));
    // Pins first: a changed definition is quarantined before the registry offers it.
    this.store.add(this.fleet.onDidChangeTools((e) => (trust.setTools(e.server, e.tools), e.tools ? this.registry.setServerTools(e.server, e.tools) : this.registry.removeServer(e.server, !e.removed))));
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
      ...this.trust.snapshotSources(),
    }));
  }

  /**
   * Every tool call, whoever asks (`request.actor`): the model, a gateway client, or an MCP App's
   * view (`{ kind: 'app', server, view, tool }`, naming the tool by `appToolName`), all through the
   * same role, pins, argument rules, confirmation and audit.
   */
  call(request: ToolCallRequest): Promise<ToolCallResult> {
    return this.router.call(request);
  }

  /**
   * MCP Apps: the name under which a view of `server` calls that server's tool `tool` (its name on
   * the server) through `call()`; undefined when the server lists no such tool. The router still
   * refuses a view's call to another server's tool or to one whose visibility lacks "app".
   */
  appToolName(server: string, tool: string): string | undefined {
    return this.registry.find(server, tool)?.name;
  }

  /**
   * MCP Apps: fetch a tool's view (`readToolUi(tool).resourceUri`) through the audited resource
   * path (the role's resource globs apply), as HTML with what its resource declares (`meta`: CSP
   * origins, permissions, border). Rejects with an AppViewError saying what and where.
   */
  readAppView(server: string, resourceUri: string, options: { tool?: string; signal?: AbortSignal } = {}): Promise<AppView> {
    return readAppView({ server, uri: resourceUri, ...options }, {
      read: (r) => this.catalog.readResource(r),
      listed: (s) => this.fleet.get(s)?.catalogs.resources.resources ?? [],
      logger: this.logger,
    });
  }

  /** Start every server the role uses, in parallel, until each settled; `forCall`: only what that one call needs (oneShotTarget). */
  start(forCall?: string): Promise<void> {
    const target = forCall === undefined ? undefined : prepareOneShot(forCall, this._settings, this.policies.current, this.trust.pins);
    return target ? this.fleet.startOne(target.server, target.tool) : this.fleet.start();
  }

  /**
   * `mcp-host allow`: put one configured server to consent as a person's explicit request (a
   * remembered "deny" is asked again), resolved exactly as its start would be, without starting it.
   * Undefined when it may start; else why not (a variable that does not resolve, a refusal).
   */
  async admitServer(name: string): Promise<string | undefined> {
    const settings = this._settings.servers.find((s) => s.name === name);
    if (!settings) return `no server named "${name}" in mcpHost.servers`;
    const resolved = await serverResolver(this.options)(settings);
    if (!resolved.ok) return resolved.error;
    return this.trust.admit(settings, resolved, true);
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
    this.audit.useFile(hostAuditPath(this.options, next), next.auditMaxBytes);
    this.trust.pins.setMode(next.pinning);
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
      this.trust.dispose();
      this.audit.dispose();
      this.store.dispose();
    })();
    return this.closing;
  }

  private changed(): void {
    this.cached = undefined;
    this._onDidChange.fire();
  }
}
