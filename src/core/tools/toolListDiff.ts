import type { Tool } from '@modelcontextprotocol/sdk/types.js';
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
  const old = new Map(before.map((t) => [t.name, t]));
  const next = new Map(after.map((t) => [t.name, t]));
  const added = [...next.keys()].filter((n) => !old.has(n));
  const removed = [...old.keys()].filter((n) => !next.has(n));
  const changed: ChangedTool[] = [];
  for (const [name, t] of next) {
    const o = old.get(name);
    if (!o) continue;
    const fields = COMPARED_FIELDS.filter(
      (f) => canonicalJson((o as Record<string, unknown>)[f]) !== canonicalJson((t as Record<string, unknown>)[f]),
    );
    if (fields.length) {
      changed.push({ tool: name, fields, descriptionBefore: o.description, descriptionAfter: t.description });
    }
  }
  return { added, removed, changed };
}

export function isEmptyDiff(d: ToolListDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}
