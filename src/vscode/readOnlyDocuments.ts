import * as vscode from 'vscode';

export const RESULT_SCHEME = 'mcp-host-result';
const MAX_DOCUMENTS = 50;

/** In-memory read-only documents (tool call results) under their own URI scheme. */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private counter = 0;

  constructor(private readonly scheme = RESULT_SCHEME) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '(this result is no longer available)';
  }

  /** Show `content` as a read-only document named `name` (a number keeps names unique). */
  async open(name: string, content: string): Promise<void> {
    const path = `/${++this.counter}/${name.replace(/[\\/]/g, '_')}`;
    this.contents.set(path, content);
    if (this.contents.size > MAX_DOCUMENTS) this.contents.delete(this.contents.keys().next().value!);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: this.scheme, path }));
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
