import picomatch from 'picomatch';
import { knownList } from './describeValue';
import type { SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { issuesToProblems } from './issuesToProblems';
import type { PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';
import { ElicitationSchema, SamplingSchema, whyNotServerGlob } from './serverRequestsSchema';
import { SERVER_REQUEST_DEFAULTS, type SamplingSettings, type ServerRequestSettings } from './serverRequestSettings';

/**
 * `mcpHost.elicitation` and `mcpHost.sampling`. A bad entry is reported at its exact path and
 * ignored, the good ones are kept; a value that is not an object falls back to the default.
 * Names of servers and roles that are not configured are warned about (they never match).
 */
export function parseServerRequests(
  raw: Record<string, unknown>,
  problems: SettingsProblem[],
  configuredServers: ReadonlySet<string>,
  configuredRoles: ReadonlySet<string>,
): { elicitation: ServerRequestSettings; sampling: SamplingSettings } {
  const names = { servers: configuredServers, roles: configuredRoles };
  const elicitation = parseOne(raw, 'elicitation', problems, names);
  const sampling = parseOne(raw, 'sampling', problems, names);
  const value = raw.sampling;
  let model: string | undefined;
  if (isPlainObject(value) && typeof value.model === 'string' && value.model.trim() !== '') model = value.model.trim();
  return { elicitation, sampling: model === undefined ? sampling : { ...sampling, model } };
}

function parseOne(
  raw: Record<string, unknown>,
  key: 'elicitation' | 'sampling',
  problems: SettingsProblem[],
  names: { servers: ReadonlySet<string>; roles: ReadonlySet<string> },
): ServerRequestSettings {
  const fallback = SERVER_REQUEST_DEFAULTS[key];
  const value = raw[key];
  if (value === undefined) return fallback;
  const schema = key === 'elicitation' ? ElicitationSchema : SamplingSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const whole = !isPlainObject(value);
    problems.push(
      ...issuesToProblems(parsed.error, {
        base: [key],
        value,
        allowedKeys: Object.keys(schema.shape),
        consequence: whole ? `using the default ${JSON.stringify({ servers: fallback.servers })}` : 'this entry is ignored',
      }),
    );
    if (whole) return fallback;
  }
  const v = value as Record<string, unknown>;
  const servers = Array.isArray(v.servers) ? goodGlobs(v.servers) : fallback.servers;
  const roles: Record<string, readonly string[]> = {};
  if (isPlainObject(v.roles)) {
    for (const [role, list] of Object.entries(v.roles)) if (Array.isArray(list)) roles[role] = goodGlobs(list);
  }
  warnUnknownNames(key, v, names, problems);
  return { servers, roles };
}

function goodGlobs(list: readonly unknown[]): string[] {
  return [...new Set(list.filter((p): p is string => typeof p === 'string' && whyNotServerGlob(p) === undefined))];
}

/** Warnings at the entries' own paths (indexes of the list as written). */
function warnUnknownNames(
  key: string,
  v: Record<string, unknown>,
  names: { servers: ReadonlySet<string>; roles: ReadonlySet<string> },
  problems: SettingsProblem[],
): void {
  const check = (list: unknown, base: PathSegment[]) => {
    if (!Array.isArray(list)) return;
    list.forEach((p, i) => {
      if (typeof p !== 'string' || whyNotServerGlob(p) !== undefined || picomatch.scan(p).isGlob || names.servers.has(p)) return;
      problems.push(settingsProblem('warning', [...base, i], `"${p}" is not a configured server, so it never matches (${knownList('servers', names.servers)})`));
    });
  };
  check(v.servers, [key, 'servers']);
  if (!isPlainObject(v.roles)) return;
  for (const [role, list] of Object.entries(v.roles)) {
    if (!names.roles.has(role)) {
      problems.push(settingsProblem('warning', [key, 'roles', role], `"${role}" is not a role of mcpHost.roles, so this list is never used (${knownList('roles', names.roles)})`));
    }
    check(list, [key, 'roles', role]);
  }
}
