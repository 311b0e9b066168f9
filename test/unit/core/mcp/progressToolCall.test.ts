/**
 * Progress (issue 13): every tools/call carries a progressToken, progress reaches the caller and the
 * log, and with `resetTimeoutOnProgress` a call that reports progress outlives `timeoutMs`, up to
 * `maxTotalTimeoutMs`. Against the tasks fixture and server-everything's long-running tool.
 */
import * as assert from 'node:assert/strict';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { referenceServer, settings, useTestEnv, waitFor } from '../helpers';

describe('tools/call progress and the timeout it extends', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  const hostWith = (server: StdioServerSettings) => env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }) });

  it('sends a progressToken and hands every progress notification to the caller and the log', async () => {
    const host = await hostWith(env.stdio('tasks', 'tasks'));
    const seen: CallProgress[] = [];
    const r = await host.call({ name: 'tasks__progress', args: { steps: 4, stepMs: 20 }, onProgress: (p) => seen.push(p) });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'done after 4 steps');
    assert.deepEqual(env.events('tasks').filter((e) => e.event === 'progressToken').map((e) => e.present), [true]);
    assert.deepEqual(seen, [1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i}` })));
    assert.ok(host.log.matching(/^call tasks__progress: 4\/4 \(100%\) · step 4$/, 'info').length === 1, host.log.text());
  });

  it('server-everything reports progress for trigger-long-running-operation (only sent with a token)', async () => {
    const host = await hostWith(referenceServer('everything', 'server-everything'));
    const seen: CallProgress[] = [];
    const r = await host.call({ name: 'everything__trigger-long-running-operation', args: { duration: 0.3, steps: 3 }, onProgress: (p) => seen.push(p) });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.match(r.modelText, /Long running operation completed/);
    // The last notification may share a read with the result, and the SDK then drops it (it handles
    // notifications a microtask after responses): the ones before it always arrive, in order.
    assert.deepEqual(seen.slice(0, 2).map((p) => [p.progress, p.total]), [[1, 3], [2, 3]]);
  });

  it('with resetTimeoutOnProgress (the default) a call that keeps reporting progress outlives timeoutMs', async () => {
    // 8 steps of 300 ms = 2.4 s of work against a 1.5 s timeout: only the progress keeps it alive.
    const host = await hostWith({ ...referenceServer('everything', 'server-everything'), timeoutMs: 1500 });
    const seen: CallProgress[] = [];
    const r = await host.call({ name: 'everything__trigger-long-running-operation', args: { duration: 2.4, steps: 8 }, onProgress: (p) => seen.push(p) });
    assert.equal(r.outcome, 'ok', r.modelText);
    // The last notification may be dropped when it shares a read with the result (see above).
    assert.ok(seen.length >= 7, `${seen.length} progress reports`);
    assert.ok(r.durationMs > 1500, `durationMs ${r.durationMs}`);
  });

  it('without resetTimeoutOnProgress the same call is cut at timeoutMs and cancelled', async () => {
    const host = await hostWith({ ...env.stdio('tasks', 'tasks'), timeoutMs: 1500, resetTimeoutOnProgress: false });
    const r = await host.call({ name: 'tasks__progress', args: { steps: 8, stepMs: 300 } });
    assert.equal(r.outcome, 'timeout', r.modelText);
    assert.match(r.modelText, /timed out after 1500 ms/);
    await waitFor('notifications/cancelled at the server', () => env.events('tasks').some((e) => e.event === 'cancelled' && e.tool === 'progress'));
  });

  it('progress never extends a call past maxTotalTimeoutMs', async () => {
    const host = await hostWith({ ...env.stdio('tasks', 'tasks'), timeoutMs: 1500, maxTotalTimeoutMs: 2000 });
    const seen: CallProgress[] = [];
    const r = await host.call({ name: 'tasks__progress', args: { steps: 40, stepMs: 200 }, onProgress: (p) => seen.push(p) });
    assert.equal(r.outcome, 'timeout', r.modelText);
    assert.match(r.modelText, /ran longer than the maximum of 2000 ms/);
    assert.ok(seen.length >= 1 && seen.length < 40, `${seen.length} progress reports`);
  });
});
