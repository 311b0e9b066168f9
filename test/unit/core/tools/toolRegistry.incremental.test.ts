/**
 * Issue 10 (registry refresh ≤ 2 ms among 25,000 tools): while no two tools want the same name, one
 * server's new list renames only that server's tools. The result must be exactly the full naming's,
 * whatever the sequence of updates: checked against assignToolNames over the same lists after every
 * step of random sequences that go in and out of collisions, duplicates and removed servers.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { serverCandidates } from '../../../../src/core/tools/assignToolNames';
import { ToolRegistry } from '../../../../src/core/tools/toolRegistry';
import { assertFullNaming, prng, randomList, randomUpdate } from './registryFuzz';

// Names that collide across servers in "reject" mode, and after sanitizing in "prefix" mode
// (`get.data` and `get_data` both become `…__get_data`), and a server listing a name twice.
const POOL = ['search', 'get.data', 'get_data', 'read', 'write', 'x', 'x', 'list', 'a/b', 'a_b'];
const SERVERS = ['alpha', 'beta', 'gamma', 'delta'];

describe('ToolRegistry: renaming one server matches the full naming', () => {
  for (const mode of ['prefix', 'reject'] as const) {
    it(`${mode}: 200 random sequences of 30 updates and removals`, () => {
      let incremental = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const rnd = prng(seed);
        const registry = new ToolRegistry(mode, SERVERS);
        const lists = new Map<string, Tool[]>();
        const seen = new Set<string>();
        for (let step = 0; step < 30; step++) {
          randomUpdate(registry, SERVERS, lists, rnd, 0.2, () => randomList(rnd, POOL, 5));
          const where = `seed ${seed}, step ${step}`;
          const { expected } = assertFullNaming(registry, SERVERS, lists, mode, seen, where);
          for (const t of expected.tools) assert.equal(registry.find(t.server, t.tool.name)?.name, t.name, `${where}: find ${t.server}/${t.tool.name}`);
          const candidates = SERVERS.filter((s) => lists.has(s)).flatMap((s) => serverCandidates(s, lists.get(s)!, mode).candidates.map((c) => c.name));
          if (new Set(candidates).size === candidates.length) incremental++;
        }
        registry.dispose();
      }
      // Both paths were exercised: many steps without any collision, many with one.
      assert.ok(incremental > 500 && incremental < 5500, `${incremental} of 6000 steps without collisions`);
    });
  }

  it('a server outside the settings order keeps its list but names nothing, and its removal changes nothing', () => {
    const registry = new ToolRegistry('prefix', ['a']);
    registry.setServerTools('a', [{ name: 't', inputSchema: { type: 'object' } }]);
    registry.setServerTools('zz', [{ name: 't', inputSchema: { type: 'object' } }]);
    assert.deepEqual(registry.entries().map((e) => e.name), ['a__t']);
    registry.configure('prefix', ['a', 'zz']);
    assert.deepEqual(registry.entries().map((e) => e.name), ['a__t', 'zz__t']);
    registry.removeServer('zz');
    assert.deepEqual(registry.entries().map((e) => e.name), ['a__t']);
    assert.equal(registry.lookup('zz__t'), undefined);
    registry.dispose();
  });
});
