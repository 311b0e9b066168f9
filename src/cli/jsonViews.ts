import type { ContentBlock, Implementation, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult } from '../core/calls/toolRouter';
import type { McpHost, ServerStateEvent } from '../core/host/mcpHost';
import { ConnectionState } from '../core/mcp/connectionState';
import type { SettingsProblem } from '../core/settings/hostSettings';
import type { ToolsChangedEvent } from '../core/tools/toolRegistry';

/** The JSON shapes the CLI prints (check --json, call --json, session answers and events). */

export interface ToolView {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly confirm: 'ask' | 'auto';
  readonly description: string;
  readonly inputSchema: unknown;
  readonly annotations?: ToolAnnotations;
}

export interface ServerView {
  readonly name: string;
  /** check: connected | error | disabled. session: the live state kind (starting, restarting, ...). */
  readonly state: string;
  readonly error?: string;
  /** Why a server is disabled or restarting. */
  readonly reason?: string;
  readonly protocolVersion?: string;
  readonly serverInfo?: Implementation;
  /** Tools the server lists. */
  readonly toolCount: number;
  /** Of those, the tools the active role sees. */
  readonly visibleToolCount: number;
  /** Process id of a running stdio server (session only). */
  readonly pid?: number;
}

export interface ProblemView {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly setting?: string;
  readonly server?: string;
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
}

export function toolViews(host: McpHost): ToolView[] {
  return host.exposedTools().map(({ entry, rule }) => ({
    name: entry.name,
    server: entry.server,
    tool: entry.tool.name,
    confirm: rule,
    description: entry.tool.description ?? '',
    inputSchema: entry.tool.inputSchema,
    ...(entry.tool.annotations ? { annotations: entry.tool.annotations } : {}),
  }));
}

/**
 * Every configured server, in settings order. `collapse` (check) folds the live state into
 * connected | error | disabled: servers the role does not use or that are disabled in the
 * settings are "disabled" with a reason, anything else not connected is an "error".
 */
export function serverViews(host: McpHost, collapse: boolean): ServerView[] {
  const visible = new Map<string, number>();
  for (const { entry } of host.exposedTools()) visible.set(entry.server, (visible.get(entry.server) ?? 0) + 1);
  return host.settings.servers.map((s): ServerView => {
    const c = host.connection(s.name);
    const state = c?.state ?? ConnectionState.stopped;
    const counts = {
      toolCount: c && (ConnectionState.isConnected(state) || state.kind === 'restarting') ? c.tools.length : 0,
      visibleToolCount: visible.get(s.name) ?? 0,
    };
    const unused = !s.enabled
      ? 'disabled in the settings ("enabled": false)'
      : !host.rolePolicy.usesServer(s.name)
        ? `not used by role "${host.roleName}"`
        : undefined;
    const info = ConnectionState.isConnected(state)
      ? {
          ...(state.info.protocolVersion ? { protocolVersion: state.info.protocolVersion } : {}),
          ...(state.info.serverInfo ? { serverInfo: state.info.serverInfo } : {}),
        }
      : {};
    if (collapse) {
      if (unused) return { name: s.name, state: 'disabled', reason: unused, ...counts };
      if (ConnectionState.isConnected(state)) return { name: s.name, state: 'connected', ...info, ...counts };
      return { name: s.name, state: 'error', error: state.kind === 'error' ? state.message : ConnectionState.describe(state), ...counts };
    }
    const pid = c?.pid;
    return {
      name: s.name,
      state: state.kind,
      ...(state.kind === 'error' ? { error: state.message } : {}),
      ...(state.kind === 'restarting' ? { reason: state.reason } : unused ? { reason: unused } : {}),
      ...info,
      ...counts,
      ...(pid !== undefined && state.kind !== 'stopped' && state.kind !== 'idle' ? { pid } : {}),
    };
  });
}

/** Settings problems first, then the registry's naming problems. */
export function problemViews(settingsProblems: readonly SettingsProblem[], host: McpHost): ProblemView[] {
  return [...settingsProblems, ...host.problems()].map((p) => ({
    severity: p.severity,
    message: p.message,
    ...(p.setting ? { setting: p.setting } : {}),
    ...(p.server ? { server: p.server } : {}),
  }));
}

export function callView(r: ToolCallResult): CallView {
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
  };
}

export function serverStateEvent(e: ServerStateEvent, host: McpHost): Record<string, unknown> {
  const s = e.state;
  return {
    event: 'serverState',
    server: e.server,
    state: s.kind,
    ...(s.kind === 'error' ? { error: s.message } : {}),
    ...(s.kind === 'restarting' ? { reason: s.reason, attempt: s.attempt, delayMs: s.delayMs } : {}),
    ...(s.kind === 'connected' ? { toolCount: host.connection(e.server)?.tools.length ?? 0 } : {}),
  };
}

/** The change restricted to tools the active role may see; undefined when nothing of it is visible. */
export function toolsChangedEvent(e: ToolsChangedEvent, host: McpHost): Record<string, unknown> | undefined {
  const allowed = (tool: string) => host.rolePolicy.allows(e.server, tool);
  const added = e.added.filter(allowed);
  const removed = e.removed.filter(allowed);
  const changed = e.changed.filter((c) => allowed(c.tool));
  if (!added.length && !removed.length && !changed.length) return undefined;
  return { event: 'toolsChanged', ts: e.ts, server: e.server, added, removed, changed };
}
