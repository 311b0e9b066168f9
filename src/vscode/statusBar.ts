import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';
import { ConnectionState } from '../core/mcp/connectionState';
import type { Event } from '../core/util/event';

export interface StatusBarView {
  readonly text: string;
  readonly tooltip: string;
  readonly warning: boolean;
}

/** `$(tools) MCP: support` or `$(tools) MCP: no role`; a warning look when a server of the role is in error. */
export function statusBarView(
  role: string | undefined,
  servers: readonly { readonly name: string; readonly state: ConnectionState; readonly usedByRole: boolean }[],
  trusted = true,
): StatusBarView {
  const used = servers.filter((s) => s.usedByRole);
  const failing = used.filter((s) => s.state.kind === 'error');
  const lines = [`MCP Host role: ${role ?? '(no role)'} — click to switch`];
  if (!trusted) lines.push('The workspace is not trusted: no MCP server is started.');
  for (const s of used) lines.push(`${s.name}: ${ConnectionState.describe(s.state)}`);
  return {
    text: `$(tools) MCP: ${role ?? 'no role'}`,
    tooltip: lines.join('\n'),
    warning: failing.length > 0,
  };
}

/** The status bar entry showing the active role; click runs "Select Role". */
export class RoleStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly host: () => McpHost,
    onDidChange: Event<void>,
  ) {
    this.item = vscode.window.createStatusBarItem('mcpHost.role', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'MCP Host Role';
    this.item.command = 'mcpHost.selectRole';
    this.subscription = onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  update(): void {
    const host = this.host();
    const servers = host.allConnections().map((c) => ({ name: c.name, state: c.state, usedByRole: host.rolePolicy.usesServer(c.name) }));
    const view = statusBarView(host.roleName, servers, host.isTrusted);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
