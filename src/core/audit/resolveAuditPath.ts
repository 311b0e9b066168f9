import { isAbsolute, join } from 'node:path';

/** The audit file in force: the CLI's `--audit`, else `mcpHost.audit.path`, else the default; relative to the workspace. */
export function resolveAuditPath(choices: { override?: string; setting?: string; fallback?: string }, workspaceFolder: string | undefined): string | undefined {
  const p = choices.override ?? choices.setting ?? choices.fallback;
  if (!p) return undefined;
  return isAbsolute(p) ? p : join(workspaceFolder ?? process.cwd(), p);
}
