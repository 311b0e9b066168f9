import * as vscode from 'vscode';
import type { ConnectionState } from '../core/host/hostSnapshot';
import { cut } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';
import { describeTarget } from './serverTarget';
import { COLOR, icon, markdown } from './treeItemParts';
import { CONTEXT, type ServerNode } from './treeNodes';

export function serverStateIcon(state: ConnectionState, consent?: ServerNode['consent']): vscode.ThemeIcon {
  if (consent === 'waiting') return icon('question', COLOR.warn);
  if (consent === 'refused' && state.kind === 'error') return icon('circle-slash', COLOR.warn);
  switch (state.kind) {
    case 'connected':
      return icon('pass-filled', COLOR.ok);
    case 'starting':
      return icon('loading~spin');
    case 'restarting':
      return icon('sync~spin', COLOR.warn);
    case 'error':
      return icon('error', COLOR.error);
    case 'needsSignIn':
      return icon('account', COLOR.warn);
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
  const notUsed = !node.usedByRole && node.settings.enabled ? ` · not used by ${node.role ? `role ${node.role}` : 'the role'}` : '';
  const quarantined = node.quarantinedCount ? ` · ${node.quarantinedCount} quarantined` : '';
  if (node.consent === 'waiting') return 'waiting for your consent to start';
  switch (s.kind) {
    case 'connected':
      return `connected · ${node.toolCount} tool${node.toolCount === 1 ? '' : 's'}${quarantined}${notUsed}`;
    case 'starting':
      return s.attempt > 1 ? `starting (attempt ${s.attempt})` : 'starting';
    case 'restarting':
      return `restarting (attempt ${s.attempt})`;
    case 'error':
      return node.consent === 'refused' ? `not allowed to start${notUsed}` : `error${notUsed}`;
    case 'needsSignIn':
      return `needs sign-in${notUsed}`;
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
  const lines = [`**${escapeMarkdown(node.name)}** — ${escapeMarkdown(serverDescription(node))}`, ''];
  if (node.info) {
    const server = node.info.serverInfo;
    if (server) lines.push(`Server: ${escapeMarkdown(`${server.title ?? server.name} ${server.version}`)}`, '');
    if (node.info.protocolVersion) lines.push(`Protocol version: ${escapeMarkdown(node.info.protocolVersion)}${node.info.era ? ` (${node.info.era})` : ''}`, '');
    if (node.transport) lines.push(`Transport: ${escapeMarkdown(node.transport)}`, '');
    const caps = Object.keys(node.info.capabilities ?? {});
    if (caps.length) lines.push(`Capabilities: ${escapeMarkdown(caps.join(', '))}`, '');
  }
  if (node.failure !== undefined) {
    lines.push(`Error: ${escapeMarkdown(cut(node.failure, 800))}`, '');
    if (/secret "[^"]+" is not set/.test(node.failure)) lines.push('Set it with the command "MCP Host: Set Secret…".', '');
  }
  if (node.needsSignIn) {
    lines.push(`Needs sign-in${node.issuer ? ` with ${escapeMarkdown(node.issuer)}` : ''}. Use **Sign In** to open the sign-in page in your browser.`, '');
  }
  if (node.restartReason !== undefined) lines.push(`Last failure: ${escapeMarkdown(cut(node.restartReason, 800))}`, '');
  if (node.state.kind === 'untrusted') lines.push('Not started because the workspace is not trusted. Trust the workspace to start MCP servers.', '');
  if (node.settings.source) lines.push(`Imported from \`${node.settings.source}\` (\`mcpHost.import\`).`, '');
  if (node.consent === 'waiting') lines.push('Waiting for you to allow it to start (the exact command is shown in the dialog).', '');
  if (node.quarantinedCount) lines.push(`${node.quarantinedCount} of its tools are quarantined: their definitions differ from mcp-host.lock.json. Use **Review Tool Changes…**.`, '');
  lines.push('```text', ...describeTarget(node.settings).map((l) => l.replace(/`/g, "'")), '```', '');
  if (!node.usedByRole && node.settings.enabled) lines.push(`Not used by ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the active role'}.`);
  return lines.join('\n').trim();
}

export function serverContextValue(
  node: Pick<ServerNode, 'running' | 'canStart' | 'connected' | 'needsSignIn'> & { settings: Pick<ServerNode['settings'], 'type'>; pendingReview?: boolean },
): string {
  const tokens: string[] = [CONTEXT.server];
  if (node.running) tokens.push(CONTEXT.running);
  else if (node.canStart) tokens.push(CONTEXT.stopped);
  if (node.connected) tokens.push(CONTEXT.connected);
  if (node.needsSignIn) tokens.push(CONTEXT.needsSignIn);
  if (node.settings.type !== 'stdio') tokens.push(CONTEXT.remote);
  if (node.pendingReview) tokens.push(CONTEXT.review);
  return tokens.join(' ');
}

export function serverItem(node: ServerNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `server:${node.name}`;
  item.description = node.settings.source ? `${serverDescription(node)} · ${node.settings.source}` : serverDescription(node);
  item.tooltip = markdown(serverTooltip(node));
  item.iconPath = serverStateIcon(node.state, node.consent);
  item.contextValue = serverContextValue(node);
  return item;
}
