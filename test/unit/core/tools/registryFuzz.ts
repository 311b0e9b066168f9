/**
 * Random update sequences for the registry, checked against the full naming: the shared part of
 * the registry's fuzz tests (incremental renaming, lookup by prefix) and the tool-list diff's.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { assignToolNames, type NamingResult } from '../../../../src/core/tools/assignToolNames';
import type { ToolRegistry } from '../../../../src/core/tools/toolRegistry';

/** A small deterministic PRNG, so a failing sequence can be replayed by its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Fewer than `max` tools named from `pool` (repeats allowed), each with one of three descriptions. */
export function randomList(rnd: () => number, pool: readonly string[], max: number): Tool[] {
  const n = Math.floor(rnd() * max);
  return Array.from({ length: n }, () => {
    const name = pool[Math.floor(rnd() * pool.length)];
    return { name, description: `d${Math.floor(rnd() * 3)}`, inputSchema: { type: 'object' } } as Tool;
  });
}

/** One step: a random server is removed (chance `removeChance`) or gets a new random list; `lists` follows. */
export function randomUpdate(registry: ToolRegistry, servers: readonly string[], lists: Map<string, Tool[]>, rnd: () => number, removeChance: number, list: () => Tool[]): void {
  const server = servers[Math.floor(rnd() * servers.length)];
  if (rnd() < removeChance) {
    registry.removeServer(server);
    lists.delete(server);
  } else {
    const tools = list();
    registry.setServerTools(server, tools);
    lists.set(server, tools);
  }
}

/**
 * The registry holds exactly the full naming of `lists` (entries in order, problems), every name
 * it gave before and not now (`seen`, updated here) is gone, and every tool is found by its name.
 * Returns the full naming and its current names for the caller's own checks.
 */
export function assertFullNaming(
  registry: ToolRegistry,
  servers: readonly string[],
  lists: ReadonlyMap<string, Tool[]>,
  mode: 'prefix' | 'reject',
  seen: Set<string>,
  where: string,
): { expected: NamingResult; current: ReadonlySet<string> } {
  const expected = assignToolNames(
    servers.filter((s) => lists.has(s)).map((s) => ({ server: s, tools: lists.get(s)! })),
    mode,
  );
  assert.deepEqual(
    registry.entries().map((e) => [e.name, e.server, e.tool]),
    expected.tools.map((t) => [t.name, t.server, t.tool]),
    where,
  );
  assert.deepEqual(registry.problems(), expected.problems, where);
  for (const t of expected.tools) seen.add(t.name);
  const current = new Set(expected.tools.map((t) => t.name));
  for (const name of seen) if (!current.has(name)) assert.equal(registry.lookup(name), undefined, `${where}: ${name} is gone`);
  for (const t of expected.tools) assert.equal(registry.lookup(t.name)?.tool, t.tool, `${where}: lookup ${t.name}`);
  return { expected, current };
}
