import { DEFAULTS, type HostSettings, type SettingsProblem } from '../settings/hostSettings';
import { parseScalar } from '../settings/parseScalar';
import { parseSettings } from '../settings/parseSettings';
import { SettingsSchema } from '../settings/settingsSchema';
import { importServers, type ImportOptions, type ImportResult } from './importServers';
import { withImportedServers } from './withImportedServers';

export interface LoadedSettings {
  /** Imported servers carry `source`. */
  readonly settings: HostSettings;
  /** `mcpHost.import`, then the imported files', the merge's and the settings' own problems. */
  readonly problems: readonly SettingsProblem[];
  readonly imported: ImportResult;
}

/**
 * The settings both front ends use: the `mcpHost.*` values plus the servers of the files in
 * `mcpHost.import` (default `.vscode/mcp.json`, `.mcp.json`). Imported servers are validated by the
 * same parser as configured ones, so roles may name them and they take the same trust, role,
 * policy and audit path.
 */
export function loadHostSettings(raw: Record<string, unknown>, options: ImportOptions): LoadedSettings {
  const own: SettingsProblem[] = [];
  const list = parseScalar<readonly string[]>(raw, 'import', SettingsSchema.shape.import, DEFAULTS.importFiles, own);
  const imported = importServers(list, options);
  const merged = withImportedServers(raw, imported.servers);
  const parsed = parseSettings(merged.raw);
  const servers = parsed.settings.servers.map((s) => {
    const from = merged.sources.get(s.name);
    return from ? { ...s, source: from.source } : s;
  });
  // A problem parseSettings finds in an imported server also points into its file.
  const problems = parsed.problems.map((p) => {
    const from = p.server !== undefined && !p.location ? merged.sources.get(p.server) : undefined;
    return from && p.setting?.startsWith(`mcpHost.servers`) ? { ...p, location: from.location } : p;
  });
  return {
    settings: { ...parsed.settings, servers },
    problems: [...own, ...imported.problems, ...merged.problems, ...problems],
    imported,
  };
}
