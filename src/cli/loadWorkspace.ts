import * as path from 'node:path';
import type { HostSettings, SettingsProblem } from '../core/settings/hostSettings';
import { parseSettings } from '../core/settings/parseSettings';
import { settingPath } from '../core/settings/settingPath';
import { readWorkspaceSettings, SettingsFileError } from '../core/settings/settingsFile';
import { CliError, ExitCode } from './exitCodes';

export interface Workspace {
  /** Absolute workspace folder (`${workspaceFolder}`). */
  readonly dir: string;
  readonly settingsFile: string;
  readonly settings: HostSettings;
  /** Problems of the settings file and of the `mcpHost.*` values, in that order. */
  readonly problems: readonly SettingsProblem[];
}

/**
 * Read and validate `<dir>/.vscode/settings.json`. An unusable file (missing, unreadable, not
 * JSONC) is exit 2; problems inside valid JSONC are returned. `role` (CLI `--role`) must name a
 * usable role ('' = no role), else exit 2 with the list of roles.
 */
export function loadWorkspace(dirArg: string | undefined, role: string | undefined, cwd: string = process.cwd()): Workspace {
  const dir = path.resolve(cwd, dirArg ?? '.');
  let file: ReturnType<typeof readWorkspaceSettings>;
  try {
    file = readWorkspaceSettings(dir);
  } catch (e) {
    if (e instanceof SettingsFileError) throw new CliError(`cannot use the settings: ${e.message}`, ExitCode.usage);
    throw e;
  }
  const parsed = parseSettings(file.raw);
  const workspace: Workspace = {
    dir,
    settingsFile: file.file,
    settings: parsed.settings,
    problems: [...file.problems, ...parsed.problems],
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
