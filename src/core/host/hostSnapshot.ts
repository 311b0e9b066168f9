import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentState } from '../consent/serverConsent';
import { isAppOnly, readToolUi } from '../apps/toolUi';
import { hasDrift, type Quarantine, type ServerPins } from '../pinning/pinningPolicy';
import { ConnectionState } from '../mcp/connectionState';
import type { PolicySet } from '../policy/activePolicies';
import type { HostSettings, RoleSettings, ToolBudgetSettings } from '../settings/hostSettings';
import type { NamingProblem } from '../tools/assignToolNames';
import type { ExposedTool } from '../tools/exposedTool';
import type { RegistryEntry } from '../tools/toolRegistry';
import { promptViews, resourceViews, templateViews, type PromptView, type ResourceTemplateView, type ResourceView } from './catalogViews';
import type { ConnectionFacts, ServerView, ToolView } from './hostViews';

export type { ConnectionState, ServerInfo } from '../mcp/connectionState';
export type { NamingProblem } from '../tools/assignToolNames';
export type { ExposedTool } from '../tools/exposedTool';
export type { ToolsChangedEvent } from '../tools/toolRegistry';
export type { ChangedTool } from '../tools/toolListDiff';
export type { PromptView, ResourceTemplateView, ResourceView } from './catalogViews';
export type { Quarantine } from '../pinning/pinningPolicy';
export type { ConsentState } from '../consent/serverConsent';
export { connectionFacts, type ConnectionFacts, type ServerView, type ToolView } from './hostViews';

/** What a ToolView says about MCP Apps: the tool's view, and whether only a view may call it. */
function appFacts(tool: Tool): Pick<ToolView, 'ui' | 'appOnly'> {
  const ui = readToolUi(tool);
  return { ...(ui ? { ui } : {}), ...(isAppOnly(tool) ? { appOnly: true } : {}) };
}

export interface SnapshotSources {
  readonly settings: HostSettings;
  readonly policies: PolicySet;
  readonly trusted: boolean;
  readonly connections: readonly ConnectionFacts[];
  /** Immutable: the registry replaces its arrays on every change. */
  readonly entries: readonly RegistryEntry[];
  readonly problems: readonly NamingProblem[];
  /** Each server's tools held against the lockfile (servers holding tools). */
  readonly pins?: ReadonlyMap<string, ServerPins>;
  /** Servers waiting for consent or refused. */
  readonly consent?: ReadonlyMap<string, ConsentState>;
}

/**
 * The read model of the host at one moment: what the tree, the status bar, the chat's slash
 * commands and the CLI's JSON views show. Its inputs are captured when it is made; the derived
 * parts are computed on first use.
 */
export class HostSnapshot {
  readonly role: string | undefined;
  readonly trusted: boolean;
  readonly roles: readonly RoleSettings[];
  private _exposed?: readonly ExposedTool[];
  private _servers?: readonly ServerView[];
  private _problems?: readonly NamingProblem[];
  private _byServer?: Map<string, Map<string, RegistryEntry>>;

  constructor(private readonly src: SnapshotSources) {
    this.role = src.policies.roleName;
    this.trusted = src.trusted;
    this.roles = src.settings.roles;
  }

  /** The tools the active role's model is offered now, in registry order (never an app-only tool: MCP Apps visibility). */
  get exposed(): readonly ExposedTool[] {
    if (this._exposed) return this._exposed;
    const holding = new Set(this.src.connections.filter((c) => ConnectionState.hasTools(c.state)).map((c) => c.name));
    const out: ExposedTool[] = [];
    for (const entry of this.src.entries) {
      if (!holding.has(entry.server) || !this.src.policies.allows(entry.server, entry.tool.name)) continue;
      if (this.quarantine(entry.server, entry.tool.name) || isAppOnly(entry.tool)) continue;
      out.push({ entry, rule: this.src.policies.rule(entry.server, entry.tool.name) });
    }
    return (this._exposed = out);
  }

  /** Every configured server, in settings order. */
  get servers(): readonly ServerView[] {
    if (this._servers) return this._servers;
    const visible = new Map<string, number>();
    for (const { entry } of this.exposed) visible.set(entry.server, (visible.get(entry.server) ?? 0) + 1);
    const p = this.src.policies;
    return (this._servers = this.src.connections.map((c): ServerView => {
      const s = c.state;
      const failure = ConnectionState.failure(s);
      const restartReason = ConnectionState.restartReason(s);
      const issuer = ConnectionState.signInIssuer(s);
      return {
        name: c.name,
        settings: c.settings,
        state: s,
        description: ConnectionState.describe(s),
        usedByRole: p.usesServer(c.name),
        running: ConnectionState.isRunning(s),
        connected: ConnectionState.isConnected(s),
        settling: ConnectionState.isSettling(s),
        canStart: ConnectionState.canStart(s),
        ...(ConnectionState.isConnected(s) ? { info: s.info } : {}),
        ...(failure !== undefined ? { failure } : {}),
        needsSignIn: ConnectionState.needsSignIn(s),
        ...(issuer !== undefined ? { issuer } : {}),
        ...(restartReason !== undefined ? { restartReason } : {}),
        toolCount: ConnectionState.hasTools(s) ? c.tools.length : 0,
        visibleToolCount: visible.get(c.name) ?? 0,
        ...(c.pid !== undefined && ConnectionState.isRunning(s) ? { pid: c.pid } : {}),
        ...(c.transportKind && ConnectionState.isConnected(s) ? { transport: c.transportKind } : {}),
        ...(c.sessionId && ConnectionState.isConnected(s) ? { sessionId: c.sessionId } : {}),
        history: c.history,
        ...(this.src.consent?.get(c.name) ? { consent: this.src.consent.get(c.name) } : {}),
        quarantinedCount: ConnectionState.hasTools(s) ? (this.src.pins?.get(c.name)?.quarantined.size ?? 0) : 0,
        pendingReview: ConnectionState.hasTools(s) && !!this.src.pins?.get(c.name) && hasDrift(this.src.pins.get(c.name)!),
      };
    }));
  }

  server(name: string): ServerView | undefined {
    return this.servers.find((s) => s.name === name);
  }

  /** Every tool a server lists (each name once), loaded or not, in the server's order. */
  tools(server: string): readonly ToolView[] {
    const c = this.src.connections.find((x) => x.name === server);
    if (!c) return [];
    const seen = new Set<string>();
    const out: ToolView[] = [];
    for (const t of c.tools) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      out.push(this.view(server, t));
    }
    // Tools the server lists that are not loaded because their definition is malformed.
    for (const problem of this.problems) {
      if (problem.server !== server || problem.reason !== 'invalid' || seen.has(problem.tool) || !ConnectionState.hasTools(c.state)) continue;
      seen.add(problem.tool);
      out.push({ server, tool: { name: problem.tool, inputSchema: { type: 'object' } }, visible: false, rule: 'ask', problem });
    }
    return out;
  }

  tool(server: string, tool: string): ToolView | undefined {
    const t = this.entry(server, tool)?.tool ?? this.src.connections.find((x) => x.name === server)?.tools.find((x) => x.name === tool);
    return t ? this.view(server, t) : undefined;
  }

  /** How many tool definitions (and tokens) one model request of the active role may carry. */
  get toolBudget(): ToolBudgetSettings {
    return this.src.policies.toolBudget;
  }

  /** Whether the active role may see a tool of this name, whether or not the server lists it now. */
  allows(server: string, tool: string): boolean {
    return this.src.policies.allows(server, tool);
  }

  /** The resources a server lists (role-visible or not); `visibleResources()` for the role's across servers. */
  resources(server: string): readonly ResourceView[] {
    return resourceViews(server, this.facts(server)?.catalog, this.src.policies);
  }

  resourceTemplates(server: string): readonly ResourceTemplateView[] {
    return templateViews(server, this.facts(server)?.catalog, this.src.policies);
  }

  prompts(server: string): readonly PromptView[] {
    return promptViews(server, this.facts(server)?.catalog, this.src.policies);
  }

  /** Every resource, template and prompt the active role may use, server by server. */
  visibleResources(): readonly ResourceView[] {
    return this.src.connections.flatMap((c) => this.resources(c.name).filter((r) => r.visible));
  }

  visibleResourceTemplates(): readonly ResourceTemplateView[] {
    return this.src.connections.flatMap((c) => this.resourceTemplates(c.name).filter((r) => r.visible));
  }

  visiblePrompts(): readonly PromptView[] {
    return this.src.connections.flatMap((c) => this.prompts(c.name).filter((r) => r.visible));
  }

  /** Whether the active role may read this resource / use this prompt, listed or not. */
  allowsResource(server: string, uri: string): boolean {
    return this.src.policies.allowsResource(server, uri);
  }

  allowsPrompt(server: string, prompt: string): boolean {
    return this.src.policies.allowsPrompt(server, prompt);
  }

  /** Why tools are not loaded under names of their own (or loaded without a malformed part). */
  get problems(): readonly NamingProblem[] {
    return (this._problems ??= [
      ...this.src.problems,
      ...this.src.connections.flatMap((c) =>
        ConnectionState.hasTools(c.state)
          ? (c.toolProblems ?? []).map((p): NamingProblem => ({ severity: p.loaded ? 'warning' : 'error', server: c.name, tool: p.tool, reason: 'invalid', message: p.message }))
          : [],
      ),
    ]);
  }

  private facts(server: string): ConnectionFacts | undefined {
    const c = this.src.connections.find((x) => x.name === server);
    return c && ConnectionState.isConnected(c.state) ? c : undefined;
  }

  /** Why a listed tool is not offered to any role, if it is quarantined. */
  quarantine(server: string, tool: string): Quarantine | undefined {
    return this.src.pins?.get(server)?.quarantined.get(tool);
  }

  private view(server: string, listed: Tool): ToolView {
    const entry = this.entry(server, listed.name);
    const p = this.src.policies;
    const visible = p.allows(server, listed.name);
    const quarantine = this.quarantine(server, listed.name);
    const q = { ...(quarantine ? { quarantine } : {}), ...appFacts(listed) };
    if (!entry) {
      const problem = this.src.problems.find((x) => x.server === server && x.tool === listed.name);
      return { server, tool: listed, visible: false, rule: 'ask', ...(problem ? { problem } : {}), ...q };
    }
    const ruled = p.argumentRules.covers(server, listed.name) ? { argumentRules: true } : {};
    return { server, tool: entry.tool, exposedName: entry.name, visible, rule: p.rule(server, listed.name), ...ruled, definitionHash: entry.definitionHash, ...q };
  }

  private entry(server: string, tool: string): RegistryEntry | undefined {
    if (!this._byServer) {
      this._byServer = new Map();
      for (const e of this.src.entries) {
        let m = this._byServer.get(e.server);
        if (!m) this._byServer.set(e.server, (m = new Map()));
        m.set(e.tool.name, e);
      }
    }
    return this._byServer.get(server)?.get(tool);
  }
}
