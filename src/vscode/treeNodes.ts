import type * as vscode from 'vscode';
import type { ChangedTool, PromptView, ResourceTemplateView, ResourceView, ServerView, ToolsChangedEvent, ToolView } from '../core/host/hostSnapshot';
import type { GatewayStatus } from './gateway/editorGateway';

/** The nodes of the Servers view: plain data from the host's snapshot, turned into TreeItems by `toTreeItem`. */
export type TreeNode = ServerNode | ToolNode | EventsNode | EventNode | EventToolNode | DetailNode | CatalogNode | GatewayNode;

/** The gateway offered to the editor's agents (gateway/gatewayTreeItems.ts); its children are the connected clients. */
export interface GatewayNode {
  readonly kind: 'gateway';
  readonly status: GatewayStatus;
}

/** A server's Resources and Prompts folders and what is in them (catalogTreeNodes.ts). */
export type CatalogNode = CatalogFolderNode | ResourceNode | ResourceTemplateNode | PromptNode;

export interface CatalogFolderNode {
  readonly kind: 'catalog';
  readonly server: string;
  readonly section: 'resources' | 'prompts';
  /** Resources and templates, or prompts, the server lists. */
  readonly count: number;
  /** Of those, what the active role may use. */
  readonly visibleCount: number;
  readonly role: string | undefined;
}

export interface ResourceNode extends ResourceView {
  readonly kind: 'resource';
  readonly role: string | undefined;
}

export interface ResourceTemplateNode extends ResourceTemplateView {
  readonly kind: 'resourceTemplate';
  readonly role: string | undefined;
}

export interface PromptNode extends PromptView {
  readonly kind: 'prompt';
  readonly role: string | undefined;
}

export interface ServerNode extends ServerView {
  readonly kind: 'server';
  readonly role: string | undefined;
}

export interface ToolNode extends ToolView {
  readonly kind: 'tool';
  readonly role: string | undefined;
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
  /** Sign In applies. */
  needsSignIn: 'mcpServer.needsSignIn',
  /** An http/sse server: Sign Out applies. */
  remote: 'mcpServer.remote',
  /** Its tools differ from the lockfile: Review Tool Changes… applies. */
  review: 'mcpServer.review',
  tool: 'mcpTool',
  callable: 'mcpTool.callable',
  quarantined: 'mcpTool.quarantined',
  /** It declares an MCP App view (`_meta.ui.resourceUri`): Open the App View applies. */
  appView: 'mcpTool.appView',
  resource: 'mcpResource',
  readable: 'mcpResource.readable',
  template: 'mcpResourceTemplate',
  templateReadable: 'mcpResourceTemplate.readable',
  prompt: 'mcpPrompt',
  usable: 'mcpPrompt.usable',
} as const;
