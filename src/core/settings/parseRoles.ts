import { describeValue, knownList } from './describeValue';
import type { RoleSettings, SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { issuesToProblems } from './issuesToProblems';
import { parseRules } from './parseRules';
import { RoleSchema } from './rolesSchema';
import type { PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';

/**
 * `mcpHost.roles`. A bad role (bad shape, bad pattern, unknown server) is reported and not loaded;
 * the others load. Every name seen, good or bad, is added to `configuredRoles`.
 */
export function parseRoles(
  value: unknown,
  problems: SettingsProblem[],
  configuredServers: ReadonlySet<string>,
  configuredRoles: Set<string>,
): RoleSettings[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    problems.push(settingsProblem('error', ['roles'], `expected an object of role definitions keyed by name, got ${describeValue(value)}; no roles are loaded`));
    return [];
  }
  const roles: RoleSettings[] = [];
  for (const [name, def] of Object.entries(value)) {
    configuredRoles.add(name);
    const base: PathSegment[] = ['roles', name];
    const dropped = `role "${name}" is not loaded`;
    if (name.trim() === '') {
      problems.push(settingsProblem('error', base, 'a role name must not be empty; this role is not loaded'));
      continue;
    }
    // Rules are parsed on their own: a bad rule is kept in its cautious form, not the whole role dropped.
    const { rules: rawRules, ...rest } = isPlainObject(def) ? def : { rules: undefined };
    const parsed = RoleSchema.safeParse(isPlainObject(def) ? rest : def);
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
        problems.push(settingsProblem('error', [...base, 'servers', i], `unknown server "${s}" (${knownList('servers', configuredServers)}); ${dropped}`));
      }
    });
    if (!ok) continue;
    const rules = parseRules(rawRules, [...base, 'rules'], problems);
    roles.push({
      name,
      ...(d.description !== undefined ? { description: d.description } : {}),
      ...(d.servers !== undefined ? { servers: [...new Set(d.servers)] } : {}),
      tools: d.tools ?? ['*/*'],
      exclude: d.exclude ?? [],
      autoApprove: d.autoApprove ?? [],
      confirm: d.confirm ?? [],
      ...(rules.length ? { rules } : {}),
      ...(d.maxTools !== undefined ? { maxTools: d.maxTools } : {}),
      ...(d.maxToolTokens !== undefined ? { maxToolTokens: d.maxToolTokens } : {}),
      resources: d.resources ?? [],
      prompts: d.prompts ?? [],
    });
  }
  return roles;
}
