/**
 * Behaviour 3 (pure part): exposed tool names are unique, valid for model APIs, stable, and never
 * depend on which server connected first.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { assignToolNames } from '../../../../src/core/tools/assignToolNames';
import { LONG_TOOL, MODEL_NAME } from '../helpers';

const tool = (name: string, description = `tool ${name}`): Tool => ({ name, description, inputSchema: { type: 'object' } });
const tools = (...names: string[]) => names.map((n) => tool(n));
const sha6 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 6);
const names = (r: ReturnType<typeof assignToolNames>) => Object.fromEntries(r.tools.map((t) => [t.name, `${t.server}/${t.tool.name}`]));

describe('assignToolNames', () => {
  it('prefix mode: every tool of every server, routed back to (server, original tool)', () => {
    const r = assignToolNames(
      [
        { server: 'orders', tools: tools('search', 'get.data') },
        { server: 'kb', tools: tools('search') },
      ],
      'prefix',
    );
    assert.deepEqual(names(r), { orders__search: 'orders/search', orders__get_data: 'orders/get.data', kb__search: 'kb/search' });
    assert.deepEqual(r.problems, []);
  });

  it('keeps names unique when sanitizing makes them equal, within a server and across servers', () => {
    const r = assignToolNames(
      [
        { server: 's', tools: tools('get.data', 'get_data', 'get:data') },
        { server: 'my.srv', tools: tools('x') },
        { server: 'my_srv', tools: tools('x') },
      ],
      'prefix',
    );
    const byRoute = Object.fromEntries(r.tools.map((t) => [`${t.server}/${t.tool.name}`, t.name]));
    // The tool whose raw name is exactly the candidate keeps it; the others get a stable hash suffix.
    assert.equal(byRoute['s/get_data'], 's__get_data');
    assert.equal(byRoute['s/get.data'], `s__get_data_${sha6('s/get.data')}`);
    assert.equal(byRoute['s/get:data'], `s__get_data_${sha6('s/get:data')}`);
    assert.equal(byRoute['my_srv/x'], 'my_srv__x');
    assert.equal(byRoute['my.srv/x'], `my_srv__x_${sha6('my.srv/x')}`);
    assert.equal(new Set(r.tools.map((t) => t.name)).size, r.tools.length);
    for (const t of r.tools) assert.match(t.name, MODEL_NAME);
  });

  it('a server listing the same tool twice keeps the first definition, with a warning', () => {
    const r = assignToolNames([{ server: 's', tools: [tool('a', 'first'), tool('a', 'second')] }], 'prefix');
    assert.equal(r.tools.length, 1);
    assert.equal(r.tools[0].tool.description, 'first');
    assert.match(r.problems[0].message, /lists the tool "a" more than once/);
  });

  it('reject mode refuses the later server’s duplicate with a warning naming both servers', () => {
    const r = assignToolNames(
      [
        { server: 'first', tools: tools('search', 'only_first') },
        { server: 'second', tools: tools('search', 'only_second') },
      ],
      'reject',
    );
    assert.deepEqual(names(r), { search: 'first/search', only_first: 'first/only_first', only_second: 'second/only_second' });
    assert.equal(r.problems.length, 1);
    const p = r.problems[0];
    assert.equal(p.severity, 'warning');
    assert.equal(p.server, 'second');
    assert.match(p.message, /"search"/);
    assert.match(p.message, /server "second"/);
    assert.match(p.message, /server "first"/);
  });

  it('reject mode treats names equal after sanitizing or shortening as duplicates too', () => {
    const r = assignToolNames(
      [
        { server: 'first', tools: tools('get.data', LONG_TOOL) },
        { server: 'second', tools: tools('get_data', LONG_TOOL) },
      ],
      'reject',
    );
    assert.deepEqual(
      r.tools.map((t) => `${t.server}/${t.tool.name}`),
      ['first/get.data', `first/${LONG_TOOL}`],
    );
    assert.equal(r.problems.length, 2);
    for (const p of r.problems) assert.match(p.message, /server "second".*server "first"/s);
  });

  it('every name is valid and unique for arbitrary (random) server and tool names', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = ['a', 'b', '_', '-', '.', ' ', '/', 'é', '名', '🙂', '1', 'Z'];
    const word = (max: number) => Array.from({ length: 1 + Math.floor(rand() * max) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    for (const mode of ['prefix', 'reject'] as const) {
      const servers = Array.from({ length: 6 }, (_, i) => ({
        server: `${word(8)}${i}`,
        tools: [...new Set(Array.from({ length: 25 }, () => word(rand() < 0.2 ? 120 : 4)))].map((n) => tool(n)),
      }));
      const r = assignToolNames(servers, mode);
      for (const t of r.tools) assert.match(t.name, MODEL_NAME, JSON.stringify(t.name));
      assert.equal(new Set(r.tools.map((t) => t.name)).size, r.tools.length, `${mode}: names are unique`);
      if (mode === 'prefix') assert.equal(r.tools.length, servers.reduce((n, s) => n + s.tools.length, 0), 'prefix mode loads every tool');
    }
  });
});
