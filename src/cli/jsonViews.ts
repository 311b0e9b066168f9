import type { ContentBlock, Implementation, Tool, ToolAnnotations } from '@modelcontextprotocol/client';
import { readToolUi } from '../core/apps/toolUi';
import type { ToolCallResult } from '../core/calls/toolRouter';
import type { HostSnapshot, ToolsChangedEvent } from '../core/host/hostSnapshot';
import type { ServerStateEvent } from '../core/host/mcpHost';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { loginCommand } from './loginWhenNeeded';
import { allowCommand } from './nextCommand';

/** The JSON shapes the CLI prints (check --json, call --json, session answers and events). */

export interface ToolView {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly confirm: 'ask' | 'auto';
  readonly description: string;
  readonly inputSchema: unknown;
  readonly annotations?: ToolAnnotations;
  /** MCP Apps: the `ui://` view the editor can show with the tool's result. */
  readonly view?: string;
}

/** MCP Apps: a tool of the role that only its server's views may call; never offered to a model (nor to a session's driver). */
export interface AppOnlyView {
  readonly server: string;
  readonly tool: string;
  readonly description: string;
}

export interface ServerView {
  readonly name: string;
  /** check: connected | needsSignIn | notAllowed | error | disabled. session: the live state kind (starting, restarting, needsSignIn, ...). */
  readonly state: string;
  readonly error?: string;
  /** needsSignIn: the authorization server the server names, and the command that signs in. */
  readonly issuer?: string;
  readonly login?: string;
  /** notAllowed: the command that allows it to start in this workspace. */
  readonly allow?: string;
  /** Why a server is disabled or restarting. */
  readonly reason?: string;
  readonly protocolVersion?: string;
  /** `legacy` (2025-11-25) or `modern` (2026-07-28). */
  readonly era?: 'legacy' | 'modern';
  readonly serverInfo?: Implementation;
  /** Tools the server lists. */
  readonly toolCount: number;
  /** Of those, the tools the active role sees. */
  readonly visibleToolCount: number;
  /** Process id of a running stdio server (session only). */
  readonly pid?: number;
  /** How a connected server is reached: stdio, streamableHttp, or sse (after the fallback). */
  readonly transport?: string;
  /** The file it was imported from (`mcpHost.import`); absent for `mcpHost.servers`. */
  readonly source?: string;
}

/** A tool a server lists that no role is offered: its definition is not the reviewed one. */
export interface QuarantineView {
  readonly server: string;
  readonly tool: string;
  readonly reason: string;
  readonly message: string;
}

export interface ProblemView {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly setting?: string;
  readonly server?: string;
  /** In an imported file (`.vscode/mcp.json`, `.mcp.json`): 1-based line and column. */
  readonly location?: { readonly file: string; readonly line: number; readonly column: number };
}

export interface CallView {
  readonly name: string;
  readonly server: string | null;
  readonly tool: string | null;
  readonly outcome: ToolCallResult['outcome'];
  readonly confirmedBy: ToolCallResult['confirmedBy'];
  readonly durationMs: number;
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly modelText: string;
  /** MCP Apps: the tool's `ui://` view, which the editor shows with this result. */
  readonly view?: string;
}

export function toolViews(snapshot: HostSnapshot): ToolView[] {
  return snapshot.exposed.map(({ entry, rule }) => ({
    name: entry.name,
    server: entry.server,
    tool: entry.tool.name,
    confirm: rule,
    description: entry.tool.description ?? '',
    inputSchema: entry.tool.inputSchema,
    ...(entry.tool.annotations ? { annotations: entry.tool.annotations } : {}),
    ...viewOf(entry.tool),
  }));
}

/** MCP Apps: the `ui://` view that goes with a result the server gave (an error result included), if its tool has one. */
export function resultView(r: ToolCallResult, snapshot: HostSnapshot): string | undefined {
  if ((r.outcome !== 'ok' && r.outcome !== 'isError') || r.server === undefined || r.tool === undefined) return undefined;
  return snapshot.tool(r.server, r.tool)?.ui?.resourceUri;
}

/** `{ view }` for a tool with a view (MCP Apps), or for its URI; else nothing. */
function viewOf(of: Tool | string | undefined): { view?: string } {
  const view = typeof of === 'object' ? readToolUi(of)?.resourceUri : of;
  return view ? { view } : {};
}

/** The role's app-only tools, server by server (check). */
export function appOnlyViews(snapshot: HostSnapshot): AppOnlyView[] {
  return snapshot.servers.flatMap((s) =>
    snapshot
      .tools(s.name)
      .filter((t) => t.appOnly && t.visible && t.exposedName !== undefined && !t.quarantine)
      .map((t) => ({ server: s.name, tool: t.tool.name, description: t.tool.description ?? '' })),
  );
}

/**
 * Every configured server, in settings order. `collapse` (check) folds the live state into
 * connected | needsSignIn | notAllowed | error | disabled: servers the role does not use or that are disabled
 * in the settings are "disabled" with a reason, anything else not connected is an "error".
 * `workspace` (--workspace as given) goes into the login command of a server that needs sign-in.
 */
export function serverViews(snapshot: HostSnapshot, collapse: boolean, workspace?: string): ServerView[] {
  return snapshot.servers.map((s): ServerView => {
    const counts = { toolCount: s.toolCount, visibleToolCount: s.visibleToolCount, ...(s.settings.source ? { source: s.settings.source } : {}) };
    const unused = !s.settings.enabled
      ? 'disabled in the settings ("enabled": false)'
      : !s.usedByRole
        ? `not used by role "${snapshot.role}"`
        : undefined;
    const info = s.info
      ? {
          ...(s.info.protocolVersion ? { protocolVersion: s.info.protocolVersion } : {}),
          ...(s.info.era ? { era: s.info.era } : {}),
          ...(s.info.serverInfo ? { serverInfo: s.info.serverInfo } : {}),
          ...(s.transport ? { transport: s.transport } : {}),
        }
      : {};
    const signIn = s.needsSignIn ? { ...(s.issuer ? { issuer: s.issuer } : {}), login: loginCommand(s.name, workspace) } : {};
    if (collapse) {
      if (unused) return { name: s.name, state: 'disabled', reason: unused, ...counts };
      if (s.connected) return { name: s.name, state: 'connected', ...info, ...counts };
      if (s.needsSignIn) return { name: s.name, state: 'needsSignIn', ...signIn, reason: s.description, ...counts };
      if (s.consent !== undefined) return { name: s.name, state: 'notAllowed', reason: s.failure ?? s.description, allow: allowCommand([s.name], { workspace }), ...counts };
      return { name: s.name, state: 'error', error: s.failure ?? s.description, ...counts };
    }
    return {
      name: s.name,
      state: s.state.kind,
      ...(s.failure !== undefined ? { error: s.failure } : {}),
      ...signIn,
      ...(s.restartReason !== undefined ? { reason: s.restartReason } : unused ? { reason: unused } : {}),
      ...info,
      ...counts,
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
    };
  });
}

/** Every quarantined tool of the servers the role uses, in settings order. */
export function quarantineViews(snapshot: HostSnapshot): QuarantineView[] {
  return snapshot.servers
    .filter((s) => s.usedByRole)
    .flatMap((s) => snapshot.tools(s.name))
    .filter((t) => t.quarantine)
    .map((t) => ({ server: t.server, tool: t.tool.name, reason: t.quarantine!.reason, message: t.quarantine!.message }));
}

/** Settings problems first, then the registry's naming problems. */
export function problemViews(settingsProblems: readonly SettingsProblem[], snapshot: HostSnapshot): ProblemView[] {
  return [...settingsProblems, ...snapshot.problems].map((p) => ({
    severity: p.severity,
    message: p.message,
    ...(p.setting ? { setting: p.setting } : {}),
    ...(p.server ? { server: p.server } : {}),
    ...('location' in p && p.location ? { location: p.location } : {}),
  }));
}

/** `snapshot`: where the tool's view (MCP Apps) is looked up, for a result the server gave. */
export function callView(r: ToolCallResult, snapshot: HostSnapshot): CallView {
  return {
    name: r.name,
    server: r.server ?? null,
    tool: r.tool ?? null,
    outcome: r.outcome,
    confirmedBy: r.confirmedBy,
    durationMs: r.durationMs,
    content: r.content,
    ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
    modelText: r.modelText,
    ...viewOf(resultView(r, snapshot)),
  };
}

export function serverStateEvent(e: ServerStateEvent, snapshot: HostSnapshot): Record<string, unknown> {
  const s = e.state;
  return {
    event: 'serverState',
    server: e.server,
    state: s.kind,
    ...(s.kind === 'error' ? { error: s.message } : {}),
    ...(s.kind === 'needsSignIn' ? { ...(s.issuer ? { issuer: s.issuer } : {}), reason: s.message } : {}),
    ...(s.kind === 'restarting' ? { reason: s.reason, attempt: s.attempt, delayMs: s.delayMs } : {}),
    ...(s.kind === 'connected' ? { toolCount: snapshot.server(e.server)?.toolCount ?? 0 } : {}),
  };
}

/** The change restricted to tools the active role may see; undefined when nothing of it is visible. */
export function toolsChangedEvent(e: ToolsChangedEvent, snapshot: HostSnapshot): Record<string, unknown> | undefined {
  const allowed = (tool: string) => snapshot.allows(e.server, tool);
  const added = e.added.filter(allowed);
  const removed = e.removed.filter(allowed);
  const changed = e.changed.filter((c) => allowed(c.tool));
  if (!added.length && !removed.length && !changed.length) return undefined;
  return { event: 'toolsChanged', ts: e.ts, server: e.server, added, removed, changed };
}
