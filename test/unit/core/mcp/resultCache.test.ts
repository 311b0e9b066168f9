/**
 * Result caching that honours 2026-07-28 `ttlMs` / `cacheScope` (issue 27, item 3). Against the
 * modern-only fixture (tools/list: ttlMs 60 s public; modern://notes: ttlMs 5 s private), over stdio
 * and Streamable HTTP: a reconnect's discovery takes the fresh cached tool list (no tools/list sent),
 * a list change is never answered from the cache, a person's refresh always asks the server; a notes
 * read is served again while fresh. The cache itself: one identity (credentials included) at a time,
 * a server's ttlMs capped, `ttlMs: 0` stale at once.
 */
import * as assert from 'node:assert/strict';
import type { ListedTools } from '../../../../src/core/mcp/listAllTools';
import { MAX_CACHE_TTL_MS, ServerResponseCache } from '../../../../src/core/mcp/responseCache';
import { readFixtureLog } from '../../../fixtures/fixtureServers';
import { loaded, settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

for (const kind of ['stdio', 'http'] as const) {
  describe(`result caching with a 2026-07-28 server over ${kind}`, function () {
    this.timeout(60_000);
    const env = useTestEnv();
    let log = '';

    async function started(e: TestEnv) {
      let server;
      if (kind === 'stdio') {
        server = e.stdio('modern', 'modern/server', { env: { FIXTURE_LOG_REQUESTS: '1' }, connectTimeoutMs: 15_000 });
        log = e.logOf('modern');
      } else {
        log = e.file('modern.jsonl');
        const f = await e.http({ FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1' }, { script: 'modern/server', args: ['--http'] });
        server = { ...e.remote('modern', f.url), connectTimeoutMs: 15_000 };
      }
      return e.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }) });
    }

    /** How often the fixture was sent `method` (stdio: its request log; HTTP: the Mcp-Method of each POST). */
    const sent = (method: string) => readFixtureLog(log).filter((e: Any) => (e.event === 'request' ? e.method : e.event === 'http' ? e.mcpMethod : undefined) === method).length;

    it('a reconnect takes the fresh cached tools list; a change or a refresh asks the server', async () => {
      const host = await started(env);
      const names = () => loaded(host).map((t) => t.name);
      assert.equal(sent('tools/list'), 1);
      const listed = names();
      assert.ok(listed.includes('modern__echo'));

      await host.servers.stopServer('modern');
      await host.servers.startServer('modern');
      assert.equal(sent('tools/list'), 1, 'the list the server allowed to keep for 60 s was not asked for again');
      assert.deepEqual(names(), listed);
      assert.equal((await host.call({ name: 'modern__echo', args: { text: 'cached' } })).modelText, 'echo: cached');

      // A change announced on the listen stream is never answered from the cache.
      assert.equal((await host.call({ name: 'modern__toggle_extra', args: {} })).outcome, 'ok');
      await waitFor('extra to be listed', () => names().includes('modern__extra'), 15_000);
      assert.equal(sent('tools/list'), 2);

      // A person's refresh always asks.
      await host.servers.refreshTools('modern');
      assert.equal(sent('tools/list'), 3);
      await host.call({ name: 'modern__toggle_extra', args: {} }); // leave the HTTP fixture's state as found
    });

    it('a private resource read is served again while its ttlMs runs', async () => {
      const host = await started(env);
      const first = await host.catalog.readResource({ server: 'modern', uri: 'modern://notes' });
      const second = await host.catalog.readResource({ server: 'modern', uri: 'modern://notes' });
      assert.deepEqual(second.contents, first.contents);
      assert.equal(sent('resources/read'), 1, 'ttlMs 5 s: one read reached the server');
    });
  });
}

describe('ServerResponseCache', () => {
  const listed: ListedTools = { tools: [{ name: 't', inputSchema: { type: 'object' } }], problems: [], ttlMs: 60_000 };
  const key = { method: 'resources/read', params: 'modern://notes', partition: '["s@1","id"]' };

  it('caps a server\'s ttlMs, and ttlMs 0 (or none) is stale at once', () => {
    let now = 1_000_000;
    const cache = new ServerResponseCache(MAX_CACHE_TTL_MS, () => now);
    cache.useIdentity('a');
    cache.set(key, { value: '{}', expiresAt: now + 24 * 3600_000, scope: 'private' });
    assert.equal(cache.get(key)?.expiresAt, now + MAX_CACHE_TTL_MS);
    cache.keepTools(listed, 24 * 3600_000);
    now += MAX_CACHE_TTL_MS - 1;
    assert.deepEqual(cache.freshTools(), listed);
    now += 1;
    assert.equal(cache.freshTools(), undefined, 'past the cap');
    cache.keepTools(listed, 0);
    assert.equal(cache.freshTools(), undefined);
    cache.keepTools({ tools: [], problems: [] }, undefined);
    assert.equal(cache.freshTools(), undefined);
  });

  it('holds one identity at a time: another server or credential starts empty', () => {
    const cache = new ServerResponseCache();
    assert.equal(cache.useIdentity('token-a'), 'token-a', 'the partition of private results is the identity');
    cache.set(key, { value: '{"secret":1}', expiresAt: Date.now() + 1000, scope: 'public' });
    cache.keepTools(listed, 60_000);
    cache.useIdentity('token-a');
    assert.ok(cache.get(key) && cache.freshTools(), 'the same identity keeps what it had');
    cache.useIdentity('token-b');
    assert.equal(cache.get(key), undefined);
    assert.equal(cache.freshTools(), undefined);
  });

  it('a change drops the tools list', () => {
    const cache = new ServerResponseCache();
    cache.useIdentity('a');
    cache.keepTools(listed, 60_000);
    cache.dropTools();
    assert.equal(cache.freshTools(), undefined);
  });
});
