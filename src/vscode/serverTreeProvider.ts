import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';
import { ConnectionState } from '../core/mcp/connectionState';
import type { Event } from '../core/util/event';
import {
  descriptionChangeNodes,
  eventNodes,
  eventToolNodes,
  toTreeItem,
  type DetailNode,
  type ServerNode,
  type ToolNode,
  type TreeNode,
} from './treeItems';

export const SERVERS_VIEW_ID = 'mcpHost.servers';
const REFRESH_DEBOUNCE_MS = 100;

/** The Servers view: configured servers, their tools and tool-list events, refreshed live (debounced). */
export class ServerTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly subscription: { dispose(): void };
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly host: () => McpHost,
    onDidChange: Event<void>,
  ) {
    this.subscription = onDidChange(() => this.scheduleRefresh());
  }

  /** Refresh now (Refresh All), bypassing the debounce. */
  refresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const host = this.host();
    if (!node) return host.settings.servers.map((s) => this.serverNode(s.name)).filter((n): n is ServerNode => !!n);
    switch (node.kind) {
      case 'server':
        return this.serverChildren(node);
      case 'events':
        return eventNodes(node.server, host.registry.history(node.server));
      case 'event':
        return eventToolNodes(node);
      case 'eventTool':
        return descriptionChangeNodes(node);
      default:
        return [];
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }

  private scheduleRefresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this._onDidChangeTreeData.fire(undefined);
    }, REFRESH_DEBOUNCE_MS);
  }

  private serverNode(name: string): ServerNode | undefined {
    const host = this.host();
    const settings = host.settings.servers.find((s) => s.name === name);
    const connection = host.connection(name);
    if (!settings || !connection) return undefined;
    return {
      kind: 'server',
      name,
      settings,
      state: connection.state,
      role: host.roleName,
      usedByRole: host.rolePolicy.usesServer(name),
      toolCount: connection.tools.length,
    };
  }

  private serverChildren(node: ServerNode): TreeNode[] {
    const host = this.host();
    const connection = host.connection(node.name);
    const state = connection?.state ?? node.state;
    const out: TreeNode[] = [];
    const detail = (suffix: string, d: Omit<DetailNode, 'kind' | 'id'>): DetailNode => ({ kind: 'detail', id: `server:${node.name}/${suffix}`, ...d });
    if (state.kind === 'untrusted') {
      out.push(
        detail('untrusted', {
          label: 'Not started: the workspace is not trusted',
          icon: 'shield',
          command: { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' },
        }),
      );
    } else if (state.kind === 'error') {
      out.push(detail('error', { label: 'Error', description: state.message, tooltip: state.message, icon: 'error' }));
    }
    // A server may list a name twice (the registry keeps the first): one node per name keeps ids unique.
    const seen = new Set<string>();
    const tools = (connection?.tools ?? []).filter((t) => !seen.has(t.name) && !!seen.add(t.name));
    const problems = host.problems().filter((p) => p.server === node.name);
    for (const tool of tools) {
      const entry = host.registry.find(node.name, tool.name);
      const toolNode: ToolNode = entry
        ? { kind: 'tool', server: node.name, tool: entry.tool, exposedName: entry.name, visible: host.isVisible(entry), role: host.roleName, rule: host.ruleFor(entry) }
        : {
            kind: 'tool',
            server: node.name,
            tool,
            exposedName: undefined,
            visible: false,
            role: host.roleName,
            rule: 'ask',
            problem: problems.find((p) => p.message.includes(`"${tool.name}"`))?.message ?? 'its name conflicts with another tool (mcpHost.toolNames is "reject")',
          };
      out.push(toolNode);
    }
    if (tools.length === 0 && (ConnectionState.isConnected(state) || state.kind === 'stopped' || state.kind === 'idle')) {
      out.push(detail('noTools', { label: ConnectionState.isConnected(state) ? 'No tools' : 'No tools: not running', icon: 'info' }));
    }
    out.push({ kind: 'events', server: node.name, events: host.registry.history(node.name) });
    return out;
  }
}
