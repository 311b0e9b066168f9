import type { z } from 'zod';
import { parseOAuthSettings, type OAuthSettings } from './oauthSettings';
import { serverPrefix } from './serverPrefix';
import { checkHttpUrl } from './checkHttpUrl';
import { describeValue } from './describeValue';
import { DEFAULTS, type ServerSettings, type SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { issuesToProblems } from './issuesToProblems';
import { RemoteServerSchema, StdioServerSchema } from './serversSchema';
import type { PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';

type ServerDefinition = z.infer<typeof StdioServerSchema> | z.infer<typeof RemoteServerSchema>;

/**
 * `mcpHost.servers`, in key order (that order decides naming conflicts). A bad server is reported
 * and not loaded; the others load. Every name seen, good or bad, is added to `configured`.
 */
export function parseServers(value: unknown, problems: SettingsProblem[], configured: Set<string>): ServerSettings[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    problems.push(
      settingsProblem('error', ['servers'], `expected an object of server definitions keyed by name, got ${describeValue(value)}; no servers are loaded`),
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
      problems.push(settingsProblem('error', base, `a server name must not be empty; this server is not loaded`, name));
      continue;
    }
    if (name.includes('/')) {
      problems.push(
        settingsProblem('error', base, `a server name must not contain "/" (patterns are "server/tool"); ${dropped}`, name),
      );
      continue;
    }
    if (!isPlainObject(def)) {
      problems.push(settingsProblem('error', base, `expected an object (a server definition), got ${describeValue(def)}; ${dropped}`, name));
      continue;
    }
    const type = def.type;
    if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
      problems.push(
        settingsProblem('error', [...base, 'type'], `expected "stdio", "http" or "sse", got ${describeValue(type)}; ${dropped}`, name),
      );
      continue;
    }
    if (type === undefined && 'url' in def && !('command' in def)) {
      problems.push(
        settingsProblem('error', [...base, 'type'], `missing: a server with "url" needs "type": "http" or "sse"; ${dropped}`, name),
      );
      continue;
    }
    const remote = type === 'http' || type === 'sse';
    const schema = remote ? RemoteServerSchema : StdioServerSchema;
    // A remote server's "oauth" is checked by parseOAuthSettings (its own rules, secrets never echoed).
    const { oauth: oauthValue, ...rest } = def;
    const parsed = schema.safeParse(remote ? rest : def);
    const oauth = remote && oauthValue !== undefined ? parseOAuthSettings(oauthValue) : undefined;
    for (const p of oauth?.problems ?? []) {
      problems.push(settingsProblem('error', [...base, 'oauth', ...p.path], `${p.message}; ${dropped}`, name));
    }
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
    if (oauth && !oauth.settings) continue;
    const server = buildServer(name, parsed.data as ServerDefinition, oauth?.settings);
    if (server.type !== 'stdio' && !server.url.includes('${')) {
      const reason = checkHttpUrl(server.url);
      if (reason) {
        problems.push(settingsProblem('error', [...base, 'url'], `${reason}, got ${describeValue(server.url)}; ${dropped}`, name));
        continue;
      }
    }
    const prefix = serverPrefix(name);
    const earlier = byPrefix.get(prefix);
    if (earlier !== undefined) {
      problems.push(
        settingsProblem(
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

function buildServer(name: string, d: ServerDefinition, oauth: OAuthSettings | undefined): ServerSettings {
  const common = {
    name,
    enabled: d.enabled ?? true,
    connectTimeoutMs: d.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    ...(d.timeoutMs !== undefined ? { timeoutMs: d.timeoutMs } : {}),
    ...(d.maxMessageBytes !== undefined ? { maxMessageBytes: d.maxMessageBytes } : {}),
    ...(d.resetTimeoutOnProgress !== undefined ? { resetTimeoutOnProgress: d.resetTimeoutOnProgress } : {}),
    ...(d.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: d.maxTotalTimeoutMs } : {}),
    ...(d.roots !== undefined ? { roots: d.roots === false ? (false as const) : [...d.roots] } : {}),
    ...(d.protocol !== undefined ? { protocol: d.protocol } : {}),
  };
  if (d.type === 'http' || d.type === 'sse') {
    return { ...common, type: d.type, url: d.url, headers: { ...(d.headers ?? {}) }, ...(oauth ? { oauth } : {}) };
  }
  const s = d as z.infer<typeof StdioServerSchema>;
  return {
    ...common,
    type: 'stdio',
    command: s.command,
    args: [...(s.args ?? [])],
    env: { ...(s.env ?? {}) },
    ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
    ...(s.envFile !== undefined ? { envFile: s.envFile } : {}),
  };
}
