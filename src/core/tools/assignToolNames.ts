import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SettingsProblem, ToolNamingMode } from '../settings/hostSettings';
import { candidateName, disambiguatedName } from './toolNaming';

export interface NamedTool {
  /** The name a model sees and calls. */
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
}

export interface NamingResult {
  readonly tools: readonly NamedTool[];
  readonly problems: readonly SettingsProblem[];
}

/**
 * Give every tool a unique, model-valid name. Input is in settings order (servers, then each
 * server's tools), so the outcome depends only on configuration and tool lists, never on which
 * server connected first.
 * - prefix: `<server>__<tool>`; names that sanitizing made equal get a stable hash suffix.
 * - reject: bare names; a duplicate across servers is refused for the later server, with a warning.
 */
export function assignToolNames(
  servers: readonly { readonly server: string; readonly tools: readonly Tool[] }[],
  mode: ToolNamingMode,
): NamingResult {
  const problems: SettingsProblem[] = [];
  const candidates: { candidate: string; server: string; tool: Tool }[] = [];
  for (const { server, tools } of servers) {
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.name)) {
        problems.push({
          severity: 'warning',
          server,
          message: `server "${server}" lists the tool "${tool.name}" more than once; the first definition is used`,
        });
        continue;
      }
      seen.add(tool.name);
      candidates.push({ candidate: candidateName(mode, server, tool.name), server, tool });
    }
  }

  const groups = new Map<string, typeof candidates>();
  for (const c of candidates) {
    const g = groups.get(c.candidate);
    if (g) g.push(c);
    else groups.set(c.candidate, [c]);
  }

  const taken = new Set<string>();
  const result: NamedTool[] = [];
  const refused = new Set<(typeof candidates)[number]>();
  const renamed = new Map<(typeof candidates)[number], string>();

  for (const [candidate, group] of groups) {
    if (group.length === 1) continue;
    if (mode === 'reject') {
      const owner = group[0].server;
      for (const c of group) {
        if (c.server !== owner) {
          refused.add(c);
          problems.push({
            severity: 'warning',
            server: c.server,
            message:
              `tool "${c.tool.name}" of server "${c.server}" is not loaded: the name "${candidate}" is already used by server "${owner}"` +
              ` (mcpHost.toolNames is "reject"; use "prefix" to load both)`,
          });
        }
      }
    }
    // Within what remains, the tool whose raw name is exactly the candidate keeps it; others get a hash.
    const remaining = group.filter((c) => !refused.has(c));
    if (remaining.length > 1) {
      const exact = remaining.find((c) => exactName(mode, c.server, c.tool.name) === candidate) ?? remaining[0];
      for (const c of remaining) if (c !== exact) renamed.set(c, disambiguatedName(candidate, c.server, c.tool.name));
    }
  }

  for (const c of candidates) {
    if (refused.has(c)) continue;
    let name = renamed.get(c) ?? c.candidate;
    // A hash suffix could in theory meet another tool's name: extend until unique.
    for (let i = 2; taken.has(name); i++) name = disambiguatedName(`${c.candidate}_${i}`, c.server, c.tool.name);
    taken.add(name);
    result.push({ name, server: c.server, tool: c.tool });
  }
  return { tools: result, problems };
}

function exactName(mode: ToolNamingMode, server: string, tool: string): string {
  return mode === 'prefix' ? `${server}__${tool}` : tool;
}
