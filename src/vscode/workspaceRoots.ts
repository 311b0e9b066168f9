import * as vscode from 'vscode';
import type { Root } from '@modelcontextprotocol/client';
import { folderRoot, type RootsSource } from '../core/requests/rootsSource';
import { Emitter } from '../core/util/event';

/** The roots servers are offered: the window's workspace folders on disk; a change is announced to every server. */
export class WorkspaceRoots implements RootsSource, vscode.Disposable {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire());

  roots(): readonly Root[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => folderRoot(f.uri.fsPath, f.name));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
