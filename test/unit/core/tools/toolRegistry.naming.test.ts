/**
 * Behaviour 3 through McpHost: two `collide` servers with the same tool names, started in both
 * connection orders, give identical mappings; every name is valid; every name routes back.
 */
import * as assert from 'node:assert/strict';
import type { ToolNamingMode } from '../../../../src/core/settings/hostSettings';
import { LONG_TOOL, MODEL_NAME, mapping, settings, useTestEnv, type Any, loaded } from '../helpers';

describe('McpHost: tool names with colliding servers', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  /** Starts servers "alpha" and "beta" (in that settings order), connecting `first` before the other. */
  async function startPair(mode: ToolNamingMode, first: 'alpha' | 'beta') {
    const host = env.host({
      settings: settings({
        servers: [
          env.stdio('alpha', 'collide', { env: { FIXTURE_NAME: 'alpha' } }),
          env.stdio('beta', 'collide', { env: { FIXTURE_NAME: 'beta' } }),
        ],
        toolNames: mode,
        autoApprove: ['*/*'],
      }),
    });
    const order: string[] = [];
    host.onDidChangeServerState((e) => e.state.kind === 'connected' && order.push(e.server));
    await host.servers.startServer(first);
    await host.servers.startServer(first === 'alpha' ? 'beta' : 'alpha');
    return { host, order };
  }

  for (const mode of ['prefix', 'reject'] as const) {
    it(`${mode}: identical mapping whichever server connects first; names valid; routing back to (server, tool)`, async () => {
      const [a, b] = await Promise.all([startPair(mode, 'alpha'), startPair(mode, 'beta')]);
      assert.deepEqual(a.order, ['alpha', 'beta']);
      assert.deepEqual(b.order, ['beta', 'alpha'], 'the other connection order');
      assert.deepEqual(mapping(b.host), mapping(a.host));
      assert.deepEqual(b.host.snapshot().problems, a.host.snapshot().problems);

      for (const host of [a.host, b.host]) {
        const entries = loaded(host);
        for (const e of entries) assert.match(e.name, MODEL_NAME, e.name);
        assert.equal(new Set(entries.map((e) => e.name)).size, entries.length);
        for (const e of entries) {
          const r = await host.call({ name: e.name });
          assert.equal(r.outcome, 'ok', e.name);
          assert.deepEqual(r.structuredContent, { tool: e.tool.name, server: e.server }, `${e.name} reaches ${e.server}/${e.tool.name}`);
        }
      }

      const m = mapping(a.host);
      if (mode === 'prefix') {
        const long = Object.keys(m).find((n) => m[n] === `alpha/${LONG_TOOL}`)!;
        assert.equal(long.length, 64);
        assert.ok(long.startsWith('alpha__a_very_long_tool_name'));
        const expected: Record<string, string> = {
          alpha__search: 'alpha/search',
          alpha__get_data: 'alpha/get.data',
          alpha____: 'alpha/名前',
          beta__search: 'beta/search',
          beta__get_data: 'beta/get.data',
          beta____: 'beta/名前',
        };
        for (const [name, route] of Object.entries(expected)) assert.equal(m[name], route, name);
        assert.equal(Object.keys(m).length, 8);
        assert.deepEqual(a.host.snapshot().problems, []);
      } else {
        // Bare names; beta's duplicates are refused, with a warning naming both servers.
        assert.deepEqual(
          Object.values(m).sort(),
          ['alpha/get.data', `alpha/${LONG_TOOL}`, 'alpha/search', 'alpha/名前'].sort(),
        );
        assert.equal(m.search, 'alpha/search');
        assert.equal(m.get_data, 'alpha/get.data');
        const problems = a.host.snapshot().problems;
        assert.equal(problems.length, 4);
        for (const p of problems) {
          assert.equal(p.severity, 'warning');
          assert.equal(p.server, 'beta');
          assert.match(p.message, /server "beta".*already used by server "alpha"/);
        }
      }
    });
  }

  it('reject mode: the owner is the first server in settings even while only the later one is connected', async () => {
    const host = env.host({
      settings: settings({
        servers: [
          env.stdio('alpha', 'collide', { env: { FIXTURE_NAME: 'alpha', FIXTURE_TOOLS: 'search' } }),
          env.stdio('beta', 'collide', { env: { FIXTURE_NAME: 'beta', FIXTURE_TOOLS: 'search,lookup' } }),
        ],
        toolNames: 'reject',
        autoApprove: ['*/*'],
      }),
    });
    const betaFirst = new Promise<Record<string, string>>((resolve) => {
      const d = host.onDidChangeServerState((e) => {
        if (e.server === 'beta' && e.state.kind === 'connected') {
          d.dispose();
          resolve(mapping(host));
        }
      });
    });
    await host.servers.startServer('beta');
    // While alpha is not connected, beta's search is the only one.
    assert.deepEqual(await betaFirst, { search: 'beta/search', lookup: 'beta/lookup' });
    assert.equal(((await host.call({ name: 'search' })).structuredContent as Any).server, 'beta');
    await host.servers.startServer('alpha');
    assert.deepEqual(mapping(host), { search: 'alpha/search', lookup: 'beta/lookup' });
    assert.equal(((await host.call({ name: 'search' })).structuredContent as Any).server, 'alpha');
    assert.match(host.snapshot().problems[0].message, /tool "search" of server "beta" is not loaded: the name "search" is already used by server "alpha"/);
  });
});
