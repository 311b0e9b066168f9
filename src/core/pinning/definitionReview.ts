import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { definitionHash } from '../tools/definitionHash';
import { orderFields, type ServerPins } from './pinningPolicy';
import { describeIdentity, type ServerIdentity } from './serverIdentity';

/** What a person is shown before approving one server's tool changes, and what an approval may write. */
export interface DefinitionReview {
  readonly server: string;
  readonly firstReview: boolean;
  readonly added: readonly string[];
  readonly changed: readonly { readonly tool: string; readonly fields: readonly string[] }[];
  readonly removed: readonly string[];
  readonly identityChanges: readonly string[];
  /** Each tool that differs, as texts (description first), by name. */
  readonly tools: readonly ToolChange[];
  /** The reviewed definitions (left side of the diff). */
  readonly before: string;
  /** The definitions the server lists now (right side). */
  readonly after: string;
  /**
   * Names exactly the definitions shown: an approval carries it back, and is refused when the
   * server's tools changed in the meantime (a person never approves what they did not see).
   */
  readonly token: string;
}

/** One tool of a review: its definition as reviewed and as listed now (pretty JSON, description first). */
export interface ToolChange {
  readonly tool: string;
  readonly change: 'added' | 'changed' | 'removed';
  readonly fields?: readonly string[];
  /** The description listed now (or as reviewed, for a removed tool). */
  readonly description?: string;
  readonly before?: string;
  readonly after?: string;
}

/** A definition as a reviewer reads it: description first, then title, schemas, annotations, the rest. */
export function reviewOrder(tool: Tool): Record<string, unknown> {
  const t = tool as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Below the top level, keys sorted: the lockfile's order and the server's must not show as a change.
  for (const k of orderFields(Object.keys(t).filter((k) => k !== 'name' && t[k] !== undefined))) out[k] = sortedDeep(t[k]);
  return out;
}

function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => [k, sortedDeep(o[k])]));
}

/** One tool's definition as text for a diff (pretty JSON, description first). */
export function definitionText(tool: Tool): string {
  return JSON.stringify(reviewOrder(tool), null, 2);
}

/**
 * Two documents for a diff editor: the changed, new and removed tools of one server as reviewed
 * (before) and as listed now (after). Tools that did not change are left out.
 */
export function buildReview(pins: ServerPins, identity: { before?: ServerIdentity; after?: ServerIdentity }): DefinitionReview {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const c of pins.changed) {
    before[c.tool] = reviewOrder(c.before.definition);
    after[c.tool] = reviewOrder(c.after);
  }
  for (const t of pins.added) after[t.name] = reviewOrder(t);
  for (const r of pins.removed) before[r.definition.name] = reviewOrder(r.definition);
  const header = (id: ServerIdentity | undefined, side: string) =>
    [`// ${side}`, ...(id ? describeIdentity(id).map((l) => `// ${l}`) : [])].join('\n') + '\n';
  const doc = (tools: Record<string, unknown>) => JSON.stringify(sortedObject(tools), null, 2) + '\n';
  const beforeText =
    header(pins.firstReview ? undefined : identity.before, pins.firstReview ? `server "${pins.server}": not reviewed yet` : `server "${pins.server}" as reviewed (mcp-host.lock.json)`) +
    doc(before);
  const afterText = header(identity.after, `server "${pins.server}" as it lists its tools now`) + doc(after);
  const token = createHash('sha256')
    .update(JSON.stringify([pins.server, identity.after ?? null, pins.added.map(definitionHash), pins.changed.map((c) => definitionHash(c.after)), pins.removed.map((r) => r.hash)]))
    .digest('hex');
  return {
    server: pins.server,
    firstReview: pins.firstReview,
    added: pins.added.map((t) => t.name).sort(),
    changed: pins.changed.map((c) => ({ tool: c.tool, fields: c.fields })).sort((a, b) => (a.tool < b.tool ? -1 : 1)),
    removed: pins.removed.map((r) => r.definition.name),
    identityChanges: pins.identityChanges,
    tools: [
      ...pins.changed.map((c): ToolChange => ({ tool: c.tool, change: 'changed', fields: c.fields, before: definitionText(c.before.definition), after: definitionText(c.after) })),
      ...pins.added.map((t): ToolChange => ({ tool: t.name, change: 'added', description: t.description, after: definitionText(t) })),
      ...pins.removed.map((r): ToolChange => ({ tool: r.definition.name, change: 'removed', before: definitionText(r.definition) })),
    ].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0)),
    before: beforeText,
    after: afterText,
    token,
  };
}

function sortedObject(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}
