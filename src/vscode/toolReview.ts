import * as vscode from 'vscode';
import { actor } from '../core/audit/actor';
import type { McpHost } from '../core/host/mcpHost';
import type { DefinitionReview } from '../core/pinning/definitionReview';

export const REVIEW_SCHEME = 'mcp-host-review';

/**
 * `mcp-host-review:/<server>/<side>.mcp-host-review`: JSON with comments under a language of its own
 * (package.json), whose default wraps long lines, so a long description is read whole in the diff.
 */
export function reviewUri(server: string, side: 'reviewed' | 'now'): vscode.Uri {
  return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${encodeURIComponent(server)}/${side}${REVIEW_EXTENSION}` });
}

/** The file extension of the review's language `mcp-host-review` (package.json). */
export const REVIEW_EXTENSION = '.mcp-host-review';

export function serverOfReviewUri(uri: vscode.Uri | undefined): string | undefined {
  const m = uri?.scheme === REVIEW_SCHEME ? /^\/([^/]+)\//.exec(uri.path) : null;
  return m ? decodeURIComponent(m[1]) : undefined;
}

/** The diff editor's title: what changed, in a few words. */
export function reviewTitle(r: DefinitionReview): string {
  if (r.firstReview) return `Review ${r.server}: ${r.added.length} tools, not reviewed yet`;
  const parts = [
    r.changed.length ? `${r.changed.length} changed` : '',
    r.added.length ? `${r.added.length} new` : '',
    r.removed.length ? `${r.removed.length} removed` : '',
    r.identityChanges.length ? 'started differently' : '',
  ].filter(Boolean);
  return `Review ${r.server}: ${parts.join(', ')} (reviewed ↔ now)`;
}

/**
 * Review Tool Changes…: a server's definitions as reviewed (mcp-host.lock.json) and as listed now,
 * side by side in VS Code's diff editor (long lines wrapped), with "Approve Tool Changes" and
 * "Reject Tool Changes" as words in its title bar (and the command palette while it is open). What is approved is exactly what was shown: an approval after the server changed
 * its tools again is refused and the review reopens.
 */
export class ToolReviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly shown = new Map<string, DefinitionReview>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly registration: vscode.Disposable;

  constructor(private readonly host: () => McpHost) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const server = serverOfReviewUri(uri);
    const r = server === undefined ? undefined : this.shown.get(server);
    if (!r) return '// this review is closed\n';
    return uri.path.endsWith(`/reviewed${REVIEW_EXTENSION}`) ? r.before : r.after;
  }

  /** Open the diff of one server's pending changes. */
  async open(server: string): Promise<void> {
    const review = this.host().definitions.review(server);
    if (!review) {
      void vscode.window.showInformationMessage(`MCP Host: the tools of server "${server}" match mcp-host.lock.json; nothing to review.`);
      return;
    }
    this.shown.set(server, review);
    for (const side of ['reviewed', 'now'] as const) this._onDidChange.fire(reviewUri(server, side));
    await vscode.commands.executeCommand('vscode.diff', reviewUri(server, 'reviewed'), reviewUri(server, 'now'), reviewTitle(review), { preview: false });
    // No buttons here: a notification with actions stays until answered, stale once the review is decided.
    void vscode.window.showInformationMessage(
      this.host().definitions.mode === 'locked'
        ? `MCP Host: mcpHost.pinning is "locked": update mcp-host.lock.json with "mcp-host lock" and commit it.`
        : `MCP Host: ${reviewTitle(review)}. "Approve Tool Changes" writes mcp-host.lock.json; "Reject Tool Changes" keeps it. Both are in the editor's title bar.`,
    );
  }

  /** Approve or reject what the open review of `server` shows. */
  async decide(server: string, decision: 'approve' | 'reject'): Promise<void> {
    const review = this.shown.get(server);
    if (!review) throw new Error(`there is no open review of server "${server}": use Review Tool Changes… first`);
    try {
      this.host().definitions[decision](server, review.token, actor('editor'));
    } catch (e) {
      this.shown.delete(server);
      await this.closeTabs(server);
      throw e;
    }
    this.shown.delete(server);
    await this.closeTabs(server);
    const what = review.firstReview ? `${review.added.length} tools` : [...review.changed.map((c) => c.tool), ...review.added].join(', ') || 'the removals';
    void vscode.window.showInformationMessage(
      decision === 'approve'
        ? `MCP Host: approved ${what} of server "${server}" in mcp-host.lock.json.`
        : `MCP Host: rejected the changes of server "${server}"; its changed tools stay quarantined.`,
    );
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
  }

  private async closeTabs(server: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && serverOfReviewUri(t.input.modified) === server);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }
}
