import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { DisposableStore } from '../core/util/event';
import { errorText, type HostController } from './hostController';
import type { OutputLogger } from './outputLogger';
import { OPEN_APP_VIEW } from './apps/appViews';
import { argumentTemplate, validateArgumentsJson } from './argumentTemplate';
import { callResultDocument } from './callResultDocument';
import { CATALOG_COMMANDS } from './catalogTreeItems';
import { ReadOnlyDocuments } from './readOnlyDocuments';
import { pickRole } from './rolePicker';
import { SERVERS_VIEW_ID, type ServerTreeProvider } from './serverTreeProvider';
import type { ToolDefinitionProvider } from './toolDefinitionProvider';
import type { ServerNode, ToolNode, TreeNode } from './treeNodes';

/** Every command id; package.json declares the same (title, category "MCP Host", menus). */
export const COMMANDS = {
  selectRole: 'mcpHost.selectRole',
  useTeamDefaultRole: 'mcpHost.useTeamDefaultRole',
  refreshAll: 'mcpHost.refreshAll',
  openAuditLog: 'mcpHost.openAuditLog',
  showOutput: 'mcpHost.showOutput',
  openSettings: 'mcpHost.openSettings',
  setSecret: 'mcpHost.setSecret',
  deleteSecret: 'mcpHost.deleteSecret',
  restartServer: 'mcpHost.restartServer',
  stopServer: 'mcpHost.stopServer',
  startServer: 'mcpHost.startServer',
  refreshTools: 'mcpHost.refreshTools',
  callTool: 'mcpHost.callTool',
  showToolDefinition: 'mcpHost.showToolDefinition',
  copyToolName: 'mcpHost.copyToolName',
  /** Registered by signInCommands.ts. */
  signIn: 'mcpHost.signIn',
  signOut: 'mcpHost.signOut',
  ...CATALOG_COMMANDS,
  reviewToolChanges: 'mcpHost.reviewToolChanges',
  approveToolChanges: 'mcpHost.approveToolChanges',
  rejectToolChanges: 'mcpHost.rejectToolChanges',
  showAuditLog: 'mcpHost.showAuditLog',
  /** Registered by apps/appViews.ts. */
  openAppView: OPEN_APP_VIEW,
} as const;

/** How a command reports its errors (a notification and a log line); the lockfile's commands use it too. */
export type RegisterCommand = (id: string, run: (...args: any[]) => unknown) => vscode.Disposable;

export interface CommandDeps {
  readonly controller: HostController;
  readonly logger: OutputLogger;
  readonly tree: ServerTreeProvider;
  readonly definitions: ToolDefinitionProvider;
  readonly extensionId: string;
  /** More commands registered the same way (the lockfile's review, the audit view). */
  readonly more?: (register: RegisterCommand) => void;
}

/** Registers every command; errors become a notification and a log line. */
export function registerCommands(deps: CommandDeps): vscode.Disposable {
  const { controller, logger, tree, definitions } = deps;
  const host = () => controller.host;
  const results = new ReadOnlyDocuments();
  const disposables = new DisposableStore();
  disposables.add(results);

  const register = (id: string, run: (...args: any[]) => unknown) =>
    disposables.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await run(...args);
        } catch (e) {
          logger.error(`${id}: ${errorText(e)}`);
          void vscode.window.showErrorMessage(`MCP Host: ${errorText(e)}`);
        }
      }),
    );

  const inView = <T>(title: string, work: () => Promise<T>) =>
    vscode.window.withProgress({ location: { viewId: SERVERS_VIEW_ID }, title }, work);

  register(COMMANDS.selectRole, async () => {
    const picked = await pickRole(host().settings.roles, host().snapshot().role, controller.roleSource);
    if (picked?.teamDefault) await inView('Switching role…', () => controller.useTeamDefaultRole());
    else if (picked) await inView('Switching role…', () => controller.switchRole(picked.role));
  });

  register(COMMANDS.useTeamDefaultRole, () => inView('Switching role…', () => controller.useTeamDefaultRole()));

  register(COMMANDS.refreshAll, async () => {
    await controller.reload();
    await inView('Refreshing tools…', () => host().servers.refreshTools());
    tree.refresh();
  });

  register(COMMANDS.openAuditLog, async () => {
    const path = host().auditPath;
    if (!path) {
      void vscode.window.showInformationMessage('MCP Host: no audit file is configured (mcpHost.audit.path).');
      return;
    }
    if (!existsSync(path)) {
      void vscode.window.showInformationMessage(`MCP Host: nothing recorded yet. Calls will be recorded in ${path}.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
  });

  register(COMMANDS.showOutput, () => logger.show());

  register(COMMANDS.openSettings, () => vscode.commands.executeCommand(...settingsCommand(deps.extensionId, vscode.workspace.workspaceFolders !== undefined)));

  register(COMMANDS.setSecret, async () => {
    const name = await pickSecretName(controller, 'Set Secret', true);
    if (name && (await controller.secrets.ask(name))) {
      void vscode.window.showInformationMessage(`MCP Host: secret "${name}" saved.`);
    }
  });

  register(COMMANDS.deleteSecret, async () => {
    const name = await pickSecretName(controller, 'Delete Secret', false);
    if (!name) return;
    await controller.secrets.delete(name);
    void vscode.window.showInformationMessage(`MCP Host: secret "${name}" deleted.`);
  });

  register(COMMANDS.restartServer, (node: ServerNode) => inView(`Restarting ${node.name}…`, () => host().servers.restartServer(serverOf(node))));
  register(COMMANDS.stopServer, (node: ServerNode) => inView(`Stopping ${node.name}…`, () => host().servers.stopServer(serverOf(node))));
  register(COMMANDS.startServer, async (node: ServerNode) => {
    if (!host().snapshot().trusted) {
      void vscode.window.showWarningMessage('MCP Host: the workspace is not trusted, so no MCP server is started.');
      return;
    }
    await inView(`Starting ${node.name}…`, () => host().servers.startServer(serverOf(node)));
  });
  register(COMMANDS.refreshTools, (node: ServerNode) => inView(`Refreshing ${node.name}…`, () => host().servers.refreshTools(serverOf(node))));

  register(COMMANDS.showToolDefinition, (node: ToolNode) => definitions.show(toolOf(node).server, toolOf(node).tool.name));

  register(COMMANDS.copyToolName, async (node: ToolNode) => {
    const t = toolOf(node);
    const name = t.exposedName ?? t.tool.name;
    await vscode.env.clipboard.writeText(name);
    vscode.window.setStatusBarMessage(`Copied "${name}"`, 3000);
  });

  register(COMMANDS.callTool, async (node: ToolNode) => {
    const t = toolOf(node);
    const view = host().snapshot().tool(t.server, t.tool.name);
    const name = view?.exposedName;
    if (!view || name === undefined || !view.visible) {
      throw new Error(`the tool "${t.tool.name}" of server "${t.server}" is not available to the active role`);
    }
    const input = await vscode.window.showInputBox({
      title: `Call ${name}`,
      prompt: `Arguments for "${view.tool.name}" of server "${view.server}" as a JSON object. The call goes through confirmation and the audit like a model's.`,
      value: argumentTemplate(view.tool.inputSchema),
      ignoreFocusOut: true,
      validateInput: validateArgumentsJson,
    });
    if (input === undefined) return;
    const args: unknown = input.trim() ? JSON.parse(input) : {};
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Calling ${name}…`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        return host()
          .call({ name, args, signal: abort.signal })
          .finally(() => sub.dispose());
      },
    );
    await results.open(`${name}.json`, callResultDocument(result));
  });

  deps.more?.(register);
  return disposables;
}

function serverOf(node: TreeNode | undefined): string {
  if (node?.kind !== 'server') throw new Error('run this command from a server in the MCP Host view');
  return node.name;
}

function toolOf(node: TreeNode | undefined): ToolNode {
  if (node?.kind !== 'tool') throw new Error('run this command from a tool in the MCP Host view');
  return node;
}

async function pickSecretName(controller: HostController, title: string, allowNew: boolean): Promise<string | undefined> {
  const referenced = controller.referencedSecrets();
  const stored = controller.secrets.storedNames();
  const names = [...new Set([...referenced, ...stored])].sort();
  const NEW = '$(add) Another name…';
  const items: vscode.QuickPickItem[] = names.map((n) => ({
    label: n,
    description: [
      stored.includes(n) ? 'stored' : 'not stored',
      referenced.includes(n) ? `used by ${controller.serversUsingSecret(n).join(', ')}` : 'not used in mcpHost.servers',
    ].join(' · '),
  }));
  if (allowNew) items.push({ label: NEW });
  if (items.length === 0) {
    void vscode.window.showInformationMessage('MCP Host: no secrets are stored or used as ${secret:NAME} in mcpHost.servers.');
    return undefined;
  }
  const picked = items.length === 1 && allowNew ? { label: NEW } : await vscode.window.showQuickPick(items, { title: `MCP Host: ${title}`, placeHolder: 'Secret name (as in ${secret:NAME})' });
  if (!picked) return undefined;
  if (picked.label !== NEW) return picked.label;
  return vscode.window.showInputBox({
    title: `MCP Host: ${title}`,
    prompt: 'Name of the secret, as used in ${secret:NAME}',
    ignoreFocusOut: true,
    validateInput: (v) => (/^[^{}$\s]+$/.test(v.trim()) ? undefined : 'A name without spaces, "{", "}" or "$".'),
  }).then((v) => v?.trim() || undefined);
}

/**
 * Open Settings: MCP Host's settings in the Workspace scope, where its values live (servers, roles,
 * rules are the workspace's), when a folder or workspace is open; the User scope otherwise.
 */
export function settingsCommand(extensionId: string, workspaceOpen: boolean): [command: string, query: string] {
  return [workspaceOpen ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings', `@ext:${extensionId}`];
}
