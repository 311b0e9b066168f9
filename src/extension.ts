import * as vscode from 'vscode';
import { AppViews } from './vscode/apps/appViews';
import { AuditView } from './vscode/auditView';
import { registerCatalogCommands } from './vscode/catalogCommands';
import { registerChatParticipant } from './vscode/chatParticipant';
import { registerNoModelStandIn } from './vscode/noModelProvider';
import { COMMANDS, registerCommands } from './vscode/commands';
import { EditorGateway, GATEWAY_PROVIDER_ID } from './vscode/gateway/editorGateway';
import { HostController } from './vscode/hostController';
import { OutputLogger } from './vscode/outputLogger';
import { ProblemReporter } from './vscode/problemReporter';
import { SERVERS_VIEW_ID, ServerTreeProvider } from './vscode/serverTreeProvider';
import { registerSignInCommands } from './vscode/signInCommands';
import { openWalkthroughOnFirstRun, registerSetupCommands } from './vscode/setupCommands';
import { RoleStatusBar } from './vscode/statusBar';
import { ToolBudgetTally } from './vscode/toolBudgetTally';
import { ToolDefinitionProvider } from './vscode/toolDefinitionProvider';
import { ToolReviews } from './vscode/toolReview';
import { trustCommands } from './vscode/trustCommands';

let controller: HostController | undefined;
let gateway: EditorGateway | undefined;

/**
 * What `activate()` returns outside production (extension tests, development hosts): read access to
 * the live host so in-editor tests can assert on registry, servers and events. Never in a release run.
 */
export interface McpHostTestApi {
  readonly controller: HostController;
  /** The gateway offered to the editor's own MCP support (`mcpHost.gateway.enabled`). */
  readonly gateway: EditorGateway;
}

/** Builds the graph and returns at once: servers start in the background. */
export function activate(context: vscode.ExtensionContext): McpHostTestApi | undefined {
  const logger = new OutputLogger();
  context.subscriptions.push(logger);
  const reporter = new ProblemReporter(logger, (n) => {
    const shown =
      n.severity === 'error'
        ? vscode.window.showErrorMessage(n.message, 'Open Settings', 'Show Output')
        : vscode.window.showWarningMessage(n.message, 'Open Settings', 'Show Output');
    void shown.then((choice) => {
      if (choice === 'Open Settings') void vscode.commands.executeCommand(COMMANDS.openSettings);
      else if (choice === 'Show Output') logger.show();
    });
  });

  const c = new HostController(context, logger, reporter);
  controller = c;
  context.subscriptions.push(c);
  const host = () => c.host;

  const tally = new ToolBudgetTally(host, c.onDidChange, logger);
  const g = new EditorGateway(c, logger);
  gateway = g;
  const treeChanges = (listener: () => void) => {
    const subscriptions = [c.onDidChange(listener), tally.onDidChange(listener), g.onDidChange(listener)];
    return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
  };
  const tree = new ServerTreeProvider(host, treeChanges, () => tally.current(), () => g.status);
  const definitions = new ToolDefinitionProvider(host, c.onDidChange);
  const reviews = new ToolReviews(host);
  const audit = new AuditView(context.extensionUri, host, c.host.onDidRecord);
  const apps = new AppViews(host, logger, context);
  context.subscriptions.push(
    tally,
    g,
    vscode.lm.registerMcpServerDefinitionProvider(GATEWAY_PROVIDER_ID, g),
    tree,
    vscode.window.createTreeView(SERVERS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }),
    definitions,
    reviews,
    // "Allow, Review Tools First": the review opens once the server has listed its tools.
    c.host.definitions.onDidRequestReview((server) => void reviews.open(server).catch((e) => logger.warn(`could not open the review of "${server}": ${(e as Error)?.message ?? String(e)}`))),
    audit,
    new RoleStatusBar(host, c.onDidChange, () => c.roleSource),
    registerCommands({ controller: c, logger, tree, definitions, extensionId: context.extension.id, more: trustCommands(c, reviews, audit) }),
    registerSignInCommands(c, logger, context.extensionMode !== vscode.ExtensionMode.Production),
    registerCatalogCommands(c, logger),
    registerChatParticipant(c, tally, apps),
    apps,
    registerNoModelStandIn((m) => logger.info(m)),
    registerSetupCommands({ controller: c, logger, context }),
  );

  c.start();
  openWalkthroughOnFirstRun(context, c).catch((e) => logger.warn(`could not open the walkthrough: ${(e as Error)?.message ?? String(e)}`));
  return context.extensionMode === vscode.ExtensionMode.Production ? undefined : { controller: c, gateway: g };
}

/** Ends every server process; VS Code waits for the returned promise. */
export function deactivate(): Promise<void> | undefined {
  const c = controller;
  const g = gateway;
  controller = undefined;
  gateway = undefined;
  // The gateway first: its sessions end before the servers behind it do.
  return g || c ? (g?.close() ?? Promise.resolve()).then(() => c?.close()) : undefined;
}
