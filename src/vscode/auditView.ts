import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { rotatedFiles } from '../core/audit/auditFiles';
import type { AuditRecord } from '../core/audit/auditRecord';
import { readAuditLines, type AuditLine } from '../core/audit/exportAudit';
import type { McpHost } from '../core/host/mcpHost';
import type { Event } from '../core/util/event';
import { toAuditRow, toAuditRows } from './auditRows';

export const AUDIT_VIEW_TYPE = 'mcpHost.auditLog';

/** The page: a strict CSP (nothing remote, the script only by its nonce), the extension's stylesheet and script. */
export function auditHtml(webview: Pick<vscode.Webview, 'cspSource'>, uris: { css: string; js: string }, nonce: string): string {
  const filter = (id: string, label: string, input = `<select id="f-${id}"></select>`) => `<label>${label}${input}</label>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${webview.cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uris.css}">
<title>MCP Host: Audit Log</title>
</head>
<body>
<header><h1>MCP Host audit log</h1><span id="source" class="muted"></span><span id="count" class="muted"></span></header>
<div id="charts">
  <section><h2>Calls per outcome</h2><div id="by-outcome"></div></section>
  <section><h2>Server time per tool</h2><p id="percentiles-empty" class="muted">No calls.</p>
    <table id="percentiles"><thead><tr><th>Tool</th><th>Calls</th><th>p50</th><th>p90</th><th>p99</th><th></th></tr></thead><tbody></tbody></table></section>
</div>
<div id="filters">
  ${filter('since', 'Since', '<input id="f-since" type="datetime-local">')}
  ${filter('role', 'Role')}${filter('server', 'Server')}${filter('tool', 'Tool')}${filter('outcome', 'Outcome')}
  ${filter('duration', 'Server time ≥ ms', '<input id="f-duration" type="number" min="0" step="1">')}
  ${filter('confirmedBy', 'Confirmed by')}
  <button id="f-clear" type="button">Clear filters</button>
</div>
<div id="main">
  <div id="table-wrap"><table id="records"><thead><tr><th>Time</th><th>Role</th><th>Server</th><th>Tool</th><th>Outcome</th><th>Server time</th><th>Confirmation wait</th><th>Total</th><th>Confirmed by</th></tr></thead><tbody></tbody></table></div>
  <section id="detail"><h2 id="detail-title">Select a record</h2>
    <h2 id="detail-args-label" class="muted"></h2><pre id="detail-args"></pre>
    <h2 id="detail-result-label" class="muted"></h2><pre id="detail-result"></pre></section>
</div>
<script nonce="${nonce}" src="${uris.js}"></script>
</body>
</html>`;
}

/**
 * MCP Host: Show Audit Log — the records of the audit file (and its rotated files) in a webview
 * table with filters, one record's arguments and result, calls per outcome and duration
 * percentiles per tool. New records are appended while it is open.
 */
export class AuditView implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: () => McpHost,
    onDidRecord: Event<AuditRecord>,
  ) {
    let next = 1_000_000_000;
    this.subscription = onDidRecord((r) => void this.panel?.webview.postMessage({ type: 'append', rows: [toAuditRow(r as unknown as AuditLine, next++)] }));
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const root = vscode.Uri.joinPath(this.extensionUri, 'media', 'audit');
    const panel = (this.panel = vscode.window.createWebviewPanel(AUDIT_VIEW_TYPE, 'MCP Host: Audit Log', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [root] }));
    const uri = (f: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(root, f)).toString();
    panel.webview.html = auditHtml(panel.webview, { css: uri('auditView.css'), js: uri('auditView.js') }, randomBytes(16).toString('base64'));
    panel.webview.onDidReceiveMessage((m: { type?: string }) => {
      if (m.type === 'ready') void panel.webview.postMessage(this.rows());
    });
    panel.onDidDispose(() => (this.panel = undefined));
  }

  dispose(): void {
    this.subscription.dispose();
    this.panel?.dispose();
  }

  private rows(): { type: 'rows'; rows: ReturnType<typeof toAuditRows>; source: string } {
    const file = this.host().auditPath;
    if (!file) return { type: 'rows', rows: [], source: 'no audit file (mcpHost.audit.path)' };
    const files = [...rotatedFiles(file), file];
    return { type: 'rows', rows: toAuditRows(readAuditLines(files)), source: files.length > 1 ? `${file} (+${files.length - 1} rotated)` : file };
  }
}
