import type { ServerSettings } from '../core/settings/hostSettings';

/** The reference filesystem server's package, pinned to the version this release was tested with (package.json devDependencies). */
export const FILESYSTEM_PACKAGE = '@modelcontextprotocol/server-filesystem';
export const FILESYSTEM_PACKAGE_VERSION = '2026.8.31';

export const FILESYSTEM_SERVER_NAME = 'filesystem';
/** The reference filesystem server, allowed to read and write the workspace folder only (its roots are that folder too); `npx` runs the pinned version. */
export const FILESYSTEM_SERVER = { command: 'npx', args: ['-y', `${FILESYSTEM_PACKAGE}@${FILESYSTEM_PACKAGE_VERSION}`, '${workspaceFolder}'], roots: ['${workspaceFolder}'] };

/** The package named in an argument (`…@version` or not), its installed folder, or the Docker image `mcp/filesystem`. */
const RUNS_FILESYSTEM_SERVER = /(^|[\s/])@modelcontextprotocol\/server-filesystem($|[@/\s])|(^|[\s/])mcp-server-filesystem(\.js)?$|(^|[\s/])mcp\/filesystem($|[:@\s])/;

/** The name of a configured (or imported) server that already runs the reference filesystem server, whatever it is called. */
export function configuredFilesystemServer(servers: readonly ServerSettings[]): string | undefined {
  return servers.find((s) => s.type === 'stdio' && [s.command, ...s.args].some((a) => RUNS_FILESYSTEM_SERVER.test(a)))?.name;
}

/** `filesystem`, or `filesystem-2`, `-3`… when that name is taken by another server. */
export function freeServerName(taken: readonly string[], base = FILESYSTEM_SERVER_NAME): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}
