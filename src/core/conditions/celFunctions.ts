import { Environment } from '@marcbachmann/cel-js';
import { canonicalPath, isWithin, type PathContext } from './isWithin';

/** The variables every rule condition sees. */
export const RULE_VARIABLES = ['args', 'server', 'tool', 'role', 'workspaceFolder'] as const;

/**
 * Parse-time limits: a condition is a short test over one call's arguments, so anything bigger is
 * a mistake (or an attempt to make every call slow).
 */
const LIMITS = { maxAstNodes: 1000, maxDepth: 32, maxListElements: 256, maxMapEntries: 256, maxCallArguments: 8 };

/**
 * The CEL environment of argument rules: the variables `args` (the call's validated arguments, a
 * map; JSON numbers are CEL doubles), `server`, `tool`, `role` ('' without a role) and
 * `workspaceFolder` ('' without one), and the host functions CEL lacks:
 *
 * - `isWithin(path, dir)` / `isWithin(path, [dirs])`: the path is `dir` or below it, judged on
 *   canonical paths (see isWithin.ts). Fails for an ambiguous path (→ a deny rule denies, others ask).
 * - `canonicalPath(path)`: the absolute, normalised path with symbolic links resolved.
 * - `urlHost(url)`: the lower-case host name of a URL (`https://a.example@evil.example/` → `evil.example`).
 *
 * Every call goes through the same environment, so a condition that type-checks here is one the
 * router can run. Undeclared variables and unknown functions are compile errors.
 */
export function ruleEnvironment(workspaceFolder?: string): Environment {
  const ctx: PathContext = { base: workspaceFolder || undefined };
  return new Environment({ limits: LIMITS })
    .registerVariable('args', 'map', { description: "The call's arguments, after validation against the tool's input schema" })
    .registerVariable('server', 'string', { description: 'The MCP server (its key under mcpHost.servers)' })
    .registerVariable('tool', 'string', { description: "The tool's own name on its server" })
    .registerVariable('role', 'string', { description: "The active role ('' for none)" })
    .registerVariable('workspaceFolder', 'string', { description: "The workspace folder ('' for none)" })
    .registerFunction('isWithin(string, string): bool', (p: string, dir: string) => isWithin(p, requireDir(dir), ctx))
    .registerFunction('isWithin(string, list<string>): bool', (p: string, dirs: readonly string[]) => withinAny(p, dirs, ctx))
    .registerFunction('canonicalPath(string): string', (p: string) => canonicalPath(p, ctx))
    .registerFunction('urlHost(string): string', urlHost);
}

function requireDir(dir: string): string {
  if (dir === '') throw new Error('isWithin: the directory is empty (no workspace folder is open?)');
  return dir;
}

function withinAny(p: string, dirs: readonly string[], ctx: PathContext): boolean {
  if (dirs.length === 0) throw new Error('isWithin: the list of directories is empty');
  return dirs.some((d) => isWithin(p, requireDir(d), ctx));
}

export function urlHost(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`urlHost: not an absolute URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  return parsed.hostname.toLowerCase();
}
