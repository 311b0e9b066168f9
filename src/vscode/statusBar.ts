import * as vscode from 'vscode';
import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { McpHost } from '../core/host/mcpHost';
import type { Event } from '../core/util/event';
import type { RoleSource } from './personalRole';

export interface StatusBarView {
  readonly text: string;
  readonly tooltip: string;
  readonly warning: boolean;
}

/**
 * `$(tools) MCP: support` or `$(tools) MCP: no role`; a warning look when a server of the role is in
 * error or needs sign-in. The tooltip says when the role is the person's own choice rather than the team's default.
 */
export function statusBarView(snapshot: Pick<HostSnapshot, 'role' | 'trusted' | 'servers'>, source?: RoleSource): StatusBarView {
  const used = snapshot.servers.filter((s) => s.usedByRole);
  const failing = used.filter((s) => s.failure !== undefined || s.needsSignIn);
  const lines = [`MCP Host role: ${snapshot.role ?? '(no role)'} — click to switch`];
  if (source?.personal) {
    lines.push(
      `Your choice in this workspace; the team's default (mcpHost.activeRole) is ${source.teamDefault ?? '(no role)'}. "Select Role…" offers to use it again.`,
    );
  }
  if (!snapshot.trusted) lines.push('The workspace is not trusted: no MCP server is started.');
  for (const s of used) lines.push(`${s.name}: ${s.description}`);
  return {
    text: `$(tools) MCP: ${snapshot.role ?? 'no role'}`,
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
    private readonly roleSource?: () => RoleSource,
  ) {
    this.item = vscode.window.createStatusBarItem('mcpHost.role', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'MCP Host Role';
    this.item.command = 'mcpHost.selectRole';
    this.subscription = onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  update(): void {
    const view = statusBarView(this.host().snapshot(), this.roleSource?.());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
