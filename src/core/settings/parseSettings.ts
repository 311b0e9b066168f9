import picomatch from 'picomatch';
import { z } from 'zod';
import { serverPrefix } from '../tools/toolNaming';
import {
  DEFAULTS,
  type HostSettings,
  type RoleSettings,
  type ServerSettings,
  type SettingsProblem,
  type ToolNamingMode,
} from './hostSettings';

/**
 * Validates the `mcpHost.*` settings into {@link HostSettings}. Every problem names the exact
 * setting path. One bad server or role never stops the others: the bad entry is dropped and the
 * rest load; a bad global value falls back to its default.
 */

/** The keys under `mcpHost.` (flat form; `audit: { path }` is accepted as well). */
export const KNOWN_SETTING_KEYS = [
  'servers',
  'roles',
  'activeRole',
  'autoApprove',
  'confirm',
  'toolNames',
  'timeoutMs',
  'maxToolRounds',
  'maxResultChars',
  'audit.path',
] as const;

export type KnownSettingKey = (typeof KNOWN_SETTING_KEYS)[number];

export const SETTINGS_SECTION = 'mcpHost';

// ---------------------------------------------------------------------------------------------
// Setting paths and value descriptions

export type PathSegment = string | number;

const PLAIN_KEY = /^[\w$-]+$/;

/** `['servers', 'orders', 'args', 1]` → `mcpHost.servers.orders.args[1]`; odd keys are quoted: `mcpHost.servers["a.b"]`. */
export function settingPath(segments: readonly PathSegment[]): string {
  let out = SETTINGS_SECTION;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** How a problem shows to a person: `mcpHost.servers.orders.args[1]: expected a string, got number 5`. */
export function formatProblem(p: SettingsProblem): string {
  return p.setting ? `${p.setting}: ${p.message}` : p.message;
}

/** Values under these keys may hold credentials: never echo them in a message. */
const SENSITIVE_KEYS = new Set(['headers', 'env']);

function isSensitivePath(segments: readonly PathSegment[]): boolean {
  return segments.some((s) => typeof s === 'string' && SENSITIVE_KEYS.has(s));
}

function truncate(s: string, max = 60): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** `number 5`, `string "abc"`, `an array`, … (strings under headers/env are not shown). */
export function describeValue(value: unknown, sensitive = false): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return sensitive ? 'a string' : `string ${JSON.stringify(truncate(value))}`;
    case 'number':
      return `number ${value}`;
    case 'boolean':
      return `boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) {
      return { found: false, value: undefined };
    }
    cur = (cur as Record<PropertyKey, unknown>)[seg as string];
  }
  return { found: true, value: cur };
}

// ---------------------------------------------------------------------------------------------
// Globs

const GLOB_HELP = 'a pattern like "server/tool", "orders/get_*" or "*/search"';

function checkBalance(p: string): string | undefined {
  const stack: string[] = [];
  const closer: Record<string, string> = { '[': ']', '{': '}', '(': ')' };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (i === p.length - 1) return 'it ends with a lone "\\"';
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === '[') {
      // Inside a character class everything but the closing bracket is literal.
      if (c === ']') stack.pop();
      continue;
    }
    if (c === '[' || c === '{' || c === '(') stack.push(c);
    else if (c === ']' || c === '}' || c === ')') {
      if (top === undefined || closer[top] !== c) return `"${c}" has no matching opening bracket`;
      stack.pop();
    }
  }
  if (stack.length) return `"${stack[stack.length - 1]}" is never closed`;
  return undefined;
}

/** Undefined when `p` is a usable `<serverGlob>/<toolGlob>` pattern; otherwise the reason it is not. */
export function isValidGlob(p: string): string | undefined {
  if (typeof p !== 'string') return 'it is not a string';
  if (p.trim() === '') return 'it is empty';
  const slashes = p.split('/').length - 1;
  if (slashes !== 1) {
    return slashes === 0
      ? 'it has no "/" between the server part and the tool part'
      : 'it has more than one "/"; exactly one separates the server part from the tool part';
  }
  const [serverPart, toolPart] = p.split('/');
  if (serverPart === '') return 'the server part before "/" is empty';
  if (toolPart === '') return 'the tool part after "/" is empty';
  for (const part of [serverPart, toolPart]) {
    const unbalanced = checkBalance(part);
    if (unbalanced) return `in "${part}": ${unbalanced}`;
    try {
      picomatch.makeRe(part, { strictBrackets: true });
    } catch (e) {
      return `in "${part}": ${(e as Error).message}`;
    }
  }
  try {
    picomatch.makeRe(p, { strictBrackets: true });
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

/** The server part of a pattern when it is a plain name (no glob syntax), else undefined. */
export function literalServerPart(pattern: string): string | undefined {
  if (pattern.startsWith('!') || pattern.includes('\\')) return undefined;
  const slash = pattern.indexOf('/');
  if (slash <= 0) return undefined;
  const serverPart = pattern.slice(0, slash);
  return picomatch.scan(serverPart).isGlob ? undefined : serverPart;
}

// ---------------------------------------------------------------------------------------------
// Schemas. Every error text is the "expected …" half of a message; "got …" is added from the value.

const E = {
  string: 'expected a string',
  nonEmpty: 'expected a non-empty string',
  posInt: 'expected a positive integer',
  bool: 'expected true or false',
  strings: 'expected an array of strings',
  patterns: `expected an array of patterns (${GLOB_HELP})`,
  stringMap: 'expected an object of string values',
  object: 'expected an object',
} as const;

const nonEmptyString = z.string({ error: E.nonEmpty }).min(1, { error: E.nonEmpty });
const positiveInt = z.number({ error: E.posInt }).int({ error: E.posInt }).positive({ error: E.posInt });
const stringList = z.array(z.string({ error: E.string }), { error: E.strings });
const stringMap = z.record(z.string(), z.string({ error: E.string }), { error: E.stringMap });
const pattern = z.string({ error: `expected ${GLOB_HELP}` }).superRefine((p, ctx) => {
  const reason = isValidGlob(p);
  if (reason) ctx.addIssue({ code: 'custom', message: `expected ${GLOB_HELP}`, params: { reason } });
});
const patternList = z.array(pattern, { error: E.patterns });

const serverCommon = {
  enabled: z.boolean({ error: E.bool }).optional(),
  timeoutMs: positiveInt.optional(),
  connectTimeoutMs: positiveInt.optional(),
};

export const StdioServerSchema = z.strictObject(
  {
    type: z.literal('stdio', { error: 'expected "stdio"' }).optional(),
    command: nonEmptyString,
    args: stringList.optional(),
    env: stringMap.optional(),
    cwd: nonEmptyString.optional(),
    ...serverCommon,
  },
  { error: E.object },
);

export const RemoteServerSchema = z.strictObject(
  {
    type: z.enum(['http', 'sse'], { error: 'expected "http" or "sse"' }),
    url: nonEmptyString,
    headers: stringMap.optional(),
    ...serverCommon,
  },
  { error: E.object },
);

export const RoleSchema = z.strictObject(
  {
    description: z.string({ error: E.string }).optional(),
    servers: z.array(nonEmptyString, { error: 'expected an array of server names' }).optional(),
    tools: patternList.optional(),
    exclude: patternList.optional(),
    autoApprove: patternList.optional(),
    confirm: patternList.optional(),
  },
  { error: E.object },
);

const ToolNamesSchema = z.enum(['prefix', 'reject'], { error: 'expected "prefix" or "reject"' });

// ---------------------------------------------------------------------------------------------
// Turning zod issues into problems

interface IssueContext {
  /** Path of `value` below `mcpHost`. */
  readonly base: readonly PathSegment[];
  readonly value: unknown;
  readonly allowedKeys?: readonly string[];
  readonly server?: string;
  /** Appended to every message, e.g. `server "orders" is not loaded`. */
  readonly consequence?: string;
}

function issuesToProblems(error: z.ZodError, ctx: IssueContext): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const tail = ctx.consequence ? `; ${ctx.consequence}` : '';
  for (const issue of error.issues) {
    const segs = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const full = [...ctx.base, ...segs];
    if (issue.code === 'unrecognized_keys') {
      const allowed = ctx.allowedKeys?.length ? ` (allowed: ${ctx.allowedKeys.join(', ')})` : '';
      for (const key of issue.keys) {
        problems.push(problem('error', [...full, key], `unknown key "${key}"${allowed}${tail}`, ctx.server));
      }
      continue;
    }
    const { found, value } = valueAt(ctx.value, segs);
    const expected = issue.message;
    const reason = issue.code === 'custom' && typeof issue.params?.reason === 'string' ? ` (${issue.params.reason})` : '';
    const message = found
      ? `${expected}, got ${describeValue(value, isSensitivePath(full))}${reason}`
      : `missing: ${expected}`;
    problems.push(problem('error', full, message + tail, ctx.server));
  }
  return problems;
}

function problem(
  severity: SettingsProblem['severity'],
  segments: readonly PathSegment[] | string,
  message: string,
  server?: string,
): SettingsProblem {
  const setting = typeof segments === 'string' ? segments : settingPath(segments);
  return server === undefined ? { severity, setting, message } : { severity, setting, message, server };
}

// ---------------------------------------------------------------------------------------------
// Sections

function parseServers(value: unknown, problems: SettingsProblem[], configured: Set<string>): ServerSettings[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    problems.push(
      problem('error', ['servers'], `expected an object of server definitions keyed by name, got ${describeValue(value)}; no servers are loaded`),
    );
    return [];
  }
  const servers: ServerSettings[] = [];
  const byPrefix = new Map<string, string>();
  for (const [name, def] of Object.entries(value)) {
    configured.add(name);
    const base: PathSegment[] = ['servers', name];
    const dropped = `server "${name}" is not loaded`;
    if (name.trim() === '') {
      problems.push(problem('error', base, `a server name must not be empty; this server is not loaded`, name));
      continue;
    }
    if (name.includes('/')) {
      problems.push(
        problem('error', base, `a server name must not contain "/" (patterns are "server/tool"); ${dropped}`, name),
      );
      continue;
    }
    if (!isPlainObject(def)) {
      problems.push(problem('error', base, `expected an object (a server definition), got ${describeValue(def)}; ${dropped}`, name));
      continue;
    }
    const type = def.type;
    if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
      problems.push(
        problem('error', [...base, 'type'], `expected "stdio", "http" or "sse", got ${describeValue(type)}; ${dropped}`, name),
      );
      continue;
    }
    if (type === undefined && 'url' in def && !('command' in def)) {
      problems.push(
        problem('error', [...base, 'type'], `missing: a server with "url" needs "type": "http" or "sse"; ${dropped}`, name),
      );
      continue;
    }
    const remote = type === 'http' || type === 'sse';
    const schema = remote ? RemoteServerSchema : StdioServerSchema;
    const parsed = schema.safeParse(def);
    if (!parsed.success) {
      problems.push(
        ...issuesToProblems(parsed.error, {
          base,
          value: def,
          allowedKeys: Object.keys(schema.shape),
          server: name,
          consequence: dropped,
        }),
      );
      continue;
    }
    const server = buildServer(name, parsed.data as z.infer<typeof StdioServerSchema> | z.infer<typeof RemoteServerSchema>);
    if (server.type !== 'stdio' && !server.url.includes('${')) {
      const reason = checkHttpUrl(server.url);
      if (reason) {
        problems.push(problem('error', [...base, 'url'], `${reason}, got ${describeValue(server.url)}; ${dropped}`, name));
        continue;
      }
    }
    const prefix = serverPrefix(name);
    const earlier = byPrefix.get(prefix);
    if (earlier !== undefined) {
      problems.push(
        problem(
          'error',
          base,
          `servers "${earlier}" and "${name}" both get the tool prefix "${prefix}"; the later one, "${name}", is not loaded (rename one of them)`,
          name,
        ),
      );
      continue;
    }
    byPrefix.set(prefix, name);
    servers.push(server);
  }
  return servers;
}

/** Undefined when `url` is an absolute http(s) URL, else the "expected …" text. */
export function checkHttpUrl(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return undefined;
  } catch {
    // fall through
  }
  return 'expected an absolute http:// or https:// URL';
}

function buildServer(
  name: string,
  d: z.infer<typeof StdioServerSchema> | z.infer<typeof RemoteServerSchema>,
): ServerSettings {
  const common = {
    name,
    enabled: d.enabled ?? true,
    connectTimeoutMs: d.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    ...(d.timeoutMs !== undefined ? { timeoutMs: d.timeoutMs } : {}),
  };
  if (d.type === 'http' || d.type === 'sse') {
    return { ...common, type: d.type, url: d.url, headers: { ...(d.headers ?? {}) } };
  }
  const s = d as z.infer<typeof StdioServerSchema>;
  return {
    ...common,
    type: 'stdio',
    command: s.command,
    args: [...(s.args ?? [])],
    env: { ...(s.env ?? {}) },
    ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
  };
}

function parseRoles(
  value: unknown,
  problems: SettingsProblem[],
  configuredServers: ReadonlySet<string>,
  configuredRoles: Set<string>,
): RoleSettings[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    problems.push(problem('error', ['roles'], `expected an object of role definitions keyed by name, got ${describeValue(value)}; no roles are loaded`));
    return [];
  }
  const roles: RoleSettings[] = [];
  for (const [name, def] of Object.entries(value)) {
    configuredRoles.add(name);
    const base: PathSegment[] = ['roles', name];
    const dropped = `role "${name}" is not loaded`;
    if (name.trim() === '') {
      problems.push(problem('error', base, 'a role name must not be empty; this role is not loaded'));
      continue;
    }
    const parsed = RoleSchema.safeParse(def);
    if (!parsed.success) {
      problems.push(
        ...issuesToProblems(parsed.error, {
          base,
          value: def,
          allowedKeys: Object.keys(RoleSchema.shape),
          consequence: dropped,
        }),
      );
      continue;
    }
    const d = parsed.data;
    let ok = true;
    d.servers?.forEach((s, i) => {
      if (!configuredServers.has(s)) {
        ok = false;
        problems.push(problem('error', [...base, 'servers', i], `unknown server "${s}" (${knownList('servers', configuredServers)}); ${dropped}`));
      }
    });
    if (!ok) continue;
    roles.push({
      name,
      ...(d.description !== undefined ? { description: d.description } : {}),
      ...(d.servers !== undefined ? { servers: [...new Set(d.servers)] } : {}),
      tools: d.tools ?? ['*/*'],
      exclude: d.exclude ?? [],
      autoApprove: d.autoApprove ?? [],
      confirm: d.confirm ?? [],
    });
  }
  return roles;
}

function knownList(what: string, names: ReadonlySet<string>): string {
  return names.size ? `configured ${what}: ${[...names].map((n) => JSON.stringify(n)).join(', ')}` : `no ${what} are configured`;
}

function parseScalar<T>(
  raw: Record<string, unknown>,
  key: string,
  schema: z.ZodType<T>,
  fallback: T,
  problems: SettingsProblem[],
  describeFallback = JSON.stringify(fallback),
  base: readonly PathSegment[] = key.split('.'),
): T {
  const value = raw[key];
  if (value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  problems.push(
    ...issuesToProblems(parsed.error, {
      base,
      value,
      consequence: `using the default ${describeFallback}`,
    }),
  );
  return fallback;
}

function parsePatternList(raw: Record<string, unknown>, key: 'autoApprove' | 'confirm', problems: SettingsProblem[]): string[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(problem('error', [key], `${E.patterns}, got ${describeValue(value)}; using the default []`));
    return [];
  }
  // Keep the good entries: one typo should not silently drop every other rule.
  const out: string[] = [];
  value.forEach((item, i) => {
    const parsed = pattern.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else problems.push(...issuesToProblems(parsed.error, { base: [key, i], value: item, consequence: 'this entry is ignored' }));
  });
  return out;
}

function parseAuditPath(raw: Record<string, unknown>, problems: SettingsProblem[]): string | undefined {
  const flat = parseScalar<string | undefined>(raw, 'audit.path', nonEmptyString, undefined, problems, '(no audit file)');
  let nested: string | undefined;
  const audit = raw.audit;
  if (audit !== undefined) {
    if (!isPlainObject(audit)) {
      problems.push(problem('error', 'mcpHost.audit', `expected an object like { "path": "…" }, got ${describeValue(audit)}; ignored`));
    } else {
      for (const k of Object.keys(audit)) {
        if (k !== 'path') problems.push(problem('error', `mcpHost.audit.${k}`, 'unknown setting'));
      }
      nested = parseScalar<string | undefined>(audit, 'path', nonEmptyString, undefined, problems, '(no audit file)', ['audit', 'path']);
    }
  }
  if (flat !== undefined && nested !== undefined && flat !== nested) {
    problems.push(
      problem('warning', 'mcpHost.audit.path', `set twice with different values (as "mcpHost.audit.path" and inside "mcpHost.audit"); using ${JSON.stringify(flat)}`),
    );
  }
  return flat ?? nested;
}

function warnUnreachablePatterns(
  settings: { roles: readonly RoleSettings[]; autoApprove: readonly string[]; confirm: readonly string[] },
  configuredServers: ReadonlySet<string>,
  problems: SettingsProblem[],
): void {
  const check = (patterns: readonly string[], base: PathSegment[], roleServers?: readonly string[], roleName?: string) => {
    patterns.forEach((p, i) => {
      const server = literalServerPart(p);
      if (server === undefined) return;
      if (!configuredServers.has(server)) {
        problems.push(problem('warning', [...base, i], `"${server}" is not a configured server, so "${p}" never matches (${knownList('servers', configuredServers)})`));
      } else if (roleServers && !roleServers.includes(server)) {
        problems.push(
          problem('warning', [...base, i], `role "${roleName}" does not include server "${server}" in its "servers", so "${p}" never matches`),
        );
      }
    });
  };
  check(settings.autoApprove, ['autoApprove']);
  check(settings.confirm, ['confirm']);
  for (const r of settings.roles) {
    check(r.tools, ['roles', r.name, 'tools'], r.servers, r.name);
    check(r.exclude, ['roles', r.name, 'exclude']);
    check(r.autoApprove, ['roles', r.name, 'autoApprove'], r.servers, r.name);
    check(r.confirm, ['roles', r.name, 'confirm'], r.servers, r.name);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Validate the raw `mcpHost.*` values (keys without the `mcpHost.` prefix).
 *
 * An `activeRole` that names an unknown or invalid role does not fall back to "no role" (which
 * would hand the model every tool): the result keeps the name, and McpHost treats a role it
 * cannot find as one with no servers and no tools, so the mistake fails closed.
 */
export function parseSettings(raw: Record<string, unknown>): { settings: HostSettings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const input: Record<string, unknown> = isPlainObject(raw) ? raw : {};
  const known = new Set<string>([...KNOWN_SETTING_KEYS, 'audit']);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) problems.push(problem('error', `${SETTINGS_SECTION}.${key}`, 'unknown setting'));
  }

  const configuredServers = new Set<string>();
  const servers = parseServers(input.servers, problems, configuredServers);

  const toolNames = parseScalar<ToolNamingMode>(input, 'toolNames', ToolNamesSchema, DEFAULTS.toolNames, problems);
  const timeoutMs = parseScalar(input, 'timeoutMs', positiveInt, DEFAULTS.timeoutMs, problems);
  const maxToolRounds = parseScalar(input, 'maxToolRounds', positiveInt, DEFAULTS.maxToolRounds, problems);
  const maxResultChars = parseScalar(input, 'maxResultChars', positiveInt, DEFAULTS.maxResultChars, problems);
  const autoApprove = parsePatternList(input, 'autoApprove', problems);
  const confirm = parsePatternList(input, 'confirm', problems);
  const auditPath = parseAuditPath(input, problems);

  const configuredRoles = new Set<string>();
  const roles = parseRoles(input.roles, problems, configuredServers, configuredRoles);

  let activeRole: string | undefined;
  const rawActive = input.activeRole;
  if (rawActive !== undefined && rawActive !== null && typeof rawActive !== 'string') {
    problems.push(problem('error', ['activeRole'], `expected a role name (a string), got ${describeValue(rawActive)}; no role is active`));
  } else if (typeof rawActive === 'string' && rawActive !== '') {
    activeRole = rawActive;
    if (!roles.some((r) => r.name === rawActive)) {
      const why = configuredRoles.has(rawActive)
        ? `role "${rawActive}" is invalid (see the problems under mcpHost.roles)`
        : `unknown role "${rawActive}" (${knownList('roles', configuredRoles)})`;
      // activeRole keeps the name: McpHost fails closed on a role it cannot find (no servers, no tools).
      problems.push(problem('error', ['activeRole'], `${why}; no tools are offered until this is fixed`));
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
    ...(auditPath !== undefined ? { auditPath } : {}),
  };
  warnUnreachablePatterns(settings, configuredServers, problems);
  return { settings, problems };
}
