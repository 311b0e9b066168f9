import { describeValue } from './describeValue';
import type { SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { parseScalar } from './parseScalar';
import { settingsProblem } from './settingsProblem';
import { nonEmptyString } from './valueSchemas';

/** `mcpHost.audit.path`, given flat (`"audit.path"`) or nested (`"audit": { "path" }`); the flat one wins. */
export function parseAuditPath(raw: Record<string, unknown>, problems: SettingsProblem[]): string | undefined {
  const flat = parseScalar<string | undefined>(raw, 'audit.path', nonEmptyString, undefined, problems, '(no audit file)');
  let nested: string | undefined;
  const audit = raw.audit;
  if (audit !== undefined) {
    if (!isPlainObject(audit)) {
      problems.push(settingsProblem('error', 'mcpHost.audit', `expected an object like { "path": "…" }, got ${describeValue(audit)}; ignored`));
    } else {
      for (const k of Object.keys(audit)) {
        if (k !== 'path' && k !== 'maxBytes') problems.push(settingsProblem('error', `mcpHost.audit.${k}`, 'unknown setting'));
      }
      nested = parseScalar<string | undefined>(audit, 'path', nonEmptyString, undefined, problems, '(no audit file)', ['audit', 'path']);
    }
  }
  if (flat !== undefined && nested !== undefined && flat !== nested) {
    problems.push(
      settingsProblem('warning', 'mcpHost.audit.path', `set twice with different values (as "mcpHost.audit.path" and inside "mcpHost.audit"); using ${JSON.stringify(flat)}`),
    );
  }
  return flat ?? nested;
}
