import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Watches the files of `mcpHost.import` (created, changed, deleted) and calls `onChange` once per
 * burst of events, so editing `.vscode/mcp.json` or `.mcp.json` hot-reloads their servers like a
 * settings change does.
 */
export class ImportWatcher implements vscode.Disposable {
  private watchers: vscode.FileSystemWatcher[] = [];
  private watched = '';
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly onChange: () => void,
    private readonly delayMs = 200,
  ) {}

  /** Watch exactly these absolute paths (no-op when unchanged). */
  watch(files: readonly string[]): void {
    const key = JSON.stringify(files);
    if (key === this.watched) return;
    this.watched = key;
    this.disposeWatchers();
    for (const file of files) {
      const pattern = new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file));
      const w = vscode.workspace.createFileSystemWatcher(pattern);
      const fire = () => this.schedule();
      w.onDidCreate(fire);
      w.onDidChange(fire);
      w.onDidDelete(fire);
      this.watchers.push(w);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.disposeWatchers();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onChange();
    }, this.delayMs);
  }

  private disposeWatchers(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }
}
