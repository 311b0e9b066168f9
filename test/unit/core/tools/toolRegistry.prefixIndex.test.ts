/**
 * Issue 10 (a 25,000-tool registry in ≤ 50 ms): in prefix mode, when server prefixes tell servers
 * apart, the registry names without a map of every name (each server's candidates need only differ
 * from each other, ServerCandidates.distinct) and looks names up by prefix (PrefixedNameIndex).
 * Checked against the full naming (assignToolNames) after every step of random sequences over
 * server sets that do and do not allow it, with names that sanitizing or shortening makes equal.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { serverCandidates } from '../../../../src/core/tools/assignToolNames';
import { PrefixedNameIndex } from '../../../../src/core/tools/prefixedNameIndex';
import { ToolRegistry } from '../../../../src/core/tools/toolRegistry';
import { assertFullNaming, prng, randomList as randomListOf, randomUpdate } from './registryFuzz';

const LONG = 'x'.repeat(70);
// Sanitizing (`get.data`/`get_data`), shortening (two long names with one ending), a name that is
// another's shortened form can only meet it by hash, names containing the separator, duplicates.
const POOL = ['search', 'get.data', 'get_data', 'x', 'x', 'a/b', 'a_b', '__a', 'b__c', `${LONG}1`, `${LONG}2`, LONG.slice(0, 60), '', '.'];
const SERVER_SETS: readonly (readonly string[])[] = [
  ['alpha', 'beta', 'gamma'],
  ['a', 'a__b', 'b'], // "a" + "__b__c" meets "a__b" + "__c": no prefix index
  ['a_', 'a', 'c'], // "a_" ends with "_": no prefix index
  ['a.b', 'a_b', 'c'], // same prefix: no prefix index
  ['s'.repeat(58), 'short', 't'.repeat(40)], // prefixes that shortening cuts into
];

const randomList = (rnd: () => number): Tool[] => randomListOf(rnd, POOL, 6);

describe('ToolRegistry: lookup by prefix matches the full naming', () => {
  for (const servers of SERVER_SETS) {
    it(`servers ${servers.map((s) => s.slice(0, 8)).join(', ')}: 150 random sequences of 30 updates`, () => {
      let partitionable = 0;
      for (let seed = 1; seed <= 150; seed++) {
        const rnd = prng(seed);
        const registry = new ToolRegistry('prefix', servers);
        const lists = new Map<string, Tool[]>();
        const seen = new Set<string>();
        for (let step = 0; step < 30; step++) {
          randomUpdate(registry, servers, lists, rnd, 0.15, () => randomList(rnd));
          if (rnd() < 0.1) registry.configure('prefix', [...servers]); // same order, a new array: nothing to do
          const where = `seed ${seed}, step ${step}`;
          const { expected, current } = assertFullNaming(registry, servers, lists, 'prefix', seen, where);
          for (const t of expected.tools) {
            // The same tool name under every other server's prefix is another tool or none.
            for (const other of servers) {
              const q = `${other}__${t.tool.name}`;
              assert.equal(registry.lookup(q)?.name, current.has(q) ? q : undefined, `${where}: lookup ${q}`);
            }
          }
          for (const name of ['', '__', 'alpha', 'alpha__', '__search', 'nobody__search']) {
            assert.equal(registry.lookup(name)?.name, current.has(name) ? name : undefined, `${where}: ${name}`);
          }
          if (PrefixedNameIndex.forServers(servers) && servers.every((s) => !lists.has(s) || serverCandidates(s, lists.get(s)!, 'prefix').distinct)) partitionable++;
        }
        registry.dispose();
      }
      if (PrefixedNameIndex.forServers(servers)) assert.ok(partitionable > 500 && partitionable < 4400, `${partitionable} of 4500 steps named by prefix`);
      else assert.equal(partitionable, 0);
    });
  }

  it('tells servers apart by prefix only when no prefix has "__", ends with "_", or is another\'s', () => {
    assert.ok(PrefixedNameIndex.forServers(['alpha', 'beta', 'a_b', 'a-b', '_x']));
    assert.equal(PrefixedNameIndex.forServers(['a', 'a__b']), undefined);
    assert.equal(PrefixedNameIndex.forServers(['a_']), undefined);
    assert.equal(PrefixedNameIndex.forServers(['']), undefined);
    assert.equal(PrefixedNameIndex.forServers(['a.b', 'a_b']), undefined);
  });
});

describe('serverCandidates: distinct', () => {
  for (const mode of ['prefix', 'reject'] as const) {
    it(`${mode}: true exactly when no two candidate names are equal (each then starting with the server's part)`, () => {
      let distinct = 0;
      for (let seed = 1; seed <= 3000; seed++) {
        const rnd = prng(seed);
        const server = ['alpha', 'a.b', 's'.repeat(60)][seed % 3];
        const c = serverCandidates(server, randomList(rnd).concat(randomList(rnd)), mode);
        const names = c.candidates.map((t) => t.name);
        const unique = new Set(names).size === names.length;
        const head = mode === 'prefix' ? `${server.replace(/\./g, '_')}__` : '';
        // Unknown (false) only where shortening cut into a very long server name.
        if (server.length < 60) assert.equal(c.distinct, unique, `seed ${seed}: ${names.join(' ')}`);
        else if (c.distinct) assert.ok(unique, `seed ${seed}`);
        if (c.distinct) {
          distinct++;
          for (const n of names) assert.ok(n.startsWith(head), `seed ${seed}: ${n}`);
        }
      }
      assert.ok(distinct > 300 && distinct < 2900, `${distinct} of 3000 lists distinct`);
    });
  }
});
