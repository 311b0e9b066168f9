/**
 * Cancellation on a 2026-07-28 connection over Streamable HTTP (issue 27 item 6): Stop closes the
 * call's own response stream, which is the revision's cancellation signal, instead of POSTing
 * `notifications/cancelled`. The SDK does that only when the transport says it has a stream per
 * request (`hasPerRequestStream`), so every wrapper the host puts around the SDK's HTTP transport
 * must say so too. Against the modern-only fixture, through the whole host.
 */
import * as assert from 'node:assert/strict';
import { readFixtureLog, startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { settings, stateKind, useTestEnv, waitFor } from '../helpers';

describe('Stop on a 2026-07-28 HTTP connection closes the call stream', function () {
  this.timeout(60_000);
  // Registered before useTestEnv's, so the fixture is gone when it checks that no child is left.
  let fixture: HttpFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
  const env = useTestEnv();

  it('the server sees its call aborted and no notifications/cancelled; the call is audited cancelled', async () => {
    const log = env.file('modern.jsonl');
    fixture = await startHttpFixture({ script: 'modern/server', args: ['--http'], env: { FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1' } });
    const host = await env.started({ settings: settings({ servers: [{ ...env.remote('modern', fixture.url), connectTimeoutMs: 20_000 }], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(host, 'modern'), 'connected', host.log.text());
    const stop = new AbortController();
    const call = host.call({ name: 'modern__slow', args: { ms: 20_000, steps: 40 }, signal: stop.signal });
    await waitFor('the fixture to run the call', () => readFixtureLog(log).some((e) => e.event === 'http' && e.mcpMethod === 'tools/call' && e.mcpName === 'slow'));
    stop.abort();
    const r = await call;
    assert.equal(r.outcome, 'cancelled', r.modelText);
    await waitFor('the fixture to stop the call', () => readFixtureLog(log).some((e) => e.event === 'aborted' && e.tool === 'slow'));
    const said = readFixtureLog(log).filter((e) => e.event === 'http' && e.mcpMethod === 'notifications/cancelled');
    assert.deepEqual(said, [], 'the stream close is the signal; no notifications/cancelled is sent');
  });
});
