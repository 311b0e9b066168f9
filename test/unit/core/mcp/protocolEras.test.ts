/**
 * Both eras per server (issue 27, item 2): the `protocol` setting picks the SDK's negotiation; in
 * `auto` the era found is kept per server identity (a file for the CLI, validated on read) and
 * handed back as the SDK's `prior`; the era shows in the connection's description. Against a real
 * 2026-07-28-only server (SDK v2, stdio child) and a 2025-era fixture.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConnectionState } from '../../../../src/core/mcp/connectionState';
import { MAX_CACHE_TTL_MS } from '../../../../src/core/mcp/responseCache';
import { FileEraVerdictStore, LEGACY_VERDICT_MAX_AGE_MS, MemoryEraVerdictStore, negotiationMode, priorOf } from '../../../../src/core/mcp/eraVerdicts';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { FaultyStdio, removeTempDirs, tempDir } from '../../../fixtures/faulty/cliFaultHarness';
import { settings, stateKind, useTestEnv, type Any } from '../helpers';

const MODERN_ONLY = path.join(__dirname, 'modern', 'modernOnly.mjs');

function modernOnly(protocol?: StdioServerSettings['protocol']): StdioServerSettings {
  return { name: 'modern', type: 'stdio', enabled: true, command: process.execPath, args: [MODERN_ONLY], env: {}, connectTimeoutMs: 15_000, ...(protocol ? { protocol } : {}) };
}

describe('protocol eras per server', function () {
  this.timeout(60_000);
  const env = useTestEnv();
  after(() => removeTempDirs());

  it('maps the setting to the SDK: auto probes, 2025-11-25 never does, 2026-07-28 is pinned', () => {
    assert.equal(negotiationMode(undefined), 'auto');
    assert.equal(negotiationMode('auto'), 'auto');
    assert.equal(negotiationMode('2025-11-25'), 'legacy');
    assert.deepEqual(negotiationMode('2026-07-28'), { pin: '2026-07-28' });
  });

  it('a legacy verdict is a prior for a week, then the server is probed again', () => {
    const now = Date.parse('2026-12-05T12:00:00Z');
    assert.deepEqual(priorOf({ era: 'legacy', at: new Date(now - 1000).toISOString() }, now), { kind: 'legacy' });
    assert.equal(priorOf({ era: 'legacy', at: new Date(now - LEGACY_VERDICT_MAX_AGE_MS - 1).toISOString() }, now), undefined);
    assert.equal(priorOf(undefined, now), undefined);
  });

  it('a modern verdict is a prior only while its discover result is fresh (its ttlMs, capped)', () => {
    const now = Date.parse('2026-12-05T12:00:00Z');
    const discover = (ttlMs?: number) => ({ supportedVersions: ['2026-07-28'], capabilities: {}, ...(ttlMs !== undefined ? { ttlMs } : {}) }) as Any;
    const at = (ago: number) => new Date(now - ago).toISOString();
    assert.deepEqual(priorOf({ era: 'modern', discover: discover(60_000), at: at(59_000) }, now), { kind: 'modern', discover: discover(60_000) });
    assert.equal(priorOf({ era: 'modern', discover: discover(60_000), at: at(60_000) }, now), undefined);
    assert.equal(priorOf({ era: 'modern', discover: discover(0), at: at(0) }, now), undefined, "the SDK's default ttlMs 0: probe every time");
    assert.equal(priorOf({ era: 'modern', discover: discover(), at: at(0) }, now), undefined);
    assert.equal(priorOf({ era: 'modern', discover: discover(86_400_000), at: at(MAX_CACHE_TTL_MS) }, now), undefined, 'capped');
    assert.equal(priorOf({ era: 'modern', discover: discover(60_000), at: at(-5_000) }, now), undefined, 'a verdict from the future');
  });

  it('the file store keeps verdicts per identity, ignores an entry that does not validate and a file that does not parse', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-eras-'));
    try {
      const file = path.join(dir, 'protocol-eras.json');
      const store = new FileEraVerdictStore(file);
      await store.set('a', { era: 'legacy', at: '2026-12-05T12:00:00.000Z' });
      assert.deepEqual(await new FileEraVerdictStore(file).get('a'), { era: 'legacy', at: '2026-12-05T12:00:00.000Z' });
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      doc.servers.b = { era: 'modern', at: '2026-12-05T12:00:00.000Z' }; // modern without its discover result
      fs.writeFileSync(file, JSON.stringify(doc));
      assert.equal(await store.get('b'), undefined);
      assert.ok(await store.get('a'), 'a bad entry does not lose the others');
      await store.delete('a');
      assert.equal(await store.get('a'), undefined);
      fs.writeFileSync(file, '{ not json');
      assert.equal(await store.get('a'), undefined);
      assert.equal((fs.statSync(dir).mode & 0o077) === 0 || process.platform === 'win32', true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('auto: a 2026-07-28-only server connects modern, its tool is called, the verdict is kept and used next time', async () => {
    const eras = new MemoryEraVerdictStore();
    // The modern fixture, whose server/discover says it may be used again for a minute.
    const server = env.stdio('modern', 'modern/server', { env: { FIXTURE_LOG_REQUESTS: '1', FIXTURE_DISCOVER_TTL_MS: '60000' }, connectTimeoutMs: 15_000 });
    const discovers = () => env.events('modern').filter((e: Any) => e.event === 'request' && e.method === 'server/discover').length;
    const host = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }), eras });
    assert.equal(stateKind(host, 'modern'), 'connected', host.log.text());
    const described = ConnectionState.describe(host.snapshot().servers.find((s: Any) => s.name === 'modern')!.state);
    assert.match(described, /protocol 2026-07-28, modern/);
    const r = await host.call({ name: 'modern__echo', args: { text: 'hi' } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'echo: hi');
    const [verdict] = [...eras.entries.values()];
    assert.equal(verdict?.era, 'modern');
    assert.ok(verdict.discover, 'the discover result is kept');
    assert.equal(discovers(), 1);
    // A second host with the kept verdict connects from it: the discover result is fresh (60 s), no probe.
    const again = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }), eras });
    assert.equal(stateKind(again, 'modern'), 'connected', again.log.text());
    assert.equal((await again.call({ name: 'modern__echo', args: { text: 'x' } })).outcome, 'ok');
    assert.equal(discovers(), 1, again.log.text());
    assert.ok(!again.log.text().includes('detecting it again'), again.log.text());
  });

  it('2025-11-25 against a 2026-07-28-only server fails to start with a clear error', async () => {
    const host = await env.started({ settings: settings({ servers: [modernOnly('2025-11-25')] }) });
    assert.equal(stateKind(host, 'modern'), 'error');
    assert.match(ConnectionState.describe(host.snapshot().servers.find((s: Any) => s.name === 'modern')!.state), /protocol version/i);
  });

  it('auto against a 2025-era server: legacy, remembered as legacy, and a wrong modern verdict is probed again', async () => {
    const eras = new MemoryEraVerdictStore();
    const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), eras });
    assert.equal(stateKind(host, 'basic'), 'connected', host.log.text());
    const [[identity, verdict]] = [...eras.entries.entries()];
    assert.equal(verdict.era, 'legacy');
    // A fresh modern verdict is adopted with no round trip; the first request fails on the 2025-era server.
    const modern = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 60_000, serverInfo: { name: 'x', version: '1' } } as Any;
    await eras.set(identity, { era: 'modern', discover: modern, at: new Date().toISOString() });
    const again = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), eras });
    assert.equal(stateKind(again, 'basic'), 'connected', again.log.text());
    assert.match(again.log.text(), /the remembered protocol era \(modern\) did not work .*detecting it again/);
    assert.equal((await eras.get(identity))?.era, 'legacy');
    assert.equal((await again.call({ name: 'basic__echo', args: { text: 'x' } })).outcome, 'ok');
  });

  it('stopped while a remembered era hangs in its handshake: no second process is started, the verdict is kept', async () => {
    const faulty = new FaultyStdio(tempDir(), 'hanging', { initialize: [{ hang: true }] });
    const verdict = { era: 'legacy' as const, at: new Date().toISOString() };
    const eras = new (class extends MemoryEraVerdictStore {
      override async get(): Promise<typeof verdict> {
        return verdict;
      }
    })();
    const host = env.host({ settings: settings({ servers: [{ name: 'hanging', type: 'stdio', enabled: true, connectTimeoutMs: 30_000, ...faulty.settings() }] }), eras });
    const starting = host.start();
    const deadline = Date.now() + 20_000;
    while (!faulty.events().some((e) => e.event === 'hang')) {
      assert.ok(Date.now() < deadline, `the server never got initialize: ${JSON.stringify(faulty.events())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await host.close();
    await starting;
    // A retry would spawn within milliseconds of the failed handshake; give it ample time to show.
    await new Promise((r) => setTimeout(r, 1000));
    const starts = faulty.events().filter((e) => e.event === 'start');
    assert.equal(starts.length, 1, `processes started: ${JSON.stringify(faulty.events())}`);
    assert.ok(!host.log.text().includes('detecting it again'), host.log.text());
  });
});
