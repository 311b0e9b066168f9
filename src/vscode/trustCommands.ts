import * as vscode from 'vscode';
import type { AuditView } from './auditView';
import { COMMANDS, type RegisterCommand } from './commands';
import type { HostController } from './hostController';
import { serverOfReviewUri, type ToolReviews } from './toolReview';
import type { TreeNode } from './treeNodes';

/** The commands of the lockfile's review and of the audit view. */
export function trustCommands(controller: HostController, reviews: ToolReviews, audit: AuditView): (register: RegisterCommand) => void {
  return (register) => {
    register(COMMANDS.reviewToolChanges, async (node?: TreeNode) => {
      const server = node?.kind === 'server' ? node.name : node?.kind === 'tool' ? node.server : await pickServer(controller);
      if (server !== undefined) await reviews.open(server);
    });
    register(COMMANDS.approveToolChanges, (uri?: vscode.Uri) => reviews.decide(reviewedServer(uri), 'approve'));
    register(COMMANDS.rejectToolChanges, (uri?: vscode.Uri) => reviews.decide(reviewedServer(uri), 'reject'));
    register(COMMANDS.showAuditLog, () => audit.show());
  };
}

/** The server of the review in the editor the command came from (its title bar), or of the active one. */
function reviewedServer(uri: vscode.Uri | undefined): string {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const server = serverOfReviewUri(uri) ?? (input instanceof vscode.TabInputTextDiff ? serverOfReviewUri(input.modified) : undefined);
  if (server === undefined) throw new Error('open Review Tool Changes… of a server first');
  return server;
}

async function pickServer(controller: HostController): Promise<string | undefined> {
  const pending = controller.host.snapshot().servers.filter((s) => s.pendingReview);
  if (pending.length === 0) {
    void vscode.window.showInformationMessage('MCP Host: every running server lists exactly the tools in mcp-host.lock.json.');
    return undefined;
  }
  if (pending.length === 1) return pending[0].name;
  const picked = await vscode.window.showQuickPick(
    pending.map((s) => ({ label: s.name, description: s.quarantinedCount ? `${s.quarantinedCount} quarantined` : 'tools removed' })),
    { title: 'MCP Host: Review Tool Changes', placeHolder: 'Server whose tool changes to review' },
  );
  return picked?.label;
}
