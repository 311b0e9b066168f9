import { describeValue, knownList } from './describeValue';
import { DEFAULTS, type HostSettings, type SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { parseAuditMaxBytes } from './parseAuditMaxBytes';
import { parseAuditPath } from './parseAuditPath';
import { parsePatternList } from './parsePatternList';
import { parseRoles } from './parseRoles';
import { parseRules } from './parseRules';
import { parseScalar } from './parseScalar';
import { parseServerRequests } from './parseServerRequests';
import { parseServers } from './parseServers';
import { parseTelemetry } from './parseTelemetry';
import { SETTINGS_SECTION } from './settingPath';
import { settingsProblem } from './settingsProblem';
import { KNOWN_SETTING_KEYS, SettingsSchema } from './settingsSchema';
import { warnUnreachablePatterns } from './warnUnreachablePatterns';

/**
 * Validates the `mcpHost.*` settings into {@link HostSettings}. Every problem names the exact
 * setting path. One bad server or role never stops the others: the bad entry is dropped and the
 * rest load; a bad global value falls back to its default.
 *
 * An `activeRole` that names an unknown or invalid role does not fall back to "no role" (which
 * would hand the model every tool): the result keeps the name, and McpHost treats a role it
 * cannot find as one with no servers and no tools, so the mistake fails closed.
 *
 * @param raw the raw `mcpHost.*` values (keys without the `mcpHost.` prefix).
 */
export function parseSettings(raw: Record<string, unknown>): { settings: HostSettings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const input: Record<string, unknown> = isPlainObject(raw) ? raw : {};
  const known = new Set<string>([...KNOWN_SETTING_KEYS, 'audit', 'telemetry']);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) problems.push(settingsProblem('error', `${SETTINGS_SECTION}.${key}`, 'unknown setting'));
  }

  const configuredServers = new Set<string>();
  const servers = parseServers(input.servers, problems, configuredServers);

  const schema = SettingsSchema.shape;
  const toolNames = parseScalar(input, 'toolNames', schema.toolNames, DEFAULTS.toolNames, problems);
  const timeoutMs = parseScalar(input, 'timeoutMs', schema.timeoutMs, DEFAULTS.timeoutMs, problems);
  const maxToolRounds = parseScalar(input, 'maxToolRounds', schema.maxToolRounds, DEFAULTS.maxToolRounds, problems);
  const maxResultChars = parseScalar(input, 'maxResultChars', schema.maxResultChars, DEFAULTS.maxResultChars, problems);
  const maxMessageBytes = parseScalar(input, 'maxMessageBytes', schema.maxMessageBytes, DEFAULTS.maxMessageBytes, problems);
  const autoApprove = parsePatternList(input, 'autoApprove', problems);
  const confirm = parsePatternList(input, 'confirm', problems);
  const auditPath = parseAuditPath(input, problems);
  const rules = parseRules(input.rules, ['rules'], problems);
  const maxTools = parseScalar(input, 'maxTools', schema.maxTools, DEFAULTS.maxTools, problems);
  const maxToolTokens = parseScalar(input, 'maxToolTokens', schema.maxToolTokens, 0, problems, '0 (no limit)');
  const telemetry = parseTelemetry(input, problems);
  const auditMaxBytes = parseAuditMaxBytes(input, problems);
  const pinning = parseScalar(input, 'pinning', schema.pinning, DEFAULTS.pinning, problems);

  const configuredRoles = new Set<string>();
  const roles = parseRoles(input.roles, problems, configuredServers, configuredRoles);

  const { elicitation, sampling } = parseServerRequests(input, problems, configuredServers, configuredRoles);

  let activeRole: string | undefined;
  const rawActive = input.activeRole;
  if (rawActive !== undefined && rawActive !== null && typeof rawActive !== 'string') {
    problems.push(settingsProblem('error', ['activeRole'], `expected a role name (a string), got ${describeValue(rawActive)}; no role is active`));
  } else if (typeof rawActive === 'string' && rawActive !== '') {
    activeRole = rawActive;
    if (!roles.some((r) => r.name === rawActive)) {
      const why = configuredRoles.has(rawActive)
        ? `role "${rawActive}" is invalid (see the problems under mcpHost.roles)`
        : `unknown role "${rawActive}" (${knownList('roles', configuredRoles)})`;
      // activeRole keeps the name: McpHost fails closed on a role it cannot find (no servers, no tools).
      problems.push(settingsProblem('error', ['activeRole'], `${why}; no tools are offered until this is fixed`));
    }
  }

  const settings: HostSettings = {
    servers,
    roles,
    ...(activeRole !== undefined ? { activeRole } : {}),
    autoApprove,
    confirm,
    toolNames,
    timeoutMs,
    maxToolRounds,
    maxResultChars,
    maxMessageBytes,
    ...(auditPath !== undefined ? { auditPath } : {}),
    ...(rules.length ? { rules } : {}),
    ...(maxTools !== DEFAULTS.maxTools || maxToolTokens ? { toolBudget: { maxTools, ...(maxToolTokens ? { maxToolTokens } : {}) } } : {}),
    ...(input.elicitation !== undefined ? { elicitation } : {}),
    ...(input.sampling !== undefined ? { sampling } : {}),
    ...(telemetry !== undefined ? { telemetry } : {}),
    auditMaxBytes,
    pinning,
  };
  warnUnreachablePatterns(settings, configuredServers, problems);
  return { settings, problems };
}
