import type { Tool } from '@modelcontextprotocol/client';
import type { PinningMode } from '../settings/hostSettings';
import { canonicalJson, definitionHash } from '../tools/definitionHash';
import { sameDefinition } from '../tools/toolListDiff';
import type { LockedServer, LockedTool } from './lockfile';
import { identityChanges, sameIdentity, type ServerIdentity } from './serverIdentity';

export type QuarantineReason = 'unreviewedServer' | 'newTool' | 'changed' | 'identityChanged' | 'lockfileUnusable';

/** Why a tool is not offered to any role: its definition is not the reviewed one. */
export interface Quarantine {
  readonly reason: QuarantineReason;
  /** One sentence for people and for the model; never the new definition itself. */
  readonly message: string;
  /** For `changed`: the parts of the definition that differ. */
  readonly fields?: readonly string[];
}

export interface ChangedDefinition {
  readonly tool: string;
  readonly fields: readonly string[];
  readonly before: LockedTool;
  readonly after: Tool;
}

/** One server's tools held against its lockfile entry. */
export interface ServerPins {
  readonly server: string;
  /** Only the quarantined tools, by name. */
  readonly quarantined: ReadonlyMap<string, Quarantine>;
  /** The server has no lockfile entry yet: it is reviewed as a whole. */
  readonly firstReview: boolean;
  /** What differs from the lockfile (empty when everything matches). */
  readonly added: readonly Tool[];
  readonly changed: readonly ChangedDefinition[];
  readonly removed: readonly LockedTool[];
  /** Parts of the server's identity that differ from the reviewed one. */
  readonly identityChanges: readonly string[];
}

export interface PinInput {
  readonly server: string;
  readonly mode: PinningMode;
  /** The server's lockfile entry, if any. */
  readonly locked?: LockedServer;
  /** Why the lockfile cannot be used at all (unreadable, invalid): everything is quarantined. */
  readonly lockError?: string;
  /** The identity of the running server (lockfile form); unknown: not compared. */
  readonly identity?: ServerIdentity;
  /** The same with the values of its `${env:}` in place: an entry an earlier version wrote so still matches. */
  readonly resolvedIdentity?: ServerIdentity;
  readonly tools: readonly Tool[];
  /**
   * `tools` is not everything the server lists (a one-shot call lists up to its tool and keeps that
   * one): each listed tool is held against its pin as always, but nothing counts as removed.
   */
  readonly partial?: boolean;
}

const consistent = new WeakMap<LockedTool, boolean>();

/**
 * Whether a lockfile entry's hash is the hash of its definition. The definition is what is pinned
 * (and compared at run time); a hash edited by hand without its definition, or the other way round,
 * is reported by `mcp-host check --locked`, not by every start (hashing 20,000 entries costs).
 */
export function isConsistent(entry: LockedTool): boolean {
  let ok = consistent.get(entry);
  if (ok === undefined) {
    ok = definitionHash(entry.definition) === entry.hash;
    consistent.set(entry, ok);
  }
  return ok;
}

/** The parts of two definitions that differ, in a fixed order (description first). */
export function changedFields(before: Tool, after: Tool): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return orderFields([...keys].filter((k) => !sameDefinition(b[k], a[k]) && canonicalJson(b[k]) !== canonicalJson(a[k])));
}

const FIELD_ORDER = ['description', 'title', 'inputSchema', 'outputSchema', 'annotations', 'name'];

/** Definition keys with description first, then the rest of the model-facing parts, then everything else sorted. */
export function orderFields(keys: readonly string[]): string[] {
  const rank = (k: string) => (FIELD_ORDER.includes(k) ? FIELD_ORDER.indexOf(k) : FIELD_ORDER.length);
  return [...keys].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
}

/**
 * Hold a server's listed tools against its lockfile entry. `off` quarantines nothing; `review` and
 * `locked` quarantine every tool whose definition is not exactly the reviewed one.
 */
export function pinServer(input: PinInput): ServerPins {
  const { server, mode, locked } = input;
  const quarantined = new Map<string, Quarantine>();
  const added: Tool[] = [];
  const changed: ChangedDefinition[] = [];
  const seen = new Set<string>();
  const legacy = !!locked && !!input.resolvedIdentity && sameIdentity(locked.identity, input.resolvedIdentity);
  const identity = locked && input.identity && !legacy ? identityChanges(locked.identity, input.identity) : [];
  const whole: Quarantine | undefined =
    mode === 'off'
      ? undefined
      : input.lockError !== undefined
        ? { reason: 'lockfileUnusable', message: `the lockfile cannot be used (${input.lockError})` }
        : !locked
          ? { reason: 'unreviewedServer', message: `server "${server}" has not been reviewed yet` }
          : identity.length
            ? { reason: 'identityChanged', message: `server "${server}" is not started the way it was reviewed (${identity.join(', ')} changed)` }
            : undefined;

  for (const tool of input.tools) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const entry = locked?.tools[tool.name];
    let q: Quarantine | undefined = whole;
    if (!entry) {
      added.push(tool);
      q ??= { reason: 'newTool', message: `tool "${tool.name}" is new since server "${server}" was reviewed` };
    } else if (!sameDefinition(entry.definition, tool)) {
      const fields = changedFields(entry.definition, tool);
      changed.push({ tool: tool.name, fields, before: entry, after: tool });
      q ??= { reason: 'changed', message: `the definition of tool "${tool.name}" changed since it was reviewed (${fields.join(', ')})`, fields };
    }
    if (q && mode !== 'off') quarantined.set(tool.name, q);
  }
  const removed = locked && !input.partial ? Object.keys(locked.tools).filter((n) => !seen.has(n)).sort().map((n) => locked.tools[n]) : [];
  return { server, quarantined, firstReview: !locked, added, changed, removed, identityChanges: identity };
}

/** Whether a review of the server has anything to approve. */
export function hasDrift(p: ServerPins): boolean {
  return p.firstReview || p.added.length > 0 || p.changed.length > 0 || p.removed.length > 0 || p.identityChanges.length > 0 || p.quarantined.size > 0;
}

/** What a person can do about a quarantine in this mode. */
export function howToResolve(mode: PinningMode): string {
  return mode === 'locked'
    ? 'mcpHost.pinning is "locked": update mcp-host.lock.json with "mcp-host lock" and commit it'
    : 'a person must approve it (MCP Host: Review Tool Changes…, or "mcp-host lock")';
}
