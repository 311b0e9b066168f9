import * as os from 'node:os';
import * as path from 'node:path';
import type { HostSettings, SettingsProblem } from '../core/settings/hostSettings';
import { settingPath } from '../core/settings/settingPath';
import { readWorkspaceSettings, SettingsFileError } from '../core/settings/settingsFile';
import type { ImportedInput } from '../core/sources/importedServer';
import { loadHostSettings } from '../core/sources/loadHostSettings';
import { CliError, ExitCode } from './exitCodes';

export interface Workspace {
  /** Absolute workspace folder (`${workspaceFolder}`). */
  readonly dir: string;
  readonly settingsFile: string;
  readonly settings: HostSettings;
  /** Problems of the settings file, of `mcpHost.import` and the files it names, and of the `mcpHost.*` values. */
  readonly problems: readonly SettingsProblem[];
  /** `${input:ID}` of imported VS Code files: answered by `MCP_HOST_SECRET_<ID>`. */
  readonly inputs: readonly ImportedInput[];
}

/**
 * Read and validate `<dir>/.vscode/settings.json` and the MCP configuration files of
 * `mcpHost.import` (`.vscode/mcp.json`, `.mcp.json`; read once). An unusable settings file
 * (unreadable, not JSONC) is exit 2, and so is a missing one unless an imported file stands in for it;
 * problems inside valid files are returned. `role` (CLI `--role`) must name a usable role
 * ('' = no role), else exit 2 with the list of roles.
 */
export function loadWorkspace(dirArg: string | undefined, role: string | undefined, cwd: string = process.cwd()): Workspace {
  const dir = path.resolve(cwd, dirArg ?? '.');
  let file: ReturnType<typeof readWorkspaceSettings>;
  let missing: SettingsFileError | undefined;
  try {
    file = readWorkspaceSettings(dir);
  } catch (e) {
    if (!(e instanceof SettingsFileError)) throw e;
    if (!e.missing) throw new CliError(`cannot use the settings: ${e.message}`, ExitCode.usage);
    missing = e;
    file = { raw: {}, problems: [], file: e.file };
  }
  const loaded = loadHostSettings(file.raw, { workspaceFolder: dir, env: process.env, homeDir: os.homedir() });
  if (missing && loaded.imported.found.length === 0) {
    const imports = loaded.imported.files.map((f) => path.relative(dir, f) || f).join(', ');
    throw new CliError(`cannot use the settings: ${missing.message} (nor any file of mcpHost.import: ${imports})`, ExitCode.usage);
  }
  const workspace: Workspace = {
    dir,
    settingsFile: file.file,
    settings: loaded.settings,
    problems: [...file.problems, ...loaded.problems],
    inputs: loaded.imported.inputs,
  };
  if (role) checkRole(workspace, role, file.raw);
  return workspace;
}

/** Names of the roles that loaded (an invalid role is reported as a problem and is not among them). */
export function usableRoleNames(workspace: Pick<Workspace, 'settings'>): string[] {
  return workspace.settings.roles.map((r) => r.name);
}

function checkRole(workspace: Workspace, role: string, raw: Record<string, unknown>): void {
  const usable = usableRoleNames(workspace);
  if (usable.includes(role)) return;
  const configured = raw.roles && typeof raw.roles === 'object' && !Array.isArray(raw.roles) ? Object.keys(raw.roles) : [];
  const list = usable.length ? `roles: ${usable.join(', ')}` : `no usable roles are defined in ${workspace.settingsFile}`;
  if (configured.includes(role)) {
    const prefix = settingPath(['roles', role]);
    const why = workspace.problems
      .filter((p) => p.severity === 'error' && p.setting?.startsWith(prefix))
      .map((p) => `\n  ${p.setting}: ${p.message}`)
      .join('');
    throw new CliError(`role "${role}" is not valid (${list})${why}`, ExitCode.usage);
  }
  throw new CliError(`unknown role "${role}" (${list})`, ExitCode.usage);
}
