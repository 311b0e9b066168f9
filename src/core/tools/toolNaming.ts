import { createHash } from 'node:crypto';
import type { ToolNamingMode } from '../settings/hostSettings';
import { sanitizeNamePart, serverPrefix } from '../settings/serverPrefix';

/** Names handed to a model match ^[a-zA-Z0-9_-]{1,64}$ (OpenAI, Anthropic and vscode.lm all accept it). */
export const MAX_TOOL_NAME = 64;
export const PREFIX_SEPARATOR = '__';

/** A short hash that is stable for the same input on every machine and every run. */
export function stableHash(input: string, length = 6): string {
  return createHash('sha256').update(input).digest('hex').slice(0, length);
}

/** Shorten to the model limit, keeping the result unique by a hash of the full original identity. */
function fitLength(candidate: string, identity: string): string {
  if (candidate.length <= MAX_TOOL_NAME) return candidate;
  const hash = stableHash(identity);
  return `${candidate.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/**
 * The candidate exposed name for one tool, before uniqueness is settled across the registry.
 * `prefix`: serverPrefix(server), when the caller names many tools of one server.
 */
export function candidateName(mode: ToolNamingMode, server: string, tool: string, prefix?: string): string {
  const base = mode === 'prefix' ? `${prefix ?? serverPrefix(server)}${PREFIX_SEPARATOR}${sanitizeNamePart(tool)}` : sanitizeNamePart(tool);
  // In reject mode the bare name must not depend on the server, or two servers' equal long names
  // would get different hashes and the duplicate would slip past the refusal.
  return fitLength(base, mode === 'prefix' ? `${server}/${tool}` : tool);
}

/** A name that differs from `candidate` and is unique for this (server, tool): used when sanitizing made two names equal. */
export function disambiguatedName(candidate: string, server: string, tool: string): string {
  const hash = stableHash(`${server}/${tool}`);
  const room = MAX_TOOL_NAME - hash.length - 1;
  return `${candidate.slice(0, room)}_${hash}`;
}
