/**
 * Behaviour 3 (pure part): exposed tool names are unique, valid for model APIs, stable, and never
 * depend on which server connected first.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { ToolRegistry } from '../../../../src/core/tools/toolRegistry';
import { LONG_TOOL, MODEL_NAME } from '../helpers';

const tool = (name: string, description = `tool ${name}`): Tool => ({ name, description, inputSchema: { type: 'object' } });
const tools = (...names: string[]) => names.map((n) => tool(n));

describe('ToolRegistry', () => {
  const a = tools('search', 'get.data', LONG_TOOL);
  const b = tools('search', 'get_data', 'other');

  for (const mode of ['prefix', 'reject'] as const) {
    it(`${mode}: the mapping depends on settings order, never on the order servers connected`, () => {
      const r1 = new ToolRegistry(mode, ['a', 'b']);
      r1.setServerTools('a', a);
      r1.setServerTools('b', b);
      const r2 = new ToolRegistry(mode, ['a', 'b']);
      r2.setServerTools('b', b);
      r2.setServerTools('a', a);
      const dump = (r: ToolRegistry) => r.entries().map((e) => [e.name, e.server, e.tool.name, e.definitionHash]);
      assert.deepEqual(dump(r2), dump(r1));
      assert.deepEqual(r2.problems(), r1.problems());
      for (const e of r1.entries()) {
        assert.match(e.name, MODEL_NAME);
        assert.equal(r1.lookup(e.name), e);
        assert.equal(r1.find(e.server, e.tool.name), e);
      }
      if (mode === 'reject') {
        assert.equal(r1.lookup('search')?.server, 'a');
        assert.ok(r1.problems().some((p) => p.server === 'b' && /"search"/.test(p.message)));
      }
      r1.dispose();
      r2.dispose();
    });
  }

  it('reconfiguring the server order renames deterministically', () => {
    const r = new ToolRegistry('reject', ['a', 'b']);
    r.setServerTools('b', b);
    r.setServerTools('a', a);
    assert.equal(r.lookup('search')?.server, 'a');
    r.configure('reject', ['b', 'a']);
    assert.equal(r.lookup('search')?.server, 'b');
    r.configure('prefix', ['b', 'a']);
    assert.equal(r.lookup('a__search')?.server, 'a');
    assert.equal(r.lookup('b__search')?.server, 'b');
    r.dispose();
  });

  it('records each change as {ts, server, added, removed, changed} and keeps a bounded history, newest first', () => {
    const r = new ToolRegistry('prefix', ['s'], 3);
    const events: unknown[] = [];
    r.onDidChangeToolList((e) => events.push(e));
    assert.equal(r.setServerTools('s', [tool('a'), tool('b')]), undefined, 'first discovery is no change');
    r.setServerTools('s', [tool('a'), tool('b')]);
    assert.equal(events.length, 0, 'an identical list is no change');
    const e1 = r.setServerTools('s', [tool('a', 'new words'), tool('c')], new Date('2025-01-01T00:00:00Z'))!;
    assert.deepEqual(Object.keys(e1).sort(), ['added', 'changed', 'removed', 'server', 'ts']);
    assert.deepEqual(e1, {
      ts: '2025-01-01T00:00:00.000Z',
      server: 's',
      added: ['c'],
      removed: ['b'],
      changed: [{ tool: 'a', fields: ['description'], descriptionBefore: 'tool a', descriptionAfter: 'new words' }],
    });
    for (let i = 0; i < 5; i++) r.setServerTools('s', [tool('a', `v${i}`)]);
    const h = r.history('s');
    assert.equal(h.length, 3, 'bounded');
    assert.equal(h[0].changed[0].descriptionAfter, 'v4', 'newest first');
    assert.equal(events.length, 6);
    r.removeServer('s');
    assert.equal(r.history('s').length, 3, 'history survives a stop');
    r.removeServer('s', false);
    assert.equal(r.history('s').length, 0);
    r.dispose();
  });
});
