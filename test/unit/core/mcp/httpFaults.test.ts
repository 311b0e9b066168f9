/**
 * Streamable HTTP as the host guards it (HttpGuard, LivenessWatch): a response stream cut without
 * an answer fails that call at once, so does an answer over the bound; an error names the status
 * and the URL; a server that goes away is noticed without a call, restarted with backoff, and
 * connected again when it is back.
 */
import * as assert from 'node:assert/strict';
import { startFaultyHttp, type HttpServer } from '../../../fixtures/faulty/cliFaultHarness';
import { settings, useTestEnv, waitForState } from '../helpers';

const OBJ = { type: 'object' };

describe('HTTP servers that misbehave', function () {
  this.timeout(30_000);
  // Registered first, so it runs before the test env checks that no child process is left.
  const servers: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const env = useTestEnv();

  for (const mode of ['json', 'sse'] as const) {
    it(`${mode} responses: cut streams, a status, an answer over the bound each fail at once with words; the next call works`, async () => {
      const h = await startFaultyHttp(env.dir, `f-${mode}`, {
        mode,
        tools: ['cutSse', 'cutSsePrimed', 'resetSse', 'cutJson', 'status500', 'big', 'ok'].map((name) => ({ name, inputSchema: OBJ })),
        calls: {
          cutSse: [{ cutSse: { partial: true } }],
          cutSsePrimed: [{ cutSse: { priming: true, partial: true } }],
          resetSse: [{ cutSse: { partial: true, destroy: true } }],
          cutJson: [{ cutJson: { textBytes: 50_000 } }],
          status500: [{ status: 500, body: 'trouble' }],
          big: [{ reply: { textBytes: 200_000 } }],
          ok: [{ reply: { text: 'fine' } }],
        },
      });
      servers.push(h);
      const host = await env.started({
        settings: settings({ servers: [{ ...env.remote('f', h.url), maxMessageBytes: 100_000 }], autoApprove: ['*/*'], timeoutMs: 20_000 }),
      });
      const expected: Record<string, RegExp> = {
        cutSse: /the server ended the response stream \(http:\/\/127\.0\.0\.1:\d+\/mcp\) without answering/,
        cutSsePrimed: /could not be resumed \(HTTP 405\)/,
        resetSse: /the response stream from http:\/\/127\.0\.0\.1:\d+\/mcp broke before the answer/,
        cutJson: /the response from http:\/\/127\.0\.0\.1:\d+\/mcp broke before the answer/,
        status500: /HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/mcp: .*trouble/,
        big: /server "f" sent a message of .*; the limit is 97\.7 KiB \(mcpHost\.maxMessageBytes\)/,
      };
      for (const [name, text] of Object.entries(expected)) {
        const r = await host.call({ name: `f__${name}` });
        assert.equal(r.outcome, 'error', `${name}: ${r.modelText}`);
        assert.ok(r.durationMs < 15_000, `${name} took ${r.durationMs} ms`);
        assert.match(r.modelText, text, name);
      }
      assert.equal((await host.call({ name: 'f__ok' })).modelText, 'fine');
      assert.equal(host.snapshot().server('f')?.state.kind, 'connected');
    });
  }

  it('a server that goes away is noticed without a call (restarting, naming URL and cause), then connected again when it is back', async () => {
    const first = await env.http();
    const port = new URL(first.url).port;
    const host = await env.started({
      settings: settings({ servers: [env.remote('web', first.url)], autoApprove: ['*/*'] }),
      backoff: { initialDelayMs: 300, maxDelayMs: 1000, maxFailures: 20 },
    });
    assert.equal((await host.call({ name: 'web__echo', args: { text: 'up' } })).outcome, 'ok');
    await first.close();
    const restarting = await waitForState(host, 'web', (s) => s.kind === 'restarting');
    assert.match(restarting.kind === 'restarting' ? restarting.reason : '', new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNREFUSED`));
    const during = await host.call({ name: 'web__echo', args: { text: 'down' } });
    assert.equal(during.outcome, 'error');
    assert.match(during.modelText, /restarting/);
    await env.http({ PORT: port });
    await waitForState(host, 'web', (s) => s.kind === 'connected', 15_000);
    assert.equal((await host.call({ name: 'web__echo', args: { text: 'back' } })).modelText, 'echo: back');
  });
});
