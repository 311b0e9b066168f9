import * as vscode from 'vscode';
import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { McpHost } from '../core/host/mcpHost';
import type { Event } from '../core/util/event';
import { budgetTreeNode } from './budgetTreeNode';
import { catalogChildren, catalogFolders } from './catalogTreeNodes';
import { descriptionChangeNodes, eventNodes, eventToolNodes } from './eventTreeItems';
import type { GatewayStatus } from './gateway/editorGateway';
import { gatewayClientNodes } from './gateway/gatewayTreeItems';
import { toTreeItem } from './treeItems';
import type { RoleToolMeasure } from './toolBudgetTally';
import type { DetailNode, ServerNode, TreeNode } from './treeNodes';

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
    /** The active role's tools and tokens, shown as the first row. */
    private readonly budget?: () => RoleToolMeasure | undefined,
    /** The gateway for the editor's agents: a row (with its connected clients) unless it is off. */
    private readonly gateway?: () => GatewayStatus,
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
    const snapshot = this.host().snapshot();
    if (!node) {
      const measure = this.budget?.();
      const servers = snapshot.servers.map((s): ServerNode => ({ kind: 'server', role: snapshot.role, ...s }));
      const gateway = this.gateway?.();
      const first: TreeNode[] = [...(measure && measure.tools > 0 ? [budgetTreeNode(measure)] : []), ...(gateway && gateway.kind !== 'off' ? [{ kind: 'gateway' as const, status: gateway }] : [])];
      return [...first, ...servers];
    }
    switch (node.kind) {
      case 'server':
        return this.serverChildren(snapshot, node.name);
      case 'events':
        return eventNodes(node.server, snapshot.server(node.server)?.history ?? []);
      case 'event':
        return eventToolNodes(node);
      case 'eventTool':
        return descriptionChangeNodes(node);
      case 'catalog':
        return catalogChildren(snapshot, node);
      case 'gateway':
        return gatewayClientNodes(node.status);
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

  private serverChildren(snapshot: HostSnapshot, name: string): TreeNode[] {
    const server = snapshot.server(name);
    if (!server) return [];
    const out: TreeNode[] = [];
    const detail = (suffix: string, d: Omit<DetailNode, 'kind' | 'id'>): DetailNode => ({ kind: 'detail', id: `server:${name}/${suffix}`, ...d });
    if (server.state.kind === 'untrusted') {
      out.push(
        detail('untrusted', {
          label: 'Not started: the workspace is not trusted',
          icon: 'shield',
          command: { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' },
        }),
      );
    } else if (server.needsSignIn) {
      out.push(
        detail('signIn', {
          label: 'Sign In',
          description: server.issuer ? `with ${server.issuer}` : undefined,
          tooltip: `Open the sign-in page${server.issuer ? ` of ${server.issuer}` : ''} in your browser`,
          icon: 'account',
          command: { command: 'mcpHost.signIn', title: 'Sign In', arguments: [name] },
        }),
      );
    } else if (server.failure !== undefined) {
      out.push(detail('error', { label: server.consent === 'refused' ? 'Not allowed' : 'Error', description: server.failure, tooltip: server.failure, icon: 'error' }));
    }
    if (server.pendingReview) {
      out.push(
        detail('review', {
          label: 'Review Tool Changes…',
          description: server.quarantinedCount ? `${server.quarantinedCount} quarantined` : 'tools removed since the review',
          tooltip: 'Compare the definitions with mcp-host.lock.json and approve or reject them',
          icon: 'diff',
          command: { command: 'mcpHost.reviewToolChanges', title: 'Review Tool Changes…', arguments: [{ kind: 'server', name }] },
        }),
      );
    }
    const tools = snapshot.tools(name);
    for (const tool of tools) out.push({ kind: 'tool', role: snapshot.role, ...tool });
    if (tools.length === 0 && (server.connected || (server.canStart && server.failure === undefined))) {
      out.push(detail('noTools', { label: server.connected ? 'No tools' : 'No tools: not running', icon: 'info' }));
    }
    out.push(...catalogFolders(snapshot, name));
    out.push({ kind: 'events', server: name, events: server.history });
    return out;
  }
}
