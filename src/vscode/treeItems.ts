import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { ConnectionState } from '../core/mcp/connectionState';
import type { ConfirmationRule } from '../core/policy/confirmationPolicy';
import type { ServerSettings } from '../core/settings/hostSettings';
import type { ChangedTool } from '../core/tools/toolListDiff';
import type { ToolsChangedEvent } from '../core/tools/toolRegistry';
import { annotationClaimsSentence } from './annotationClaims';
import { cut, escapeMarkdown, firstLine } from './escapeMarkdown';
import { describeTarget } from './serverTarget';

/** The nodes of the Servers view: plain data snapshots, turned into TreeItems by {@link toTreeItem}. */
export type TreeNode = ServerNode | ToolNode | EventsNode | EventNode | EventToolNode | DetailNode;

export interface ServerNode {
  readonly kind: 'server';
  readonly name: string;
  readonly settings: ServerSettings;
  readonly state: ConnectionState;
  readonly role: string | undefined;
  readonly usedByRole: boolean;
  readonly toolCount: number;
}

export interface ToolNode {
  readonly kind: 'tool';
  readonly server: string;
  readonly tool: Tool;
  /** The name the model sees; undefined when the tool was not loaded (a refused duplicate name). */
  readonly exposedName: string | undefined;
  readonly visible: boolean;
  readonly role: string | undefined;
  readonly rule: ConfirmationRule;
  /** Why the tool is not loaded. */
  readonly problem?: string;
}

export interface EventsNode {
  readonly kind: 'events';
  readonly server: string;
  /** Newest first. */
  readonly events: readonly ToolsChangedEvent[];
}

export interface EventNode {
  readonly kind: 'event';
  readonly server: string;
  readonly event: ToolsChangedEvent;
  readonly id: string;
}

export interface EventToolNode {
  readonly kind: 'eventTool';
  readonly server: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly tool: string;
  readonly changed?: ChangedTool;
  readonly id: string;
}

export interface DetailNode {
  readonly kind: 'detail';
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon?: string;
  readonly command?: vscode.Command;
}

/** `contextValue`s (space-separated tokens) the menus in package.json match with `viewItem =~ /\btoken\b/`. */
export const CONTEXT = {
  server: 'mcpServer',
  running: 'mcpServer.running',
  stopped: 'mcpServer.stopped',
  connected: 'mcpServer.connected',
  tool: 'mcpTool',
  callable: 'mcpTool.callable',
} as const;

const COLOR = {
  ok: 'testing.iconPassed',
  warn: 'problemsWarningIcon.foreground',
  error: 'problemsErrorIcon.foreground',
  dim: 'disabledForeground',
} as const;

function icon(id: string, color?: string): vscode.ThemeIcon {
  return color ? new vscode.ThemeIcon(id, new vscode.ThemeColor(color)) : new vscode.ThemeIcon(id);
}

function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

export function toTreeItem(node: TreeNode): vscode.TreeItem {
  switch (node.kind) {
    case 'server':
      return serverItem(node);
    case 'tool':
      return toolItem(node);
    case 'events':
      return eventsItem(node);
    case 'event':
      return eventItem(node);
    case 'eventTool':
      return eventToolItem(node);
    case 'detail':
      return detailItem(node);
  }
}

// --- servers ---------------------------------------------------------------------------------

/** Whether the server process/connection is up or on its way (Stop applies), or down (Start applies). */
export function isRunning(state: ConnectionState): boolean {
  return state.kind === 'starting' || state.kind === 'connected' || state.kind === 'restarting';
}

export function serverStateIcon(state: ConnectionState): vscode.ThemeIcon {
  switch (state.kind) {
    case 'connected':
      return icon('pass-filled', COLOR.ok);
    case 'starting':
      return icon('loading~spin');
    case 'restarting':
      return icon('sync~spin', COLOR.warn);
    case 'error':
      return icon('error', COLOR.error);
    case 'disabled':
      return icon('circle-slash', COLOR.dim);
    case 'untrusted':
      return icon('shield', COLOR.warn);
    case 'stopped':
      return icon('debug-stop', COLOR.dim);
    case 'idle':
      return icon('circle-large-outline', COLOR.dim);
  }
}

/** The short state text next to a server's name. */
export function serverDescription(node: ServerNode): string {
  const s = node.state;
  const notUsed = !node.usedByRole && s.kind !== 'disabled' ? ` · not used by ${node.role ? `role ${node.role}` : 'the role'}` : '';
  switch (s.kind) {
    case 'connected':
      return `connected · ${node.toolCount} tool${node.toolCount === 1 ? '' : 's'}${notUsed}`;
    case 'starting':
      return s.attempt > 1 ? `starting (attempt ${s.attempt})` : 'starting';
    case 'restarting':
      return `restarting (attempt ${s.attempt})`;
    case 'error':
      return `error${notUsed}`;
    case 'disabled':
      return 'disabled';
    case 'untrusted':
      return 'untrusted';
    case 'stopped':
      return `stopped${notUsed}`;
    case 'idle':
      return `not started${notUsed}`;
  }
}

export function serverTooltip(node: ServerNode): string {
  const s = node.state;
  const lines = [`**${escapeMarkdown(node.name)}** — ${escapeMarkdown(serverDescription(node))}`, ''];
  if (s.kind === 'connected') {
    const info = s.info.serverInfo;
    if (info) lines.push(`Server: ${escapeMarkdown(`${info.title ?? info.name} ${info.version}`)}`, '');
    if (s.info.protocolVersion) lines.push(`Protocol version: ${escapeMarkdown(s.info.protocolVersion)}`, '');
    const caps = Object.keys(s.info.capabilities ?? {});
    if (caps.length) lines.push(`Capabilities: ${escapeMarkdown(caps.join(', '))}`, '');
  }
  if (s.kind === 'error') {
    lines.push(`Error: ${escapeMarkdown(cut(s.message, 800))}`, '');
    if (/secret "[^"]+" is not set/.test(s.message)) lines.push('Set it with the command "MCP Host: Set Secret…".', '');
  }
  if (s.kind === 'restarting') lines.push(`Last failure: ${escapeMarkdown(cut(s.reason, 800))}`, '');
  if (s.kind === 'untrusted') lines.push('Not started because the workspace is not trusted. Trust the workspace to start MCP servers.', '');
  lines.push('```text', ...describeTarget(node.settings).map((l) => l.replace(/`/g, "'")), '```', '');
  if (!node.usedByRole && s.kind !== 'disabled') lines.push(`Not used by ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the active role'}.`);
  return lines.join('\n').trim();
}

export function serverContextValue(state: ConnectionState): string {
  const tokens: string[] = [CONTEXT.server];
  if (isRunning(state)) tokens.push(CONTEXT.running);
  else if (state.kind !== 'disabled' && state.kind !== 'untrusted') tokens.push(CONTEXT.stopped);
  if (ConnectionState.isConnected(state)) tokens.push(CONTEXT.connected);
  return tokens.join(' ');
}

function serverItem(node: ServerNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `server:${node.name}`;
  item.description = serverDescription(node);
  item.tooltip = markdown(serverTooltip(node));
  item.iconPath = serverStateIcon(node.state);
  item.contextValue = serverContextValue(node.state);
  return item;
}

// --- tools -----------------------------------------------------------------------------------

export function toolDescription(node: ToolNode): string {
  if (node.exposedName === undefined) return `not loaded${node.problem ? `: ${firstLine(node.problem, 80)}` : ''}`;
  // A confirmation rule means nothing for a tool the role can never call.
  const status = node.visible ? (node.rule === 'auto' ? 'auto' : 'asks') : `hidden for ${node.role ? `role ${node.role}` : 'the role'}`;
  const desc = firstLine(node.tool.description, 80);
  return `${status}${desc ? ` · ${desc}` : ''}`;
}

export function toolTooltip(node: ToolNode): string {
  const t = node.tool;
  const lines = [`**${escapeMarkdown(node.exposedName ?? t.name)}** — tool \`${t.name.replace(/`/g, "'")}\` of server **${escapeMarkdown(node.server)}**`, ''];
  const title = t.title ?? t.annotations?.title;
  if (title) lines.push(`Title: ${escapeMarkdown(title)}`, '');
  if (t.description) lines.push(`Description (from the server): ${escapeMarkdown(cut(t.description, 1000))}`, '');
  if (node.exposedName === undefined) {
    lines.push(`Not loaded${node.problem ? `: ${escapeMarkdown(node.problem)}` : '.'}`, '');
  } else {
    lines.push(
      node.rule === 'auto'
        ? 'Confirmation: runs without asking (mcpHost.autoApprove).'
        : 'Confirmation: asks before every call (the default; see mcpHost.confirm / mcpHost.autoApprove).',
      '',
    );
    lines.push(
      node.visible
        ? `Visible to ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the model (no role)'}.`
        : `Hidden for ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the active role'}: the model never sees or calls it.`,
      '',
    );
  }
  lines.push(escapeMarkdown(annotationClaimsSentence(t.annotations)));
  return lines.join('\n');
}

export function toolContextValue(node: ToolNode): string {
  const tokens: string[] = [CONTEXT.tool];
  if (node.exposedName !== undefined && node.visible) tokens.push(CONTEXT.callable);
  return tokens.join(' ');
}

function toolItem(node: ToolNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.exposedName ?? node.tool.name, vscode.TreeItemCollapsibleState.None);
  item.id = `tool:${node.server}/${node.tool.name}`;
  item.description = toolDescription(node);
  item.tooltip = markdown(toolTooltip(node));
  item.iconPath =
    node.exposedName === undefined ? icon('warning', COLOR.warn) : node.visible ? icon('tools') : icon('eye-closed', COLOR.dim);
  item.contextValue = toolContextValue(node);
  item.command = { command: 'mcpHost.showToolDefinition', title: 'Show Tool Definition', arguments: [node] };
  return item;
}

// --- list_changed events -----------------------------------------------------------------------

/** `14:03:07` in local time. */
export function formatTime(ts: string): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export function eventSummary(e: ToolsChangedEvent): string {
  return [
    e.added.length ? `added ${e.added.length}` : '',
    e.removed.length ? `removed ${e.removed.length}` : '',
    e.changed.length ? `changed ${e.changed.length}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** Child nodes of a server's "Events" node, newest first, with ids that stay stable as new events arrive. */
export function eventNodes(server: string, events: readonly ToolsChangedEvent[]): EventNode[] {
  return events.map((event, i) => ({ kind: 'event', server, event, id: `event:${server}:${event.ts}:${events.length - i}` }));
}

export function eventToolNodes(node: EventNode): EventToolNode[] {
  const e = node.event;
  return [
    ...e.added.map((tool) => ({ kind: 'eventTool' as const, server: node.server, change: 'added' as const, tool, id: `${node.id}/+${tool}` })),
    ...e.removed.map((tool) => ({ kind: 'eventTool' as const, server: node.server, change: 'removed' as const, tool, id: `${node.id}/-${tool}` })),
    ...e.changed.map((c) => ({ kind: 'eventTool' as const, server: node.server, change: 'changed' as const, tool: c.tool, changed: c, id: `${node.id}/~${c.tool}` })),
  ];
}

/** Children of a changed tool: its description before and after (when that is what changed). */
export function descriptionChangeNodes(node: EventToolNode): DetailNode[] {
  const c = node.changed;
  if (!c || c.descriptionBefore === c.descriptionAfter) return [];
  return [
    { kind: 'detail', id: `${node.id}/before`, label: 'before', description: firstLine(c.descriptionBefore, 200) || '(none)', tooltip: c.descriptionBefore ?? '(none)', icon: 'diff-removed' },
    { kind: 'detail', id: `${node.id}/after`, label: 'after', description: firstLine(c.descriptionAfter, 200) || '(none)', tooltip: c.descriptionAfter ?? '(none)', icon: 'diff-added' },
  ];
}

function eventsItem(node: EventsNode): vscode.TreeItem {
  const n = node.events.length;
  const item = new vscode.TreeItem('Events', n ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `events:${node.server}`;
  item.description = n ? `${n} tool-list change${n === 1 ? '' : 's'}` : 'no tool-list changes';
  item.tooltip = 'Changes of this server\'s tool list (notifications/tools/list_changed, refreshes, restarts), newest first.';
  item.iconPath = icon('history');
  item.contextValue = 'mcpEvents';
  return item;
}

function eventItem(node: EventNode): vscode.TreeItem {
  const e = node.event;
  const item = new vscode.TreeItem(formatTime(e.ts), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.description = eventSummary(e);
  const lines = [`**${escapeMarkdown(e.ts)}**`, ''];
  if (e.added.length) lines.push(`Added: ${escapeMarkdown(e.added.join(', '))}`, '');
  if (e.removed.length) lines.push(`Removed: ${escapeMarkdown(e.removed.join(', '))}`, '');
  for (const c of e.changed) lines.push(`Changed: ${escapeMarkdown(c.tool)} (${escapeMarkdown(c.fields.join(', '))})`, '');
  item.tooltip = markdown(lines.join('\n').trim());
  item.iconPath = icon('git-commit');
  item.contextValue = 'mcpEvent';
  return item;
}

function eventToolItem(node: EventToolNode): vscode.TreeItem {
  const hasChildren = descriptionChangeNodes(node).length > 0;
  const item = new vscode.TreeItem(node.tool, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  if (node.change === 'changed') {
    item.description = `changed: ${node.changed?.fields.join(', ') ?? ''}`;
    const c = node.changed;
    if (c && c.descriptionBefore !== c.descriptionAfter) {
      item.tooltip = markdown(
        ['**Description changed**', '', 'Before:', '```text', (c.descriptionBefore ?? '(none)').replace(/```/g, "'''"), '```', 'After:', '```text', (c.descriptionAfter ?? '(none)').replace(/```/g, "'''"), '```'].join('\n'),
      );
    }
  } else {
    item.description = node.change;
  }
  item.iconPath = icon(node.change === 'added' ? 'diff-added' : node.change === 'removed' ? 'diff-removed' : 'diff-modified');
  item.contextValue = 'mcpEventTool';
  return item;
}

function detailItem(node: DetailNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  if (node.description !== undefined) item.description = node.description;
  if (node.tooltip !== undefined) item.tooltip = node.tooltip;
  if (node.icon) item.iconPath = icon(node.icon);
  if (node.command) item.command = node.command;
  item.contextValue = 'mcpDetail';
  return item;
}
