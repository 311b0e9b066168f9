import { knownList } from './describeValue';
import { literalServerPart } from './globSyntax';
import type { RoleSettings, SettingsProblem } from './hostSettings';
import type { PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';

/** Warns about patterns whose server part names a server that is not configured, or not in the role. */
export function warnUnreachablePatterns(
  settings: { roles: readonly RoleSettings[]; autoApprove: readonly string[]; confirm: readonly string[] },
  configuredServers: ReadonlySet<string>,
  problems: SettingsProblem[],
): void {
  const check = (patterns: readonly string[], base: PathSegment[], roleServers?: readonly string[], roleName?: string) => {
    patterns.forEach((p, i) => {
      const server = literalServerPart(p);
      if (server === undefined) return;
      if (!configuredServers.has(server)) {
        problems.push(settingsProblem('warning', [...base, i], `"${server}" is not a configured server, so "${p}" never matches (${knownList('servers', configuredServers)})`));
      } else if (roleServers && !roleServers.includes(server)) {
        problems.push(
          settingsProblem('warning', [...base, i], `role "${roleName}" does not include server "${server}" in its "servers", so "${p}" never matches`),
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
    check(r.resources ?? [], ['roles', r.name, 'resources'], r.servers, r.name);
    check(r.prompts ?? [], ['roles', r.name, 'prompts'], r.servers, r.name);
  }
}
