import * as vscode from 'vscode';
import { annotationClaimsSentence } from './annotationClaims';
import { readToolUi } from '../core/apps/toolUi';
import { cut, firstLine } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';
import { COLOR, icon, markdown } from './treeItemParts';
import { CONTEXT, type ToolNode } from './treeNodes';

/** The quarantine reason in a few words, for the tree. */
export function quarantineLabel(node: ToolNode): string {
  const q = node.quarantine!;
  switch (q.reason) {
    case 'changed':
      return `quarantined: ${q.fields?.join(', ') ?? 'definition'} changed`;
    case 'newTool':
      return 'quarantined: new tool';
    case 'unreviewedServer':
      return 'quarantined: not reviewed yet';
    case 'identityChanged':
      return 'quarantined: server started differently';
    default:
      return 'quarantined: lockfile unusable';
  }
}

export function toolDescription(node: ToolNode): string {
  if (node.quarantine) return quarantineLabel(node);
  if (node.exposedName === undefined) return `not loaded${node.problem ? `: ${firstLine(node.problem.message, 80)}` : ''}`;
  // A confirmation rule means nothing for a tool the role can never call.
  const status = node.visible
    ? `${node.rule === 'auto' ? 'auto' : 'asks'}${node.argumentRules ? ' + rules' : ''}`
    : `hidden for ${node.role ? `role ${node.role}` : 'the role'}`;
  const desc = firstLine(node.tool.description, 80);
  return `${status}${desc ? ` · ${desc}` : ''}`;
}

export function toolTooltip(node: ToolNode): string {
  const t = node.tool;
  // The row shows the tool's own name (it sits under its server); the name the model sees is here.
  const exposed = node.exposedName === undefined ? '' : `, offered to the model as \`${node.exposedName.replace(/`/g, "'")}\``;
  const lines = [`**${escapeMarkdown(t.name)}** — tool of server **${escapeMarkdown(node.server)}**${exposed}`, ''];
  const title = t.title ?? t.annotations?.title;
  if (title) lines.push(`Title: ${escapeMarkdown(title)}`, '');
  if (t.description) lines.push(`Description (from the server): ${escapeMarkdown(cut(t.description, 1000))}`, '');
  if (node.quarantine) {
    lines.push(
      `**Quarantined**: ${escapeMarkdown(node.quarantine.message)}. No role is offered this tool and a call to it is refused until a person approves it (**Review Tool Changes…** on the server).`,
      '',
    );
  } else if (node.exposedName === undefined) {
    lines.push(`Not loaded${node.problem ? `: ${escapeMarkdown(node.problem.message)}` : '.'}`, '');
  } else {
    lines.push(
      node.rule === 'auto'
        ? 'Confirmation: runs without asking (mcpHost.autoApprove).'
        : 'Confirmation: asks before every call (the default; see mcpHost.confirm / mcpHost.autoApprove).',
      '',
    );
    if (node.argumentRules) lines.push('Argument rules (mcpHost.rules, the role\'s rules) name this tool: depending on its arguments a call may be denied, ask, or run without asking.', '');
    lines.push(
      node.visible
        ? `Visible to ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the model (no role)'}.`
        : `Hidden for ${node.role ? `role **${escapeMarkdown(node.role)}**` : 'the active role'}: the model never sees or calls it.`,
      '',
    );
  }
  const view = readToolUi(t)?.resourceUri;
  if (view) lines.push(`App view: \`${view.replace(/`/g, "'")}\` (**Open the App View** shows it in an editor panel).`, '');
  lines.push(escapeMarkdown(annotationClaimsSentence(t.annotations)));
  return lines.join('\n');
}

export function toolContextValue(node: ToolNode): string {
  const tokens: string[] = [CONTEXT.tool];
  if (node.quarantine) tokens.push(CONTEXT.quarantined);
  else if (node.exposedName !== undefined && node.visible) tokens.push(CONTEXT.callable);
  if (readToolUi(node.tool)) tokens.push(CONTEXT.appView);
  return tokens.join(' ');
}

/** A tool row under its server: the tool's own name (no server prefix, so the flags fit a narrow side bar). */
export function toolItem(node: ToolNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.tool.name, vscode.TreeItemCollapsibleState.None);
  item.id = `tool:${node.server}/${node.tool.name}`;
  item.description = toolDescription(node);
  item.tooltip = markdown(toolTooltip(node));
  item.iconPath = node.quarantine
    ? icon('shield', COLOR.error)
    : node.exposedName === undefined
      ? icon('warning', COLOR.warn)
      : node.visible
        ? icon('tools')
        : icon('eye-closed', COLOR.dim);
  item.contextValue = toolContextValue(node);
  item.command = { command: 'mcpHost.showToolDefinition', title: 'Show Tool Definition', arguments: [node] };
  return item;
}

