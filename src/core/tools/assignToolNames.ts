import type { Tool } from '@modelcontextprotocol/client';
import type { SettingsProblem, ToolNamingMode } from '../settings/hostSettings';
import { sanitizeNamePart, serverPrefix } from '../settings/serverPrefix';
import { candidateName, disambiguatedName, MAX_TOOL_NAME, PREFIX_SEPARATOR } from './toolNaming';

export interface NamedTool {
  /** The name a model sees and calls. */
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
}

/** Why a tool a server lists is not offered under a name of its own, in data rather than prose. */
export interface NamingProblem extends SettingsProblem {
  readonly server: string;
  /** The tool's name as the server lists it. */
  readonly tool: string;
  /**
   * `duplicate`: the server lists the name twice (the first is used); `taken`: another server's tool has the name (reject mode);
   * `invalid`: the definition is malformed (the tool is not loaded, or loaded without the malformed part).
   */
  readonly reason: 'duplicate' | 'taken' | 'invalid';
  /** For `taken`: the server whose tool keeps the name. */
  readonly takenBy?: string;
}

export interface NamingResult {
  readonly tools: readonly NamedTool[];
  readonly problems: readonly NamingProblem[];
}

/** One server's part of the naming (see serverCandidates). */
export interface ServerCandidates {
  readonly candidates: readonly NamedTool[];
  readonly problems: readonly NamingProblem[];
  /**
   * No two of these candidate names are equal, and each starts with the server's part of the name
   * (`<prefix>__` in prefix mode): known without a set of every name (see serverCandidates).
   */
  readonly distinct: boolean;
}

const namedTool = (name: string, server: string, tool: Tool): NamedTool => ({ name, server, tool });

/**
 * One server's part of the naming: duplicates dropped, candidate names. Depends on nothing else.
 * `make` builds each candidate (the registry makes its entries right here, one object per tool).
 */
export function serverCandidates(
  server: string,
  tools: readonly Tool[],
  mode: ToolNamingMode,
  make: (name: string, server: string, tool: Tool) => NamedTool = namedTool,
): ServerCandidates {
  const problems: NamingProblem[] = [];
  const candidates: NamedTool[] = [];
  const seen = new Set<string>();
  const prefix = serverPrefix(server);
  const head = mode === 'prefix' ? `${prefix}${PREFIX_SEPARATOR}` : '';
  /** Candidate names that are not `head` + the tool's own name (sanitized or shortened). */
  let altered: string[] | undefined;
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      problems.push({
        severity: 'warning',
        server,
        tool: tool.name,
        reason: 'duplicate',
        message: `server "${server}" lists the tool "${tool.name}" more than once; the first definition is used`,
      });
      continue;
    }
    seen.add(tool.name);
    // candidateName, without its second look at a name that needs neither sanitizing nor shortening.
    const part = sanitizeNamePart(tool.name);
    let name = head + part;
    if (part !== tool.name || name.length > MAX_TOOL_NAME) {
      name = candidateName(mode, server, tool.name, prefix);
      (altered ??= []).push(name);
    }
    candidates.push(make(name, server, tool));
  }
  return { candidates, problems, distinct: altered === undefined || alteredAreDistinct(altered, head, seen) };
}

/**
 * Whether a server's candidate names differ from each other, looking only at the altered ones.
 * The others are `head` + a distinct tool name (duplicates are dropped), so they cannot meet each
 * other; an altered name (valid characters, at most MAX_TOOL_NAME long) that starts with `head`
 * meets one of them exactly when the rest of it is a name the server lists (that tool's name then
 * needs no sanitizing and no shortening, so `head` + it is its candidate). An altered name that
 * lost `head` to shortening (a very long server name) answers "not known distinct".
 */
function alteredAreDistinct(altered: readonly string[], head: string, toolNames: ReadonlySet<string>): boolean {
  const names = new Set<string>();
  for (const name of altered) {
    if (!name.startsWith(head) || names.has(name) || toolNames.has(name.slice(head.length))) return false;
    names.add(name);
  }
  return true;
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
  return resolveNames(servers.map(({ server, tools }) => serverCandidates(server, tools, mode)), mode);
}

/**
 * The cross-server part of assignToolNames: settles collisions between the servers' candidates,
 * given in settings order. The registry keeps each server's candidates until its list changes.
 */
export function resolveNames(perServer: readonly ServerCandidates[], mode: ToolNamingMode): NamingResult {
  const problems: NamingProblem[] = [];
  const candidates: NamedTool[] = [];
  for (const p of perServer) {
    for (const problem of p.problems) problems.push(problem);
    for (const c of p.candidates) candidates.push(c);
  }

  // Most registries have no collision at all: then every candidate name is the name, in input order.
  const counts = new Map<string, number>();
  let collisions = false;
  for (const c of candidates) {
    const n = counts.get(c.name);
    if (n === undefined) counts.set(c.name, 1);
    else {
      counts.set(c.name, n + 1);
      collisions = true;
    }
  }
  if (!collisions) return { tools: candidates, problems };

  // Groups of the candidate names more than one tool wants, in order of first appearance.
  const groups = new Map<string, NamedTool[]>();
  for (const c of candidates) {
    if (counts.get(c.name)! < 2) continue;
    const g = groups.get(c.name);
    if (g) g.push(c);
    else groups.set(c.name, [c]);
  }

  const taken = new Set<string>();
  const result: NamedTool[] = [];
  const refused = new Set<NamedTool>();
  const renamed = new Map<NamedTool, string>();

  for (const [candidate, group] of groups) {
    if (mode === 'reject') {
      const owner = group[0].server;
      for (const c of group) {
        if (c.server !== owner) {
          refused.add(c);
          problems.push({
            severity: 'warning',
            server: c.server,
            tool: c.tool.name,
            reason: 'taken',
            takenBy: owner,
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
    let name = renamed.get(c) ?? c.name;
    // A hash suffix could in theory meet another tool's name: extend until unique.
    for (let i = 2; taken.has(name); i++) name = disambiguatedName(`${c.name}_${i}`, c.server, c.tool.name);
    taken.add(name);
    result.push({ name, server: c.server, tool: c.tool });
  }
  return { tools: result, problems };
}

function exactName(mode: ToolNamingMode, server: string, tool: string): string {
  return mode === 'prefix' ? `${server}__${tool}` : tool;
}
