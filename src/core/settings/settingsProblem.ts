import type { SettingsProblem } from './hostSettings';
import { settingPath, type PathSegment } from './settingPath';

/** A problem at a setting given as path segments below `mcpHost` or as a full path string. */
export function settingsProblem(
  severity: SettingsProblem['severity'],
  segments: readonly PathSegment[] | string,
  message: string,
  server?: string,
): SettingsProblem {
  const setting = typeof segments === 'string' ? segments : settingPath(segments);
  return server === undefined ? { severity, setting, message } : { severity, setting, message, server };
}

/** How a problem shows to a person: `mcpHost.servers.orders.args[1]: expected a string, got number 5`. */
export function formatProblem(p: SettingsProblem): string {
  const where = p.location ? `${p.location.file}:${p.location.line}:${p.location.column}: ` : '';
  return where + (p.setting ? `${p.setting}: ${p.message}` : p.message);
}
