/**
 * Behaviour 6: every outcome of a call through the router, against real servers, and many calls
 * in flight at once.
 */
import * as assert from 'node:assert/strict';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import { RecordingConfirmer, settings, useSharedTestEnv, useTestEnv, waitFor, waitForState, type Any, type RecordingLogger } from '../helpers';

describe('McpHost: calls and their outcomes', function () {
  this.timeout(20_000);
  describe('on one shared host (basic, slow)', () => {
    const env = useSharedTestEnv();
    let host: McpHost & { log: RecordingLogger };
    before(async () => {
      host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow')], autoApprove: ['*/*'] }) });
    });
    /** Calls the fixture `name` has received so far. */
    const callsTo = (name: string) => env.events(name).filter((e) => e.event === 'call');

    it('ok: the content becomes the tool message', async () => {
      const r = await host.call({ name: 'basic__echo', args: { text: 'hello' } });
      assert.equal(r.outcome, 'ok');
      assert.equal(r.isError, false);
      assert.equal(r.server, 'basic');
      assert.equal(r.tool, 'echo');
      assert.equal(r.confirmedBy, 'policy');
      assert.equal(r.modelText, 'echo: hello');
      assert.deepEqual(r.content, [{ type: 'text', text: 'echo: hello' }]);
      assert.deepEqual(r.parts, [{ type: 'text', text: 'echo: hello' }]);
      assert.ok(r.durationMs >= 0);
      // The echo tool's notifications/message reaches the host log.
      await host.log.waitForLine(/\[basic\] echo: echo called with "hello"/);
    });

    it('accepts arguments as a JSON string, as models send them', async () => {
      const r = await host.call({ name: 'basic__add', args: '{"a": 2, "b": 3}' });
      assert.equal(r.outcome, 'ok');
      assert.equal(r.modelText, '5');
      assert.deepEqual(r.structuredContent, { sum: 5 });
    });

    it('isError: the error text goes back to the model as the result', async () => {
      const r = await host.call({ name: 'basic__fail', args: { reason: 'disk full' } });
      assert.equal(r.outcome, 'isError');
      assert.equal(r.isError, true);
      assert.equal(r.modelText, 'something failed: disk full');
    });

    it('cancelled: aborting mid-call stops it and the server logs the cancellation', async () => {
      const ac = new AbortController();
      const pending = host.call({ name: 'slow__sleep', args: { ms: 10_000 }, signal: ac.signal });
      await waitFor('the server to receive the call', () => callsTo('slow').some((e) => e.tool === 'sleep'));
      const t0 = Date.now();
      ac.abort();
      const r = await pending;
      assert.ok(Date.now() - t0 < 3000, 'abort does not wait for the 10 s sleep');
      assert.equal(r.outcome, 'cancelled');
      assert.match(r.modelText, /cancelled by the user/);
      const call = callsTo('slow').find((e) => e.tool === 'sleep');
      await waitFor('the server to log the cancellation', () => env.events('slow').some((e) => e.event === 'cancelled' && e.requestId === call.requestId));
    });

    it('cancelled before it starts: an already aborted signal never reaches the server', async () => {
      const before = callsTo('basic').length;
      const ac = new AbortController();
      ac.abort();
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' }, signal: ac.signal });
      assert.equal(r.outcome, 'cancelled');
      assert.equal(callsTo('basic').length, before, 'the server was not called');
    });

    it('notFound: an unknown name', async () => {
      const r = await host.call({ name: 'basic__nope', args: {} });
      assert.equal(r.outcome, 'notFound');
      assert.equal(r.isError, true);
      assert.equal(r.server, undefined);
      assert.match(r.modelText, /Tool "basic__nope" is not available/);
    });

    it('invalidArgs: the message lists what is wrong and the server is not called', async () => {
      const before = callsTo('basic').length;
      const r = await host.call({ name: 'basic__add', args: { a: 'one' } });
      assert.equal(r.outcome, 'invalidArgs');
      assert.match(r.modelText, /the server was not called/);
      assert.match(r.modelText, /"a" must be number/);
      assert.match(r.modelText, /missing required property "b"/);

      const notJson = await host.call({ name: 'basic__add', args: '{"a": 1,' });
      assert.equal(notJson.outcome, 'invalidArgs');
      assert.match(notJson.modelText, /not valid JSON/);

      const notObject = await host.call({ name: 'basic__add', args: [1, 2] });
      assert.equal(notObject.outcome, 'invalidArgs');
      assert.match(notObject.modelText, /must be a JSON object, got an array/);

      const negative = await host.call({ name: 'basic__wait', args: { ms: -1 } });
      assert.equal(negative.outcome, 'invalidArgs');
      assert.match(negative.modelText, /"ms" must be >= 0/);

      assert.equal(callsTo('basic').length, before, 'no call reached the server');
    });

    it('a null for an optional property is read as not given; a null for a required one stays invalid', async () => {
      const before = callsTo('basic').length;
      const optional = await host.call({ name: 'basic__fail', args: { reason: null } });
      assert.equal(optional.outcome, 'isError', optional.modelText);
      assert.match(optional.modelText, /something failed: no reason/);
      const sent = callsTo('basic').slice(before).find((e) => e.tool === 'fail');
      assert.deepEqual(sent?.args, {}, 'the server got the call without the null');
      const required = await host.call({ name: 'basic__add', args: { a: 1, b: null } });
      assert.equal(required.outcome, 'invalidArgs');
      assert.match(required.modelText, /"b" must be number/);
      const wrongType = await host.call({ name: 'basic__fail', args: { reason: 7 } });
      assert.equal(wrongType.outcome, 'invalidArgs', 'only null is read as not given');
    });

    it('runs many calls at once: 20 parallel waits take about as long as one', async () => {
      const t0 = Date.now();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => host.call({ name: 'basic__wait', args: { ms: 1000 + i } })));
      const elapsed = Date.now() - t0;
      assert.deepEqual(
        results.map((r) => r.outcome),
        Array(20).fill('ok'),
      );
      assert.deepEqual(
        results.map((r) => r.modelText),
        results.map((_, i) => `waited ${1000 + i}`),
        'each result belongs to its own call',
      );
      assert.ok(elapsed < 8000, `20 × 1000 ms in ${elapsed} ms (sequential would be ≥ 20 s)`);
    });

    it('nothing throws out of the router', async () => {
      const odd: Any[] = [{ name: '' }, { name: 'basic__echo', args: 'null' }, { name: 'basic__echo', args: 42 }, { name: 'x'.repeat(1000) }];
      for (const req of odd) {
        const r = await host.call(req);
        assert.ok(['notFound', 'invalidArgs'].includes(r.outcome), `${JSON.stringify(req).slice(0, 40)} → ${r.outcome}`);
      }
    });
  });

  describe('each on its own host', () => {
    const env = useTestEnv();

    it('timeout: the call ends after the server timeout and the server is told to cancel', async () => {
      const host = await env.started({
        settings: settings({ servers: [env.stdio('slow', 'slow', { timeoutMs: 300 })], autoApprove: ['*/*'] }),
      });
      const t0 = Date.now();
      const r = await host.call({ name: 'slow__sleep', args: { ms: 10_000 } });
      const elapsed = Date.now() - t0;
      assert.equal(r.outcome, 'timeout');
      assert.ok(elapsed >= 290 && elapsed < 5000, `took ${elapsed} ms (the sleep is 10 s)`);
      assert.match(r.modelText, /timed out after 300 ms/);
      const call = env.events('slow').find((e) => e.event === 'call' && e.tool === 'sleep');
      await waitFor('the server to log the cancellation', () => env.events('slow').some((e) => e.event === 'cancelled' && e.requestId === call.requestId));
      await waitFor('the handler to stop', () => env.events('slow').some((e) => e.event === 'aborted' && e.requestId === call.requestId));
      // The server is still usable.
      assert.equal((await host.call({ name: 'slow__quick' })).modelText, 'quick');
    });

    it('timeoutOverrideMs (CLI --timeout) wins over the server setting', async () => {
      const host = await env.started({
        settings: settings({ servers: [env.stdio('slow', 'slow', { timeoutMs: 10_000 })], autoApprove: ['*/*'] }),
        timeoutOverrideMs: 200,
      });
      const r = await host.call({ name: 'slow__sleep', args: { ms: 5000 } });
      assert.equal(r.outcome, 'timeout');
      assert.match(r.modelText, /200 ms/);
    });

    it('denied: the server is not called', async () => {
      const confirmer = new RecordingConfirmer(() => 'deny');
      const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), confirmer });
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(r.outcome, 'denied');
      assert.equal(r.confirmedBy, null);
      assert.match(r.modelText, /denied/);
      assert.ok(!env.events('basic').some((e) => e.event === 'call'));
    });

    it('error: a server that dies mid-call gives an error within 1 s; calls during the restart say so', async () => {
      const host = await env.started({
        settings: settings({ servers: [env.stdio('crashy', 'crashy')], autoApprove: ['*/*'] }),
        backoff: { initialDelayMs: 600, maxDelayMs: 600, maxFailures: 3 },
      });
      const r = await host.call({ name: 'crashy__crash' });
      assert.equal(r.outcome, 'error');
      assert.ok(r.durationMs < 1000, `${r.durationMs} ms`);
      assert.match(r.modelText, /closed the connection during the call/);
      assert.match(r.modelText, /being restarted/);

      const during = await host.call({ name: 'crashy__ok' });
      assert.equal(during.outcome, 'error');
      assert.match(during.modelText, /restarting/);
      assert.ok(host.snapshot().exposed.some((t) => t.entry.name === 'crashy__ok'), 'tools stay offered while restarting');

      await waitForState(host, 'crashy', (s) => s.kind === 'connected');
      assert.equal((await host.call({ name: 'crashy__ok' })).outcome, 'ok');
    });

    it('a remote server that went away gives an error outcome, not a hang', async () => {
      const http = await env.http();
      const host = await env.started({ settings: settings({ servers: [env.remote('web', http.url)], autoApprove: ['*/*'] }) });
      assert.equal((await host.call({ name: 'web__echo', args: { text: 'up' } })).outcome, 'ok');
      await http.close();
      const t0 = Date.now();
      const r = await host.call({ name: 'web__echo', args: { text: 'down' } });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.ok(Date.now() - t0 < 3000);
      assert.match(r.modelText, /^Tool "web__echo" failed: /);
    });

    it('a call to a server that was stopped finds no tool (its tools left with it)', async () => {
      const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')], autoApprove: ['*/*'] }) });
      await host.servers.stopServer('basic');
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(r.outcome, 'notFound');
      assert.match(r.modelText, /is not available/);
    });
  });
});
