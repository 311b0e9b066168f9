import * as vscode from 'vscode';
import type { ToolsChangedEvent } from '../core/host/hostSnapshot';
import { firstLine } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';
import { icon, markdown } from './treeItemParts';
import type { DetailNode, EventNode, EventsNode, EventToolNode } from './treeNodes';

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

export function eventsItem(node: EventsNode): vscode.TreeItem {
  const n = node.events.length;
  const item = new vscode.TreeItem('Events', n ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `events:${node.server}`;
  item.description = n ? `${n} tool-list change${n === 1 ? '' : 's'}` : 'no tool-list changes';
  item.tooltip = 'Changes of this server\'s tool list (notifications/tools/list_changed, refreshes, restarts), newest first.';
  item.iconPath = icon('history');
  item.contextValue = 'mcpEvents';
  return item;
}

export function eventItem(node: EventNode): vscode.TreeItem {
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

export function eventToolItem(node: EventToolNode): vscode.TreeItem {
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

export function detailItem(node: DetailNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  if (node.description !== undefined) item.description = node.description;
  if (node.tooltip !== undefined) item.tooltip = node.tooltip;
  if (node.icon) item.iconPath = icon(node.icon);
  if (node.command) item.command = node.command;
  item.contextValue = 'mcpDetail';
  return item;
}
