import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';
import type { Event } from '../core/util/event';

export const TOOL_SCHEME = 'mcp-host-tool';

/** `mcp-host-tool:/<server>/<tool>.json` */
export function toolDefinitionUri(server: string, tool: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TOOL_SCHEME, path: `/${encodeURIComponent(server)}/${encodeURIComponent(tool)}.json` });
}

export function parseToolDefinitionUri(uri: vscode.Uri): { server: string; tool: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\.json$/.exec(uri.path);
  return m ? { server: decodeURIComponent(m[1]), tool: decodeURIComponent(m[2]) } : undefined;
}

/** A tool's definition as the server sent it, as a live read-only JSON document. */
export class ToolDefinitionProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly registration: vscode.Disposable;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly host: () => McpHost,
    onDidChangeTools: Event<void>,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(TOOL_SCHEME, this);
    this.subscription = onDidChangeTools(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === TOOL_SCHEME) this._onDidChange.fire(doc.uri);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = parseToolDefinitionUri(uri);
    if (!id) return `// not a tool definition URI: ${uri.toString()}\n`;
    const view = this.host().snapshot().tool(id.server, id.tool);
    if (!view) return `// server "${id.server}" has no tool "${id.tool}" (any more)\n`;
    const loaded = view.exposedName !== undefined;
    const doc = {
      server: id.server,
      exposedName: view.exposedName ?? null,
      visibleToRole: loaded && view.visible,
      confirmation: loaded ? view.rule : null,
      definitionHash: view.definitionHash ?? null,
      definition: view.tool,
    };
    return JSON.stringify(doc, null, 2) + '\n';
  }

  async show(server: string, tool: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(toolDefinitionUri(server, tool));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this.subscription.dispose();
    this.registration.dispose();
    this._onDidChange.dispose();
  }
}
