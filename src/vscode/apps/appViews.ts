import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ToolHost } from '../../core/agent/agentLoop';
import { readToolUi } from '../../core/apps/toolUi';
import type { ToolCallResult } from '../../core/calls/toolRouter';
import type { McpHost } from '../../core/host/mcpHost';
import { isPlainObject } from '../../core/settings/isPlainObject';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import { AppModelContexts } from './appModelContext';
import type { AppLaunch, AppViewDeps, AppViewPanel } from './appViewPanel';
import { loadAppViewPanel } from './loadAppViewPanel';
import { toViewResult } from './viewResult';

export const OPEN_APP_VIEW = 'mcpHost.openAppView';
/** Calls whose view can still be opened from an earlier answer's button (the oldest are forgotten). */
const KEPT_LAUNCHES = 50;

/** What "Open the app view" is given: a call's id from a chat button, a tool row of the tree, or a `#mcp:server/ui://…` reference. */
export type OpenAppViewArgument = string | { readonly server: string; readonly tool: { readonly name: string } } | { readonly server: string; readonly uri: string };

/**
 * The app views of the window: the command that opens one, the calls whose views can be opened
 * from chat buttons, the model context the open views set, and the teardown of every view when
 * the extension stops.
 */
export class AppViews implements vscode.Disposable {
  readonly contexts = new AppModelContexts();
  private readonly panels = new Set<AppViewPanel>();
  private readonly launches = new Map<string, AppLaunch>();
  private readonly deps: AppViewDeps;
  private readonly command: vscode.Disposable;

  constructor(host: () => McpHost, logger: Logger, context: Pick<vscode.ExtensionContext, 'extensionUri' | 'workspaceState'>) {
    this.deps = { host, logger, extensionUri: context.extensionUri, workspaceState: context.workspaceState, contexts: this.contexts };
    this.command = vscode.commands.registerCommand(OPEN_APP_VIEW, async (arg: OpenAppViewArgument) => {
      try {
        await this.open(arg);
      } catch (e) {
        logger.error(`${OPEN_APP_VIEW}: ${errorText(e)}`);
        void vscode.window.showErrorMessage(`MCP Host: ${errorText(e)}`);
      }
    });
  }

  /**
   * The host for one `@mcp` answer's agent loop: the same calls, remembering those whose tool has a
   * view; `offer` then puts an "Open the app view" button under the answer for each. The buttons go
   * at the end: VS Code folds what is streamed between tool calls into the answer's collapsed steps.
   */
  watching(host: McpHost): { readonly tools: ToolHost; offer(stream: Pick<vscode.ChatResponseStream, 'button'>): void } {
    const offered: { id: string; tool: string }[] = [];
    return {
      tools: {
        snapshot: () => host.snapshot(),
        call: async (request) => {
          const r = await host.call(request);
          const id = this.remember(host.snapshot(), request.args, r);
          if (id) offered.push({ id, tool: r.tool ?? r.name });
          return r;
        },
      },
      offer: (stream) => {
        for (const { id, tool } of offered.splice(0)) stream.button({ command: OPEN_APP_VIEW, title: `Open the app view of ${tool}`, arguments: [id] });
      },
    };
  }

  async open(arg: OpenAppViewArgument): Promise<void> {
    const launch = this.launchOf(arg);
    const existing = [...this.panels].find((p) => p.launch === launch);
    if (existing) return existing.reveal();
    const panel = await loadAppViewPanel().AppViewPanel.open(this.deps, launch);
    this.panels.add(panel);
    panel.onDidClose(() => this.panels.delete(panel));
  }

  dispose(): void {
    this.command.dispose();
    for (const p of this.panels) void p.close();
    this.panels.clear();
  }

  /** A finished call of a tool with a view: kept for its button. */
  private remember(snapshot: ReturnType<McpHost['snapshot']>, args: unknown, r: ToolCallResult): string | undefined {
    if (!r.server || !r.tool) return undefined;
    const tool = snapshot.tools(r.server).find((t) => t.tool.name === r.tool)?.tool;
    const ui = tool && readToolUi(tool);
    if (!ui) return undefined;
    const ran = r.content.length > 0 || r.structuredContent !== undefined;
    const launch: AppLaunch = {
      server: r.server,
      resourceUri: ui.resourceUri,
      tool: tool as AppLaunch['tool'],
      ...(isPlainObject(args) ? { input: args } : {}),
      ...(ran ? { result: toViewResult(r) } : { cancelled: r.modelText }),
    };
    const id = randomUUID();
    this.launches.set(id, launch);
    while (this.launches.size > KEPT_LAUNCHES) this.launches.delete(this.launches.keys().next().value as string);
    return id;
  }

  private launchOf(arg: OpenAppViewArgument): AppLaunch {
    if (typeof arg === 'string') {
      const launch = this.launches.get(arg);
      if (!launch) throw new Error('this app view is no longer available (the call is too old, or the window was reloaded): ask again');
      return launch;
    }
    if (!arg || typeof arg !== 'object' || typeof arg.server !== 'string') throw new Error('Open the app view: no tool or view given');
    if ('uri' in arg) {
      if (typeof arg.uri !== 'string' || !arg.uri.startsWith('ui://')) throw new Error(`Open the app view: "${String(arg.uri)}" is not a ui:// resource`);
      return { server: arg.server, resourceUri: arg.uri };
    }
    const tool = this.deps.host().snapshot().tools(arg.server).find((t) => t.tool.name === arg.tool.name)?.tool;
    const ui = tool && readToolUi(tool);
    if (!ui) throw new Error(`tool "${arg.tool.name}" of server "${arg.server}" has no app view`);
    return { server: arg.server, resourceUri: ui.resourceUri, tool: tool as AppLaunch['tool'] };
  }
}
