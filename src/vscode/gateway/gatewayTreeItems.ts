import * as vscode from 'vscode';
import type { UpstreamClient } from '../../core/gateway/gateway';
import { formatTime } from '../eventTreeItems';
import { COLOR, icon } from '../treeItemParts';
import type { DetailNode, GatewayNode } from '../treeNodes';
import { clientText, GATEWAY_LABEL, GATEWAY_SETTING, type GatewayStatus } from './editorGateway';

/** The Servers view's row for the gateway, shown while `mcpHost.gateway.enabled` is on. */
export function gatewayItem(node: GatewayNode): vscode.TreeItem {
  const s = node.status;
  const clients = s.kind === 'listening' ? s.clients.length : 0;
  // Short: the side bar is 300 px wide by default; the tooltip says what it is.
  const item = new vscode.TreeItem('Gateway', clients ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = 'gateway';
  item.description = statusText(s);
  item.tooltip =
    s.kind === 'listening'
      ? `${GATEWAY_LABEL}, offered to the editor's agents on ${s.url} (token in memory only). Every call goes through this role's tools, rules, confirmations and audit. ${GATEWAY_SETTING} turns it off.`
      : s.kind === 'untrusted'
        ? 'The workspace is not trusted: MCP Host starts no server, so the editor is offered none.'
        : s.kind === 'failed'
          ? `Could not start: ${s.message}`
          : 'Starting…';
  item.iconPath = s.kind === 'failed' ? icon('error', COLOR.error) : s.kind === 'untrusted' ? icon('shield') : icon('plug', s.kind === 'listening' ? COLOR.ok : undefined);
  item.contextValue = 'mcpGateway';
  return item;
}

/** One row per connected upstream client: its name, version, transport, since when and how many calls. */
export function gatewayClientNodes(status: GatewayStatus): DetailNode[] {
  if (status.kind !== 'listening') return [];
  return status.clients.map((c: UpstreamClient): DetailNode => ({
    kind: 'detail',
    id: `gateway/client:${c.id}`,
    label: c.version ? `${c.name} ${c.version}` : c.name,
    description: `${c.transport} · since ${formatTime(c.since)} · ${c.calls} call${c.calls === 1 ? '' : 's'}`,
    tooltip: `${clientText(c)}, connected since ${c.since}`,
    icon: 'account',
  }));
}

function statusText(s: GatewayStatus): string {
  switch (s.kind) {
    case 'listening':
      return s.clients.length ? `${s.clients.length} client${s.clients.length === 1 ? '' : 's'} connected` : 'no client connected';
    case 'untrusted':
      return 'not offered: the workspace is not trusted';
    case 'failed':
      return 'could not start';
    default:
      return s.kind === 'off' ? 'off' : 'starting';
  }
}
