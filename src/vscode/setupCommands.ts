import * as vscode from 'vscode';
import type { JSONPath } from 'jsonc-parser';
import { SETTINGS_SECTION } from '../core/settings/settingPath';
import { withSettingSet } from '../core/settings/settingsEdit';
import { DisposableStore } from '../core/util/event';
import { configuredFilesystemServer, FILESYSTEM_PACKAGE, FILESYSTEM_SERVER, freeServerName } from './filesystemServer';
import { errorText, type HostController } from './hostController';
import type { OutputLogger } from './outputLogger';

/** The commands of the first-run walkthrough, the empty view and the imports; package.json declares the same. */
export const SETUP_COMMANDS = {
  copyImportedServers: 'mcpHost.copyImportedServers',
  addFilesystemServer: 'mcpHost.addFilesystemServer',
  addReadOnlyRole: 'mcpHost.addReadOnlyRole',
  tryChat: 'mcpHost.tryChat',
  openWalkthrough: 'mcpHost.openWalkthrough',
  enableGateway: 'mcpHost.enableGateway',
} as const;

/** `contributes.walkthroughs[].id`; the workbench knows it as `<extension id>#<this>`. */
export const WALKTHROUGH_ID = 'mcpHost.gettingStarted';
/** Context key: at least one server is configured or imported (completes the walkthrough's first step). */
export const HAS_SERVERS_CONTEXT = 'mcpHost.hasServers';

const READ_ONLY_TOOLS = ['*/read_*', '*/list_*', '*/search_*', '*/get_*', '*/directory_tree'];
export const READ_ONLY_ROLE_NAME = 'reader';
/** A role whose model sees only reading tools, which run without asking. */
export const READ_ONLY_ROLE = { description: 'Reads and searches files; never writes', tools: READ_ONLY_TOOLS, autoApprove: READ_ONLY_TOOLS };

const WALKTHROUGH_OFFERED_KEY = 'mcpHost.walkthroughOffered';

export interface SetupDeps {
  readonly controller: HostController;
  readonly logger: OutputLogger;
  readonly context: vscode.ExtensionContext;
}

/** Registers the setup commands and keeps the `mcpHost.hasServers` context key current. */
export function registerSetupCommands({ controller, logger, context }: SetupDeps): vscode.Disposable {
  const disposables = new DisposableStore();
  const register = (id: string, run: () => unknown) =>
    disposables.add(
      vscode.commands.registerCommand(id, async () => {
        try {
          await run();
        } catch (e) {
          logger.error(`${id}: ${errorText(e)}`);
          void vscode.window.showErrorMessage(`MCP Host: ${errorText(e)}`);
        }
      }),
    );
  const config = () => vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const workspaceValue = (key: string): Record<string, unknown> => ({ ...(config().inspect<Record<string, unknown>>(key)?.workspaceValue ?? {}) });
  const save = async (key: string, value: unknown) => {
    if (!vscode.workspace.workspaceFolders?.length) throw new Error('open a folder first: MCP Host keeps servers and roles in the workspace settings');
    await config().update(key, value, vscode.ConfigurationTarget.Workspace);
    await controller.reload();
  };

  register(SETUP_COMMANDS.copyImportedServers, async () => {
    const imported = controller.imported.servers;
    if (imported.length === 0) {
      void vscode.window.showInformationMessage('MCP Host: no servers are imported (mcpHost.import: .vscode/mcp.json, .mcp.json).');
      return;
    }
    const servers = workspaceValue('servers');
    const copied = imported.filter((s) => !Object.prototype.hasOwnProperty.call(servers, s.name));
    for (const s of copied) servers[s.name] = s.definition;
    if (copied.length) await save('servers', servers);
    const kept = imported.length - copied.length;
    const names = copied.map((s) => `"${s.name}"`).join(', ');
    const choice = await vscode.window.showInformationMessage(
      `MCP Host: ${copied.length ? `copied ${names} into mcpHost.servers` : 'nothing to copy'}${kept ? `; ${kept} already there` : ''}. ` +
        'Inputs became secrets (${secret:ID}) under the same names. To keep one place, stop importing the files.',
      'Stop Importing',
    );
    if (choice === 'Stop Importing') await save('import', []);
  });

  register(SETUP_COMMANDS.addFilesystemServer, async () => {
    const configured = controller.host.settings.servers;
    const existing = configuredFilesystemServer(configured);
    if (existing !== undefined) {
      void vscode.window.showInformationMessage(`MCP Host: server "${existing}" already runs ${FILESYSTEM_PACKAGE}; nothing was added.`);
    } else {
      if (!vscode.workspace.workspaceFolders?.length) throw new Error('open a folder first: MCP Host keeps servers and roles in the workspace settings');
      const name = freeServerName([...configured.map((s) => s.name), ...Object.keys(workspaceValue('servers'))]);
      await editWorkspaceSettings([`${SETTINGS_SECTION}.servers`, name], FILESYSTEM_SERVER);
      await controller.reload();
      logger.info(`added server "${name}" (${FILESYSTEM_SERVER.args[1]} for the workspace folder) to mcpHost.servers`);
    }
    await vscode.commands.executeCommand('mcpHost.servers.focus');
  });

  register(SETUP_COMMANDS.addReadOnlyRole, async () => {
    const roles = workspaceValue('roles');
    if (!Object.prototype.hasOwnProperty.call(roles, READ_ONLY_ROLE_NAME)) {
      roles[READ_ONLY_ROLE_NAME] = READ_ONLY_ROLE;
      await save('roles', roles);
    }
    await controller.switchRole(READ_ONLY_ROLE_NAME);
  });

  register(SETUP_COMMANDS.tryChat, () => vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp /tools' }));

  register(SETUP_COMMANDS.openWalkthrough, () => openWalkthrough(context));

  // The person's own user settings (the setting's scope is application): a repository cannot turn it on.
  register(SETUP_COMMANDS.enableGateway, async () => {
    await config().update('gateway.enabled', true, vscode.ConfigurationTarget.Global);
    const untrusted = vscode.workspace.isTrusted ? '' : ' It starts once you trust this workspace: until then MCP Host runs no server.';
    void vscode.window.showInformationMessage(`MCP Host: the editor's agent mode now gets MCP Host's tools as the MCP server "MCP Host" (mcpHost.gateway.enabled).${untrusted}`);
  });

  const updateContext = () => void vscode.commands.executeCommand('setContext', HAS_SERVERS_CONTEXT, controller.host.settings.servers.length > 0);
  disposables.add(controller.onDidChange(updateContext));
  updateContext();
  return { dispose: () => disposables.dispose() };
}

/**
 * Set one value in the workspace's settings file (the folder's `.vscode/settings.json`, or the
 * `settings` of a `.code-workspace` file) by editing only that value: comments, order and
 * formatting of the rest stay as they were (`WorkspaceConfiguration.update` rewrites the whole
 * top-level value, comments inside it included). Resolves once the editor has read the change.
 */
async function editWorkspaceSettings(path: JSONPath, value: unknown): Promise<void> {
  const file = vscode.workspace.workspaceFile;
  const folder = vscode.workspace.workspaceFolders![0].uri;
  const [uri, where] =
    file?.scheme === 'file' ? [file, ['settings', ...path]] : [vscode.Uri.joinPath(folder, '.vscode', 'settings.json'), path];
  const shown = vscode.workspace.asRelativePath(uri);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('{\n}\n'));
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = doc.getText();
  let next: string;
  try {
    next = withSettingSet(text, where, value);
  } catch (e) {
    throw new Error(`cannot edit ${shown}: ${errorText(e)}`, { cause: e });
  }
  const read = new Promise<void>((resolve) => {
    const done = () => (listener.dispose(), clearTimeout(timer), resolve());
    const listener = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SETTINGS_SECTION) && done());
    const timer = setTimeout(done, 10_000); // a bound: the reload after it reads whatever the editor has by then
  });
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), next);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) throw new Error(`could not save ${shown}`);
  await read;
}

function openWalkthrough(context: vscode.ExtensionContext): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
}

/**
 * The first time MCP Host runs in a window with nothing to show (no server configured or imported),
 * open its walkthrough, unless the person turned off walkthroughs on install
 * (`workbench.welcomePage.walkthroughs.openOnInstall`). Once opened, never again.
 */
export async function openWalkthroughOnFirstRun(context: vscode.ExtensionContext, controller: HostController): Promise<boolean> {
  if (context.globalState.get<boolean>(WALKTHROUGH_OFFERED_KEY)) return false;
  if (!vscode.workspace.getConfiguration('workbench').get<boolean>('welcomePage.walkthroughs.openOnInstall', true)) return false;
  if (controller.host.settings.servers.length > 0) return false;
  await context.globalState.update(WALKTHROUGH_OFFERED_KEY, true);
  await openWalkthrough(context);
  return true;
}
