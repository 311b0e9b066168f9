import * as vscode from 'vscode';
import { cut, firstLine } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';
import { COLOR, icon, markdown } from './treeItemParts';
import { CONTEXT, type CatalogFolderNode, type CatalogNode, type PromptNode, type ResourceNode, type ResourceTemplateNode } from './treeNodes';

/** Command ids the catalog items run (declared in commands.ts / package.json). */
export const CATALOG_COMMANDS = {
  openResource: 'mcpHost.openResource',
  readResourceTemplate: 'mcpHost.readResourceTemplate',
  usePromptInChat: 'mcpHost.usePromptInChat',
  copyResourceReference: 'mcpHost.copyResourceReference',
} as const;

const hiddenFor = (role: string | undefined) => `hidden for ${role ? `role ${role}` : 'the role'}`;

export function catalogItem(node: CatalogNode): vscode.TreeItem {
  switch (node.kind) {
    case 'catalog':
      return folderItem(node);
    case 'resource':
      return resourceItem(node);
    case 'resourceTemplate':
      return templateItem(node);
    case 'prompt':
      return promptItem(node);
  }
}

export function folderDescription(node: CatalogFolderNode): string {
  return node.visibleCount === node.count ? String(node.count) : `${node.visibleCount} of ${node.count} for ${node.role ? `role ${node.role}` : 'the role'}`;
}

function folderItem(node: CatalogFolderNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.section === 'resources' ? 'Resources' : 'Prompts', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${node.section}:${node.server}`;
  item.description = folderDescription(node);
  item.iconPath = icon(node.section === 'resources' ? 'library' : 'comment-discussion');
  return item;
}

export function resourceDescription(node: ResourceNode): string {
  return node.visible ? node.resource.uri : `${hiddenFor(node.role)} · ${node.resource.uri}`;
}

function resourceItem(node: ResourceNode): vscode.TreeItem {
  const r = node.resource;
  const item = new vscode.TreeItem(r.title ?? r.name, vscode.TreeItemCollapsibleState.None);
  item.id = `resource:${node.server}/${r.uri}`;
  item.description = resourceDescription(node);
  item.tooltip = markdown(
    [
      `**${escapeMarkdown(r.title ?? r.name)}** — resource of server **${escapeMarkdown(node.server)}**`,
      '',
      `\`${r.uri.replace(/`/g, "'")}\`${r.mimeType ? ` · ${escapeMarkdown(r.mimeType)}` : ''}${r.size !== undefined ? ` · ${r.size} bytes` : ''}`,
      ...(r.description ? ['', `Description (from the server): ${escapeMarkdown(cut(r.description, 1000))}`] : []),
      '',
      node.visible ? 'Click to open it (read-only; the read is audited).' : `Not readable: the role's \`resources\` globs do not match it.`,
    ].join('\n'),
  );
  item.iconPath = node.visible ? icon(r.mimeType?.startsWith('image/') ? 'file-media' : 'file') : icon('eye-closed', COLOR.dim);
  item.contextValue = node.visible ? `${CONTEXT.resource} ${CONTEXT.readable}` : CONTEXT.resource;
  if (node.visible) item.command = { command: CATALOG_COMMANDS.openResource, title: 'Open Resource', arguments: [node] };
  return item;
}

function templateItem(node: ResourceTemplateNode): vscode.TreeItem {
  const t = node.template;
  const item = new vscode.TreeItem(t.title ?? t.name, vscode.TreeItemCollapsibleState.None);
  item.id = `template:${node.server}/${t.uriTemplate}`;
  item.description = node.visible ? t.uriTemplate : `${hiddenFor(node.role)} · ${t.uriTemplate}`;
  item.tooltip = markdown(
    [
      `**${escapeMarkdown(t.title ?? t.name)}** — resource template of server **${escapeMarkdown(node.server)}**`,
      '',
      `\`${t.uriTemplate.replace(/`/g, "'")}\``,
      ...(t.description ? ['', `Description (from the server): ${escapeMarkdown(cut(t.description, 1000))}`] : []),
    ].join('\n'),
  );
  item.iconPath = node.visible ? icon('file-symlink-file') : icon('eye-closed', COLOR.dim);
  item.contextValue = node.visible ? `${CONTEXT.template} ${CONTEXT.templateReadable}` : CONTEXT.template;
  if (node.visible) item.command = { command: CATALOG_COMMANDS.readResourceTemplate, title: 'Read Resource…', arguments: [node] };
  return item;
}

export function promptDescription(node: PromptNode): string {
  const args = (node.prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`));
  const parts = [node.visible ? '' : hiddenFor(node.role), args.length ? `(${args.join(', ')})` : '', firstLine(node.prompt.description, 80)];
  return parts.filter(Boolean).join(' · ');
}

function promptItem(node: PromptNode): vscode.TreeItem {
  const p = node.prompt;
  const item = new vscode.TreeItem(p.title ?? p.name, vscode.TreeItemCollapsibleState.None);
  item.id = `prompt:${node.server}/${p.name}`;
  item.description = promptDescription(node);
  const args = (p.arguments ?? []).map((a) => `- \`${a.name}\`${a.required ? ' (required)' : ''}${a.description ? `: ${escapeMarkdown(a.description)}` : ''}`);
  item.tooltip = markdown(
    [
      `**${escapeMarkdown(p.title ?? p.name)}** — prompt \`${p.name.replace(/`/g, "'")}\` of server **${escapeMarkdown(node.server)}**`,
      ...(p.description ? ['', `Description (from the server): ${escapeMarkdown(cut(p.description, 1000))}`] : []),
      ...(args.length ? ['', 'Arguments:', ...args] : []),
      '',
      node.visible ? '**Use in Chat** inserts its messages into an `@mcp` request.' : "Not usable: the role's `prompts` globs do not match it.",
    ].join('\n'),
  );
  item.iconPath = node.visible ? icon('comment') : icon('eye-closed', COLOR.dim);
  item.contextValue = node.visible ? `${CONTEXT.prompt} ${CONTEXT.usable}` : CONTEXT.prompt;
  return item;
}
