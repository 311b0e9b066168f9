import { isDeepStrictEqual } from 'node:util';
import type { SettingsProblem } from '../settings/hostSettings';
import { isPlainObject } from '../settings/isPlainObject';
import type { ImportedServer } from './importedServer';

export interface MergedServers {
  /** The raw settings with the imported servers added to `servers`, after the configured ones. */
  readonly raw: Record<string, unknown>;
  /** Name → file, for the imported servers that are used. */
  readonly sources: ReadonlyMap<string, ImportedServer>;
  readonly problems: readonly SettingsProblem[];
}

/**
 * Adds imported servers to the raw `mcpHost.*` settings. A server of `mcpHost.servers` wins a name
 * clash; the clash is reported unless both define the same server (as after **Copy Imported Servers
 * to Settings**). The configured servers stay first: their order decides tool-name conflicts.
 */
export function withImportedServers(raw: Record<string, unknown>, imported: readonly ImportedServer[]): MergedServers {
  const problems: SettingsProblem[] = [];
  const sources = new Map<string, ImportedServer>();
  if (imported.length === 0) return { raw, sources, problems };
  const configured = raw.servers;
  if (configured !== undefined && !isPlainObject(configured)) {
    // parseServers reports the broken setting; guessing around it would hide that.
    problems.push({ severity: 'warning', message: 'mcpHost.servers is not an object of servers, so the imported servers are not loaded either', setting: 'mcpHost.servers' });
    return { raw, sources, problems };
  }
  const servers: Record<string, unknown> = { ...(configured ?? {}) };
  for (const s of imported) {
    if (Object.prototype.hasOwnProperty.call(servers, s.name)) {
      if (!sameDefinition(servers[s.name], s.definition)) {
        problems.push({
          severity: 'warning',
          message: `server "${s.name}" is also defined in mcpHost.servers, which wins; the one in ${s.source} is not used`,
          location: s.location,
          server: s.name,
        });
      }
      continue;
    }
    servers[s.name] = s.definition;
    sources.set(s.name, s);
  }
  return { raw: { ...raw, servers }, sources, problems };
}

/** Equal up to the defaults a copy may leave out (`type: "stdio"`). */
function sameDefinition(a: unknown, b: Readonly<Record<string, unknown>>): boolean {
  if (!isPlainObject(a)) return false;
  const norm = (d: Readonly<Record<string, unknown>>) => (d.type === 'stdio' || d.type === undefined ? { ...d, type: 'stdio' } : d);
  return isDeepStrictEqual(norm(a), norm(b));
}
