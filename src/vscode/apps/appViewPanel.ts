import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import { AppBridge, type McpUiDisplayMode, type McpUiHostCapabilities, type McpUiHostContext, type McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallActor } from '../../core/audit/callActor';
import type { AppView } from '../../core/apps/appView';
import type { McpHost } from '../../core/host/mcpHost';
import { CLIENT_INFO } from '../../core/host/mcpHostOptions';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import { Emitter } from '../../core/util/event';
import { appCsp, escapeAttribute, shellCsp, withCsp } from './appCsp';
import { themeContext } from './appHostContext';
import type { AppModelContexts } from './appModelContext';
import { AppPermissions } from './appPermissions';
import { toViewResult } from './viewResult';
import { WebviewTransport, type HostMessage, type ViewMessage } from './webviewTransport';

export const APP_VIEW_TYPE = 'mcpHost.appView';
/** How long a view may take to answer the teardown before its panel closes anyway. */
const TEARDOWN_TIMEOUT_MS = 3000;

/** Which view to open, and what it is told about the call that produced it (if one did). */
export interface AppLaunch {
  readonly server: string;
  /** The `ui://` resource of the view. */
  readonly resourceUri: string;
  /** The tool whose view it is. */
  readonly tool?: Tool;
  readonly input?: Record<string, unknown>;
  readonly result?: CallToolResult;
  /** Why the call produced no result (denied, cancelled, timed out): sent as `tool-cancelled`. */
  readonly cancelled?: string;
}

export interface AppViewDeps {
  readonly host: () => McpHost;
  readonly logger: Logger;
  readonly extensionUri: vscode.Uri;
  /** Where the permissions granted to a server's views are kept (appPermissions.ts). */
  readonly workspaceState: vscode.Memento;
  readonly contexts: AppModelContexts;
}

/**
 * One MCP App view in an editor panel. The AppBridge of @modelcontextprotocol/ext-apps runs here,
 * in the extension host, over a WebviewTransport; the webview only relays between the bridge and a
 * sandboxed iframe holding the app's HTML under a content security policy built from the domains
 * its resource declares. Everything the view asks goes through the host: tool calls through
 * `McpHost.call` with the app as actor (role, visibility, pins, argument rules, confirmation and
 * audit all apply), resource reads through the host's reader for its own server only, messages and
 * links only through the person.
 */
export class AppViewPanel implements vscode.Disposable {
  private readonly id = randomUUID();
  private readonly panel: vscode.WebviewPanel;
  private readonly bridge: AppBridge;
  private readonly transport: WebviewTransport;
  private readonly actor: CallActor;
  private context: McpUiHostContext;
  private displayMode: McpUiDisplayMode = 'inline';
  private closing = false;
  private readonly closed = new Emitter<void>();
  readonly onDidClose = this.closed.event;

  /** Reads the view (through the host's resource policy and audit), asks for its permissions, opens the panel. */
  static async open(deps: AppViewDeps, launch: AppLaunch): Promise<AppViewPanel> {
    // Through the role's resource policy and the audit; its malformed _meta.ui parts are logged there.
    const view = await deps.host().readAppView(launch.server, launch.resourceUri, launch.tool ? { tool: launch.tool.name } : {});
    const { allow, granted } = await new AppPermissions(deps.workspaceState).allow(launch.server, view.meta.permissions);
    return new AppViewPanel(deps, launch, view, allow, granted);
  }

  private constructor(
    private readonly deps: AppViewDeps,
    readonly launch: AppLaunch,
    view: AppView,
    allow: string,
    granted: McpUiResourcePermissions,
  ) {
    const { server, resourceUri } = launch;
    this.actor = { kind: 'app', server, view: resourceUri, ...(launch.tool ? { tool: launch.tool.name } : {}) };
    const csp = appCsp(view.meta.csp);
    if (csp.refused.length) deps.logger.warn(`app view ${resourceUri} of server "${server}": declared entries that are not origins were left out of its content security policy: ${csp.refused.join(', ')}`);

    const root = vscode.Uri.joinPath(deps.extensionUri, 'media', 'apps');
    const title = launch.tool?.title ?? launch.tool?.annotations?.title ?? launch.tool?.name ?? resourceUri;
    this.panel = vscode.window.createWebviewPanel(APP_VIEW_TYPE, `${title} (${server})`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [root],
    });
    this.panel.iconPath = new vscode.ThemeIcon('window');
    const webview = this.panel.webview;
    const uri = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(root, f)).toString();
    webview.html = shellHtml(shellCsp(csp.policy, webview.cspSource), uri('appView.css'), uri('appView.js'), `${title} (${server})`);

    this.context = {
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      platform: 'desktop',
      locale: vscode.env.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: `${CLIENT_INFO.name}/${CLIENT_INFO.version} (VS Code ${vscode.version})`,
      deviceCapabilities: { hover: true, touch: false },
      ...(launch.tool ? { toolInfo: { tool: launch.tool } } : {}),
    };
    const capabilities: McpUiHostCapabilities = {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {}, image: {}, resource: {}, structuredContent: {} },
      sandbox: { permissions: granted, csp: csp.allowed },
    };
    this.bridge = new AppBridge(null, { name: CLIENT_INFO.name, version: CLIENT_INFO.version }, capabilities, { hostContext: this.context });
    this.transport = new WebviewTransport(
      { postMessage: (m: HostMessage) => webview.postMessage(m), onDidReceiveMessage: (l) => webview.onDidReceiveMessage(l) },
      (m) => this.fromRelay(m, withCsp(view.html, csp.policy), allow, view.meta.prefersBorder === true),
      (problem) => deps.logger.warn(`app view ${resourceUri} of server "${server}": ${problem}`),
    );
    this.handle();
    this.panel.onDidDispose(() => this.disposed());
    void this.bridge.connect(this.transport).catch((e) => deps.logger.error(`app view ${resourceUri} of server "${server}": ${errorText(e)}`));
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Announces the teardown to the view (waiting for its answer a little while), then closes the panel. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS });
    } catch (e) {
      this.deps.logger.debug(`app view ${this.launch.resourceUri}: teardown not answered (${errorText(e)})`);
    }
    this.panel.dispose();
  }

  dispose(): void {
    void this.close();
  }

  private get where(): string {
    return `app view ${this.launch.resourceUri} of server "${this.launch.server}"`;
  }

  private post(m: HostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  /** What the relay says about the webview itself: it is up (send the view), the theme or size changed. */
  private fromRelay(m: Exclude<ViewMessage, { type: 'rpc' }>, html: string, allow: string, prefersBorder: boolean): void {
    if (m.type === 'ready') {
      this.update({ ...themeContext(m.theme), containerDimensions: { width: m.width, maxHeight: m.height } });
      this.post({ type: 'load', html, allow, prefersBorder });
    } else if (m.type === 'theme') {
      this.update(themeContext(m.theme));
    } else {
      this.update({ containerDimensions: { width: m.width, maxHeight: m.height } });
    }
  }

  private update(change: Partial<McpUiHostContext>): void {
    this.context = { ...this.context, ...change };
    this.bridge.setHostContext(this.context);
  }

  private handle(): void {
    const { bridge, deps } = this;
    const { server } = this.launch;
    bridge.oninitialized = () => void this.sendCall().catch((e) => deps.logger.warn(`${this.where}: the call's input and result were not delivered: ${errorText(e)}`));
    bridge.oncalltool = async (params, extra) => {
      const host = deps.host();
      // The view names its own server's tool; the router checks role, visibility ("app"), pins, rules and
      // confirmation, and audits. A name its server does not list goes as is: refused and audited there.
      const name = host.appToolName(server, params.name) ?? params.name;
      const r = await host.call({ name, args: params.arguments ?? {}, signal: extra.mcpReq.signal, actor: this.actor });
      return toViewResult(r);
    };
    bridge.onreadresource = async (params, extra) => {
      const read = await deps.host().catalog.readResource({ server, uri: params.uri, purpose: 'app', signal: extra.mcpReq.signal, actor: this.actor });
      if (read.outcome !== 'ok') throw new Error(read.text);
      return { contents: read.contents } as ReadResourceResult;
    };
    bridge.onmessage = async (params) => {
      const text = params.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n').trim();
      if (!text) return { isError: true };
      // Into the chat input for the person to read and send (or not): never sent by the host.
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp ${text}`, isPartialQuery: true });
      deps.logger.info(`${this.where} put a message into the chat input (${text.length} characters)`);
      return {};
    };
    bridge.onopenlink = async ({ url }) => ((await this.openLink(url)) ? {} : { isError: true });
    bridge.onupdatemodelcontext = async (params) => {
      deps.contexts.set(this.id, server, this.launch.resourceUri, params);
      deps.logger.debug(`${this.where} updated its context for the model`);
      return {};
    };
    bridge.onrequestdisplaymode = async ({ mode }) => ({ mode: await this.setDisplayMode(mode) });
    bridge.onsizechange = ({ height, width }) => this.post({ type: 'size', ...(height === undefined ? {} : { height }), ...(width === undefined ? {} : { width }) });
    bridge.onrequestteardown = () => void this.close();
    bridge.onloggingmessage = ({ level, data }) => deps.logger.debug(`${this.where} [${level}]: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
    this.transport.onerror = (e) => deps.logger.warn(`${this.where}: ${errorText(e)}`);
  }

  /** Tool input, then its result (or why there is none), once the view is initialized. */
  private async sendCall(): Promise<void> {
    const { input, result, cancelled } = this.launch;
    if (input) await this.bridge.sendToolInput({ arguments: input });
    if (result) await this.bridge.sendToolResult(result);
    else if (cancelled) await this.bridge.sendToolCancelled({ reason: cancelled });
  }

  /** http(s) only, and only after the person saw the address and agreed. */
  private async openLink(url: string): Promise<boolean> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      this.deps.logger.warn(`${this.where} asked to open "${url}", which is not a URL: refused`);
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      this.deps.logger.warn(`${this.where} asked to open a ${parsed.protocol} link: refused (only http and https)`);
      return false;
    }
    let answer: string | undefined;
    try {
      answer = await vscode.window.showWarningMessage(`The app view of MCP server "${this.launch.server}" wants to open a link.`, { modal: true, detail: parsed.href }, 'Open Link');
    } catch {
      answer = undefined; // failing to ask is never consent
    }
    if (answer !== 'Open Link') return false;
    return vscode.env.openExternal(vscode.Uri.parse(parsed.href, true));
  }

  /** inline is the panel as it is; fullscreen maximizes the panel's editor group; pip is not offered. */
  private async setDisplayMode(mode: McpUiDisplayMode): Promise<McpUiDisplayMode> {
    if (mode === 'pip' || mode === this.displayMode) return this.displayMode;
    this.panel.reveal(undefined, false);
    try {
      await vscode.commands.executeCommand('workbench.action.toggleMaximizeEditorGroup');
      this.displayMode = mode;
      this.update({ displayMode: mode });
    } catch (e) {
      this.deps.logger.warn(`${this.where}: display mode ${mode} not available (${errorText(e)})`);
    }
    return this.displayMode;
  }

  private disposed(): void {
    this.closing = true;
    this.deps.contexts.delete(this.id);
    void this.bridge.close().catch(() => undefined);
    this.closed.fire();
    this.closed.dispose();
  }
}

/** The webview's page: the relay script and its stylesheet, under the app's policy plus the extension's own files. */
function shellHtml(policy: string, css: string, js: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(css)}">
<title>${escapeAttribute(title)}</title>
</head>
<body>
<p id="status">Loading the app view…</p>
<script src="${escapeAttribute(js)}"></script>
</body>
</html>`;
}
