import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from './definitionHash';

export interface ChangedTool {
  readonly tool: string;
  /** Which parts of the definition differ. */
  readonly fields: readonly string[];
  readonly descriptionBefore?: string;
  readonly descriptionAfter?: string;
}

export interface ToolListDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

const COMPARED_FIELDS = ['description', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta', 'icons', 'execution'] as const;

/** What changed between two tool lists of one server, by original tool name. */
export function diffToolLists(before: readonly Tool[], after: readonly Tool[]): ToolListDiff {
  const changed: ChangedTool[] = [];
  // A refresh nearly always lists the same tools in the same order: then the tools pair up by
  // position, as the maps below would pair them, without building the maps.
  if (sameDistinctNames(before, after)) {
    for (let i = 0; i < after.length; i++) addChange(changed, before[i], after[i]);
    return { added: [], removed: [], changed };
  }
  const old = new Map(before.map((t) => [t.name, t]));
  const next = new Map(after.map((t) => [t.name, t]));
  const added = [...next.keys()].filter((n) => !old.has(n));
  const removed = [...old.keys()].filter((n) => !next.has(n));
  for (const [name, t] of next) {
    const o = old.get(name);
    if (o) addChange(changed, o, t);
  }
  return { added, removed, changed };
}

function addChange(changed: ChangedTool[], o: Tool, t: Tool): void {
  if (sameDefinition(o, t)) return;
  // Only the fields that differ structurally are serialized (a changed description leaves the schema alone).
  const fields = COMPARED_FIELDS.filter((f) => {
    const before = (o as Record<string, unknown>)[f];
    const after = (t as Record<string, unknown>)[f];
    return !sameDefinition(before, after) && canonicalJson(before) !== canonicalJson(after);
  });
  if (fields.length) changed.push({ tool: t.name, fields, descriptionBefore: o.description, descriptionAfter: t.description });
}

/** The same names in the same order, none twice (a name listed twice pairs its last definitions, by name). */
function sameDistinctNames(before: readonly Tool[], after: readonly Tool[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) if (before[i].name !== after[i].name) return false;
  return new Set(after.map((t) => t.name)).size === after.length;
}

/**
 * Fast path before the canonical comparison: structural equality of JSON-like values, ignoring key
 * order and undefined-valued keys, exactly where canonicalJson would see no difference. It only
 * answers "equal" when canonicalJson would; anything else goes through the field-by-field check.
 * A refresh after list_changed is almost all unchanged tools, so this is what keeps it cheap.
 */
export function sameDefinition(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameDefinition(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    if (!hasOwn.call(x, k)) continue;
    const v = x[k];
    if (v === undefined) continue;
    defined++;
    if (!hasOwn.call(y, k) || !sameDefinition(v, y[k])) return false;
  }
  for (const k in y) if (hasOwn.call(y, k) && y[k] !== undefined) defined--;
  return defined === 0;
}

const hasOwn = Object.prototype.hasOwnProperty;

export function isEmptyDiff(d: ToolListDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}
