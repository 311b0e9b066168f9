import { DEFAULTS, type HostSettings, type RoleSettings, type ToolBudgetSettings } from '../settings/hostSettings';
import type { Logger } from '../util/logger';
import { ArgumentRules } from './argumentRules';
import { CatalogPolicy, type ResourceAccess } from './catalogPolicy';
import { ConfirmationPolicy, type ConfirmationRule } from './confirmationPolicy';
import { RolePolicy } from './rolePolicy';
import { ServerRequestPolicy } from './serverRequestPolicy';
import { SessionApprovals } from './sessionApprovals';

/** What the CLI's flags override for the whole run. */
export interface PolicyOverrides {
  /** `--role` ('' = no role); undefined = `mcpHost.activeRole`. */
  readonly role?: string;
  /** `--timeout`: every server's per-call timeout. */
  readonly timeoutMs?: number;
  /** `--yes`: calls that need confirmation run, recorded as confirmed by "flag". */
  readonly assumeYes?: boolean;
  /** Not an override: the folder argument rules resolve relative paths against (`workspaceFolder`). */
  readonly workspaceFolder?: string;
}

/**
 * The policies in force, as one immutable value: the active role (fail-closed), the confirmation
 * rules and the per-call limits. Rebuilt on every settings or role change.
 */
export class PolicySet {
  readonly roleName: string | undefined;
  /** Which servers may ask the user (elicitation) or use the model (sampling). */
  readonly requests: ServerRequestPolicy;
  private readonly role: RolePolicy;
  private readonly confirmation: ConfirmationPolicy;
  /** `mcpHost.rules` and the role's `rules`, compiled. */
  readonly argumentRules: ArgumentRules;
  /** How many tool definitions (and tokens of them) one model request may carry. */
  readonly toolBudget: ToolBudgetSettings;
  private readonly catalog: CatalogPolicy;

  constructor(
    private readonly settings: HostSettings,
    roleName: string | undefined,
    private readonly overrides: PolicyOverrides,
    logger: Logger,
  ) {
    let role: RoleSettings | undefined = roleName ? settings.roles.find((r) => r.name === roleName) : undefined;
    if (roleName && !role) {
      // Fail closed: a role that does not exist offers nothing, never everything.
      logger.error(`role "${roleName}" is not defined in mcpHost.roles; no server is started and no tool is offered`);
      role = { name: roleName, servers: [], tools: [], exclude: [], autoApprove: [], confirm: [] };
    }
    this.roleName = role?.name;
    this.role = new RolePolicy(role, settings.servers);
    this.confirmation = new ConfirmationPolicy(settings, role);
    this.argumentRules = new ArgumentRules([...(settings.rules ?? []), ...(role?.rules ?? [])], { workspaceFolder: overrides.workspaceFolder, role: role?.name }, logger);
    const global = settings.toolBudget ?? { maxTools: DEFAULTS.maxTools };
    const maxToolTokens = role?.maxToolTokens ?? global.maxToolTokens; // 0 = no limit
    this.toolBudget = { maxTools: role?.maxTools ?? global.maxTools, ...(maxToolTokens ? { maxToolTokens } : {}) };
    this.requests = new ServerRequestPolicy(settings, this.roleName);
    this.catalog = new CatalogPolicy(role);
  }

  /** The role starts this (enabled) server. */
  usesServer(server: string): boolean {
    return this.role.usesServer(server);
  }

  /** The role's model may see and call this tool. */
  allows(server: string, tool: string): boolean {
    return this.role.allows(server, tool);
  }

  /** The role may list and read this resource (checked on the concrete URI at read time, in its canonical form). */
  allowsResource(server: string, uri: string): boolean {
    return this.resourceAccess(server, uri).allowed;
  }

  /** Whether the role may read this resource, and the canonical URI that was checked (the one to send). */
  resourceAccess(server: string, uri: string): ResourceAccess {
    const access = this.catalog.resourceAccess(server, uri);
    return access.allowed && !this.role.usesServer(server) ? { allowed: false, ambiguous: false, uri: access.uri } : access;
  }

  /** The role may list and use this prompt. */
  allowsPrompt(server: string, prompt: string): boolean {
    return this.role.usesServer(server) && this.catalog.allowsPrompt(server, prompt);
  }

  rule(server: string, tool: string): ConfirmationRule {
    return this.confirmation.rule(server, tool);
  }

  /** How progress extends a call of this server: `resetTimeoutOnProgress` and `maxTotalTimeoutMs`. */
  progressFor(server: string): { readonly resetTimeoutOnProgress: boolean; readonly maxTotalTimeoutMs: number } {
    const s = this.settings.servers.find((x) => x.name === server);
    return {
      resetTimeoutOnProgress: s?.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress,
      maxTotalTimeoutMs: s?.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs,
    };
  }

  timeoutFor(server: string): number {
    if (this.overrides.timeoutMs !== undefined) return this.overrides.timeoutMs;
    return this.settings.servers.find((s) => s.name === server)?.timeoutMs ?? this.settings.timeoutMs;
  }

  get maxResultChars(): number {
    return this.settings.maxResultChars;
  }

  get assumeYes(): boolean {
    return this.overrides.assumeYes ?? false;
  }
}

/**
 * The one place that decides the active role, its confirmation rules and the session's
 * "allow for this session" answers. A role switch lasts until the next settings change, which
 * brings back the configured role (or the CLI's `--role`).
 */
export class ActivePolicies {
  readonly approvals = new SessionApprovals();
  private roleOverride?: string;
  private _current: PolicySet;

  constructor(
    private settings: HostSettings,
    private readonly overrides: PolicyOverrides,
    private readonly logger: Logger,
  ) {
    this.roleOverride = overrides.role;
    this._current = this.build();
  }

  get current(): PolicySet {
    return this._current;
  }

  update(settings: HostSettings): void {
    this.settings = settings;
    this.roleOverride = this.overrides.role;
    this._current = this.build();
  }

  /** Switch to a configured role, or to no role. */
  setRole(name: string | undefined): void {
    if (name && !this.settings.roles.some((r) => r.name === name)) throw new Error(`no role named "${name}"`);
    this.roleOverride = name ?? '';
    this._current = this.build();
  }

  private build(): PolicySet {
    const name = this.roleOverride !== undefined ? this.roleOverride || undefined : this.settings.activeRole || undefined;
    return new PolicySet(this.settings, name, this.overrides, this.logger);
  }
}
