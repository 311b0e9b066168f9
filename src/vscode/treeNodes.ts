import type * as vscode from 'vscode';
import type { ChangedTool, ServerView, ToolsChangedEvent, ToolView } from '../core/host/hostSnapshot';

/** The nodes of the Servers view: plain data from the host's snapshot, turned into TreeItems by `toTreeItem`. */
export type TreeNode = ServerNode | ToolNode | EventsNode | EventNode | EventToolNode | DetailNode;

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
  /** Its tools differ from the lockfile: Review Tool Changes… applies. */
  review: 'mcpServer.review',
  tool: 'mcpTool',
  callable: 'mcpTool.callable',
  quarantined: 'mcpTool.quarantined',
} as const;
