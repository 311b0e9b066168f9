import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FileIdentityKey, IDENTITY_KEY_FILE } from '../core/consent/identityKey';
import { McpHost } from '../core/host/mcpHost';
import { CLIENT_INFO } from '../core/host/mcpHostOptions';
import { DEFAULTS } from '../core/settings/hostSettings';
import { SETTINGS_SECTION } from '../core/settings/settingPath';
import type { ImportResult } from '../core/sources/importServers';
import { loadHostSettings, type LoadedSettings } from '../core/sources/loadHostSettings';
import { TelemetryExport } from '../core/telemetry/telemetryExport';
import { DisposableStore, Emitter, type Event } from '../core/util/event';
import type { LogLevelSource } from '../core/mcp/serverLogLevel';
import type { Logger } from '../core/util/logger';
import { EditorServerRequests } from './editorServerRequests';
import { ExternalOpener } from './externalOpener';
import { ImportWatcher } from './importWatcher';
import { LOCKFILE_NAME } from '../core/pinning/lockfile';
import { ModalConfirmer } from './modalConfirmer';
import { ModalConsentPrompt, testConsentPrompt } from './modalConsentPrompt';
import type { ProblemReporter } from './problemReporter';
import { SecretCredentialStore } from './secretCredentialStore';
import { secretNamesIn } from './secretReferences';
import { SecretStore } from './secretStore';
import { PersonalRole, withPersonalRole, type RoleSource } from './personalRole';
import { readWindowSettings } from './settingsReader';
import { WorkspaceConsentStore } from './workspaceConsentStore';

/** Context key for the Servers view's welcome text. */
export const SERVERS_SETTINGS_ERROR_CONTEXT = 'mcpHost.serverSettingsInvalid';

/**
 * Owns the McpHost of this window and keeps it in step with the editor: settings changes
 * (`applySettings`), workspace trust, stored secrets. The UI listens to `onDidChange`.
 */
export class HostController implements vscode.Disposable {
  readonly host: McpHost;
  readonly secrets: SecretStore;
  /** Servers' questions, sampling and roots, answered in the editor. */
  readonly serverRequests = new EditorServerRequests();
  /** Opens OAuth sign-in pages (vscode.env.openExternal). */
  readonly opener = new ExternalOpener();
  /** OpenTelemetry export of the audit stream (`mcpHost.telemetry.*`). */
  readonly telemetry: TelemetryExport;
  private readonly _onDidChange = new Emitter<void>();
  /** Anything the views show may have changed: server states, tools, settings, role, trust. */
  readonly onDidChange: Event<void> = this._onDidChange.event;
  private readonly disposables = new DisposableStore();
  private applying: Promise<void> = Promise.resolve();
  private lastRaw: string;
  private loaded: LoadedSettings;
  /** The role the person picked in this workspace, outside the repository. */
  private readonly personalRole: PersonalRole;
  private _roleSource: RoleSource;
  private readonly importWatcher = new ImportWatcher(() => void this.reload());
  private closing?: Promise<void>;

  constructor(
    context: vscode.ExtensionContext,
    readonly logger: Logger & LogLevelSource,
    private readonly reporter: ProblemReporter,
  ) {
    this.personalRole = new PersonalRole(context.workspaceState);
    ({ loaded: this.loaded, source: this._roleSource } = loadWindowSettings(this.personalRole));
    this.lastRaw = settingsKey(this.loaded, this._roleSource);
    const { settings, problems } = this.loaded;
    this.reportSettingsProblems(problems);
    this.importWatcher.watch(this.loaded.imported.files);

    this.secrets = new SecretStore(context.secrets, context.globalState, logger, (name) => this.serversUsingSecret(name), (id) =>
      this.loaded.imported.inputs.find((i) => i.id === id),
    );
    this.host = new McpHost({
      settings,
      workspaceFolder: workspaceFolderPath(),
      env: process.env,
      secrets: this.secrets,
      confirmer: new ModalConfirmer(),
      logger,
      defaultAuditPath: defaultAuditPath(context),
      trusted: vscode.workspace.isTrusted,
      serverRequests: this.serverRequests.ports,
      credentials: new SecretCredentialStore(context.secrets, logger),
      openUrl: this.opener.openUrl,
      logLevel: logger,
      consent: {
        store: new WorkspaceConsentStore(context.workspaceState),
        prompt: testConsentPrompt(context.extensionMode) ?? new ModalConsentPrompt(),
        via: 'editor',
        ...identityKey(context),
      },
    });

    this.telemetry = new TelemetryExport({
      logger,
      secrets: this.secrets,
      env: process.env,
      workspaceFolder: workspaceFolderPath(),
      serviceVersion: CLIENT_INFO.version,
      snapshot: () => this.host.snapshot(),
    });
    this.disposables.add(this.telemetry.attach(this.host.onDidRecord));
    void this.telemetry.configure(settings.telemetry);

    const fire = () => this._onDidChange.fire();
    this.disposables.add(this.importWatcher);
    this.disposables.add(this.secrets);
    this.disposables.add(this.serverRequests);
    this.disposables.add(this._onDidChange);
    this.disposables.add(
      this.host.onDidChange(() => {
        this.reporter.report('tool names', this.host.snapshot().problems);
        fire();
      }),
    );
    this.disposables.add(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS_SECTION)) void this.reload();
      }),
    );
    this.disposables.add(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.logger.info('workspace trusted: starting servers');
        // The host already holds the servers and roles of the workspace's settings file (read for
        // display while untrusted). Right after the grant the configuration API still hides the
        // restricted values for a moment, so reading it now would drop every server and role;
        // the other restricted settings arrive with the configuration change that follows.
        this.applying = this.applying
          .then(() => this.host.setTrusted(true))
          .catch((e) => this.logger.error(`starting servers after trust failed: ${errorText(e)}`))
          .finally(fire);
        fire();
      }),
    );
    this.disposables.add(this.secrets.onDidChange((name) => this.restartServersUsing(name)));
    this.watchLockfile();
  }

  /** A lockfile changed on disk (a pull, `mcp-host lock` in a terminal, an approval here) is read again. */
  private watchLockfile(): void {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const watcher = this.disposables.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, LOCKFILE_NAME)));
    const reload = () => this.host.definitions.reload();
    for (const on of [watcher.onDidChange, watcher.onDidCreate, watcher.onDidDelete]) this.disposables.add(on(reload));
  }

  /** Start the role's servers in the background; returns at once. */
  start(): void {
    const s = this.host.settings;
    const snapshot = this.host.snapshot();
    this.logger.info(
      `MCP Host started: ${s.servers.length} server(s) configured, role ${snapshot.role ?? '(none)'}` +
        `${snapshot.trusted ? '' : ', workspace not trusted: no server is started'}; audit: ${this.host.auditPath ?? '(none)'}`,
    );
    this.host.start().catch((e) => this.logger.error(`starting servers failed: ${errorText(e)}`));
  }

  /** The servers and inputs read from the files of `mcpHost.import`, as last loaded. */
  get imported(): ImportResult {
    return this.loaded.imported;
  }

  /** Re-read the settings and the imported files and apply them when they changed. Resolves when applied. */
  reload(): Promise<void> {
    const { loaded, source } = loadWindowSettings(this.personalRole);
    this._roleSource = source;
    this.importWatcher.watch(loaded.imported.files);
    const key = settingsKey(loaded, source);
    if (key === this.lastRaw) return this.applying;
    this.lastRaw = key;
    this.loaded = loaded;
    const { settings, problems } = loaded;
    this.reportSettingsProblems(problems);
    void this.telemetry.configure(settings.telemetry);
    this.applying = this.applying
      .then(() => this.host.applySettings(settings))
      .catch((e) => this.logger.error(`applying settings failed: ${errorText(e)}`))
      .finally(() => this._onDidChange.fire());
    return this.applying;
  }

  /** Where the active role comes from: the team's default (`mcpHost.activeRole`) or the person's choice. */
  get roleSource(): RoleSource {
    return this._roleSource;
  }

  /**
   * Switch the role for this person in this workspace (kept in the workspace state, never written
   * to the repository's settings; `mcpHost.activeRole` stays the team's default). Chat, views and
   * status bar all read it from the host.
   */
  async switchRole(name: string | undefined): Promise<void> {
    if (name !== undefined && !this.host.settings.roles.some((r) => r.name === name)) throw new Error(`no role named "${name}"`);
    await this.personalRole.set(name, this._roleSource.teamDefault);
    await this.reload();
  }

  /** Forget the person's choice: the team's default role (`mcpHost.activeRole`) applies again. */
  async useTeamDefaultRole(): Promise<void> {
    await this.personalRole.clear();
    await this.reload();
  }

  /**
   * Wait until pending settings are applied and the role's servers have settled, at most as long as
   * the longest connect timeout among them, or until cancelled.
   */
  async whenRoleReady(token?: vscode.CancellationToken): Promise<void> {
    await this.applying;
    const used = this.host.snapshot().servers.filter((s) => s.usedByRole);
    const bound = Math.max(DEFAULTS.connectTimeoutMs, ...used.map((s) => s.settings.connectTimeoutMs)) + 1000;
    let cancelled: vscode.Disposable | undefined;
    await Promise.race([
      this.host.whenReady(bound),
      new Promise<void>((resolve) => {
        if (!token) return;
        if (token.isCancellationRequested) resolve();
        cancelled = token.onCancellationRequested(() => resolve());
      }),
    ]);
    cancelled?.dispose();
  }

  /** Whether any server of the active role is still starting or restarting. */
  isSettling(): boolean {
    return this.host.snapshot().servers.some((s) => s.usedByRole && s.settling);
  }

  serversUsingSecret(name: string): string[] {
    return this.host?.settings.servers.filter((s) => secretNamesIn(s).includes(name)).map((s) => s.name) ?? [];
  }

  /** Every secret name used in `mcpHost.servers`. */
  referencedSecrets(): string[] {
    return [...new Set(this.host.settings.servers.flatMap(secretNamesIn))].sort();
  }

  /** Stops listening and starts ending every server; `close()` waits for the servers to be gone. */
  dispose(): void {
    void this.close();
  }

  /** Stops every server; the same promise however often it is called (deactivate and subscriptions both call it). */
  close(): Promise<void> {
    this.disposables.dispose();
    this.closing ??= Promise.all([this.host.close(), this.telemetry.close(2000)]).then(() => undefined);
    return this.closing;
  }

  private reportSettingsProblems(problems: Parameters<ProblemReporter['report']>[1]): void {
    this.reporter.report('settings', problems);
    const serversBroken = problems.some((p) => p.severity === 'error' && p.setting?.startsWith(`${SETTINGS_SECTION}.servers`));
    void vscode.commands.executeCommand('setContext', SERVERS_SETTINGS_ERROR_CONTEXT, serversBroken);
  }

  private restartServersUsing(secret: string): void {
    const snapshot = this.host.snapshot();
    for (const name of this.serversUsingSecret(secret)) {
      const server = snapshot.server(name);
      if (!server?.usedByRole || !snapshot.trusted) continue;
      this.logger.info(`[${name}] secret "${secret}" changed: restarting`);
      this.host.servers.restartServer(name).catch((e) => this.logger.error(`[${name}] restart failed: ${errorText(e)}`));
    }
  }
}

/** The window's settings (with the person's role, if any) plus the servers of the files of `mcpHost.import`. */
function loadWindowSettings(personal: PersonalRole): { loaded: LoadedSettings; source: RoleSource } {
  const { raw, source } = withPersonalRole(readWindowSettings(), personal.get());
  // A choice that no longer applies (its role is gone, or the team's default changed since) is forgotten.
  if (!source.personal && personal.get()) void personal.clear();
  return { loaded: loadHostSettings(raw, { workspaceFolder: workspaceFolderPath(), env: process.env, homeDir: homedir() }), source };
}

/** What decides whether anything changed: the parsed result, not the raw values (an imported file may change alone), and where the role comes from. */
function settingsKey(l: LoadedSettings, source: RoleSource): string {
  return JSON.stringify([l.settings, l.problems, l.imported.inputs, source]);
}

function workspaceFolderPath(): string | undefined {
  const uri = vscode.workspace.workspaceFolders?.[0]?.uri;
  return uri?.scheme === 'file' ? uri.fsPath : undefined;
}

/** `<workspace storage>/audit.jsonl`, or the global storage when no workspace is open. */
function defaultAuditPath(context: vscode.ExtensionContext): string | undefined {
  const dir = [context.storageUri, context.globalStorageUri].find((u) => u?.scheme === 'file');
  return dir ? join(dir.fsPath, 'audit.jsonl') : undefined;
}

/** The user's key for the hashes of `${env:}` values, in the global storage (without one: this window's session only). */
function identityKey(context: vscode.ExtensionContext): { key?: FileIdentityKey } {
  return context.globalStorageUri.scheme === 'file' ? { key: new FileIdentityKey(join(context.globalStorageUri.fsPath, IDENTITY_KEY_FILE)) } : {};
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
