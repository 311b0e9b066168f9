/**
 * diffToolLists pairs the tools of two lists by name (issue 10: a refresh pairs them by position
 * when both list the same names in the same order, none twice) and sameDefinition is its fast
 * structural check. Both are checked against their definitions on random lists: the pairing of two
 * name maps and canonicalJson field by field, whatever the order, duplicates, key order and
 * undefined members.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../../../../src/core/tools/definitionHash';
import { diffToolLists, sameDefinition, type ToolListDiff } from '../../../../src/core/tools/toolListDiff';
import { prng } from './registryFuzz';

const FIELDS = ['description', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta', 'icons', 'execution'];

/** The definition: tools paired through a map by name (the last definition of a name), compared field by field. */
function reference(before: readonly Tool[], after: readonly Tool[]): ToolListDiff {
  const old = new Map(before.map((t) => [t.name, t]));
  const next = new Map(after.map((t) => [t.name, t]));
  const changed = [];
  for (const [name, t] of next) {
    const o = old.get(name);
    if (!o) continue;
    const fields = FIELDS.filter((f) => canonicalJson((o as Record<string, unknown>)[f]) !== canonicalJson((t as Record<string, unknown>)[f]));
    if (fields.length) changed.push({ tool: name, fields, descriptionBefore: o.description, descriptionAfter: t.description });
  }
  return { added: [...next.keys()].filter((n) => !old.has(n)), removed: [...old.keys()].filter((n) => !next.has(n)), changed };
}

function randomValue(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 2 || r < 0.3) return [1, 'a', true, null, undefined, 0, ''][Math.floor(rnd() * 7)];
  if (r < 0.5) return Array.from({ length: Math.floor(rnd() * 3) }, () => randomValue(rnd, depth + 1));
  const o: Record<string, unknown> = {};
  for (const k of ['type', 'enum', 'x', 'properties'].filter(() => rnd() < 0.5)) o[k] = randomValue(rnd, depth + 1);
  return o;
}

/** A copy as another server process would send it: new objects, keys in another order, sometimes a member changed. */
function copy(v: unknown, rnd: () => number, change: number): unknown {
  if (rnd() < change) return randomValue(rnd, 1);
  if (Array.isArray(v)) return v.map((x) => copy(x, rnd, change));
  if (v === null || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  if (rnd() < 0.5) keys.reverse();
  const o: Record<string, unknown> = {};
  for (const k of keys) o[k] = copy((v as Record<string, unknown>)[k], rnd, change);
  if (rnd() < 0.1) o.extra = undefined;
  return o;
}

function randomTool(rnd: () => number, name: string): Tool {
  return { name, description: `d${Math.floor(rnd() * 2)}`, inputSchema: { type: 'object', properties: randomValue(rnd, 1) }, annotations: randomValue(rnd, 1) } as Tool;
}

describe('diffToolLists and sameDefinition', () => {
  it('diffToolLists gives the map pairing on 3000 random pairs of lists (same order, reordered, duplicates, added, removed)', () => {
    let positional = 0;
    let changes = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const rnd = prng(seed);
      const names = ['a', 'b', 'c', 'd', 'e', 'f'].filter(() => rnd() < 0.7);
      if (rnd() < 0.15 && names.length) names.push(names[0]);
      const before = names.map((n) => randomTool(rnd, n));
      const change = seed % 3 === 0 ? 0.05 : 0;
      let after = before.map((t) => Object.fromEntries(Object.entries(t).reverse().map(([k, v]) => [k, k === 'name' ? v : copy(v, rnd, change)])) as Tool);
      if (seed % 5 === 1) after = [...after].reverse();
      if (seed % 7 === 2) after = after.slice(1);
      if (seed % 11 === 3) after.push(randomTool(rnd, 'z'));
      const sameOrder = after.length === before.length && after.every((t, i) => t.name === before[i].name) && new Set(names).size === names.length;
      if (sameOrder) positional++;
      const expected = reference(before, after);
      changes += expected.changed.length;
      assert.deepEqual(diffToolLists(before, after), expected, `seed ${seed}`);
    }
    assert.ok(positional > 500 && changes > 500, `${positional} same-order pairs, ${changes} changed tools`);
  });

  it('sameDefinition answers "equal" only where canonicalJson does, and does on reordered copies', () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const rnd = prng(seed);
      const a = randomValue(rnd, 0);
      const b = copy(a, rnd, seed % 2 ? 0.1 : 0);
      if (sameDefinition(a, b)) assert.equal(canonicalJson(a), canonicalJson(b), `seed ${seed}`);
      if (seed % 2 === 0) assert.ok(sameDefinition(a, b), `seed ${seed}: a reordered copy`);
    }
    // An own "__proto__" member (JSON.parse makes one) is never the other object's prototype.
    assert.equal(sameDefinition(JSON.parse('{"__proto__": {}}'), { x: 1 }), false);
    assert.equal(sameDefinition(JSON.parse('{"__proto__": {}, "y": 1}'), { y: 1, x: 1 }), false);
    assert.equal(sameDefinition([1, [2, { a: 3 }]], [1, [2, { a: 3, b: undefined }]]), true);
    assert.equal(sameDefinition([1, [2, { a: 3 }]], [1, [2, { a: '3' }]]), false);
    assert.equal(sameDefinition({ a: [] }, { a: {} }), false);
  });
});
