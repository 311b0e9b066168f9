import { isAbsolute, join } from 'node:path';

/** The audit file in force: the CLI's `--audit`, else `mcpHost.audit.path`, else the default; relative to the workspace. */
export function resolveAuditPath(choices: { override?: string; setting?: string; fallback?: string }, workspaceFolder: string | undefined): string | undefined {
  const p = choices.override ?? choices.setting ?? choices.fallback;
  if (!p) return undefined;
  return isAbsolute(p) ? p : join(workspaceFolder ?? process.cwd(), p);
}

/** The audit file of a host: its override (CLI `--audit`), the setting, or its default. */
export function hostAuditPath(
  o: { auditPathOverride?: string; defaultAuditPath?: string; workspaceFolder?: string },
  settings: { auditPath?: string },
): string | undefined {
  return resolveAuditPath({ override: o.auditPathOverride, setting: settings.auditPath, fallback: o.defaultAuditPath }, o.workspaceFolder);
}
