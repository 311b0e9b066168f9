import { DEFAULTS, type SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { parseScalar } from './parseScalar';
import { positiveInt } from './valueSchemas';

/** `mcpHost.audit.maxBytes`, given flat (`"audit.maxBytes"`) or nested (`"audit": { "maxBytes" }`); the flat one wins. */
export function parseAuditMaxBytes(raw: Record<string, unknown>, problems: SettingsProblem[]): number {
  const flat = parseScalar<number | undefined>(raw, 'audit.maxBytes', positiveInt, undefined, problems, String(DEFAULTS.auditMaxBytes));
  if (flat !== undefined) return flat;
  const audit = raw.audit;
  if (!isPlainObject(audit)) return DEFAULTS.auditMaxBytes;
  return parseScalar(audit, 'maxBytes', positiveInt, DEFAULTS.auditMaxBytes, problems, String(DEFAULTS.auditMaxBytes), ['audit', 'maxBytes']);
}
