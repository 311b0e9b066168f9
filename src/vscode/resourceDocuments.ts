import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';
import { resourceFileName, resourceText } from './resourceDocumentName';

// Not "mcp-resource": VS Code's own MCP support registers a file system for that scheme.
export const RESOURCE_SCHEME = 'mcp-host-resource';

interface OpenResource {
  readonly server: string;
  readonly uri: string;
  text: string;
}

/**
 * MCP resources opened in the editor. Text opens as a read-only document (`mcp-host-resource:` URIs,
 * named after the resource so the language is recognised) that follows `resources/updated` while
 * it is open; binary contents (images) are written to a temporary file and opened with the
 * editor's own viewer. Every read goes through `host.catalog` (role check, audit).
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly open = new Map<string, OpenResource>();
  private readonly disposables: vscode.Disposable[] = [];
  private binaryDir?: string;

  constructor(private readonly host: () => McpHost) {
    this.disposables.push(
      this._onDidChange,
      vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((doc) => this.closed(doc.uri)),
      host().catalog.onDidUpdateResource((e) => void this.updated(e.server, e.uri)),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.open.get(uri.toString())?.text ?? '(this resource is no longer loaded: open it again from the MCP Host view)';
  }

  /** Read `uri` of `server` and show it. Throws with the reason when it cannot be read. */
  async show(server: string, uri: string): Promise<vscode.Uri> {
    const read = await this.host().catalog.readResource({ server, uri, purpose: 'view' });
    if (read.outcome !== 'ok') throw new Error(`could not read ${uri} of server "${server}" (${read.outcome}): ${read.text}`);
    const first = read.contents[0];
    const hasText = read.contents.some((c) => 'text' in c && typeof c.text === 'string');
    if (!hasText && first && 'blob' in first && typeof first.blob === 'string') {
      const file = vscode.Uri.file(this.writeBinary(resourceFileName(uri, first.mimeType), first.blob));
      await vscode.commands.executeCommand('vscode.open', file, { preview: false });
      return file;
    }
    const docUri = vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${server}/${resourceFileName(uri, first?.mimeType)}`, query: uri });
    this.open.set(docUri.toString(), { server, uri, text: resourceText(read.contents) });
    this._onDidChange.fire(docUri);
    const doc = await vscode.workspace.openTextDocument(docUri);
    await vscode.window.showTextDocument(doc, { preview: false });
    void this.host().catalog.subscribe(server, uri);
    return docUri;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.open.clear();
    if (this.binaryDir) rmSync(this.binaryDir, { recursive: true, force: true });
  }

  private async updated(server: string, uri: string): Promise<void> {
    for (const [key, r] of this.open) {
      if (r.server !== server || r.uri !== uri) continue;
      const read = await this.host().catalog.readResource({ server, uri, purpose: 'view' });
      if (read.outcome !== 'ok') continue;
      r.text = resourceText(read.contents);
      this._onDidChange.fire(vscode.Uri.parse(key));
    }
  }

  private closed(docUri: vscode.Uri): void {
    if (docUri.scheme !== RESOURCE_SCHEME) return;
    const r = this.open.get(docUri.toString());
    if (!r) return;
    this.open.delete(docUri.toString());
    if (![...this.open.values()].some((o) => o.server === r.server && o.uri === r.uri)) void this.host().catalog.unsubscribe(r.server, r.uri);
  }

  private writeBinary(name: string, base64: string): string {
    this.binaryDir ??= mkdtempSync(join(tmpdir(), 'mcp-host-resources-'));
    const dir = mkdtempSync(join(this.binaryDir, 'r-'));
    const file = join(dir, name);
    writeFileSync(file, Buffer.from(base64, 'base64'));
    return file;
  }
}
