/**
 * Tasks (issue 13): a tool whose `execution.taskSupport` is "required" is called as a task through
 * the SDK's task support; its status shows as progress; Stop and timeouts send `tasks/cancel`; the
 * result comes back as for any call. Against the tasks fixture and server-everything.
 */
import * as assert from 'node:assert/strict';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { referenceServer, settings, useTestEnv, waitFor, type Any } from '../helpers';
import { researchInStages, stopOnceReported } from './taskKit';

describe('tools that run as tasks', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  const hostWith = (server: StdioServerSettings) => env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }) });
  const requests = (method: string) => env.events('tasks').filter((e: Any) => e.event === 'request' && e.method === method);

  it('calls a task-required tool as a task: status messages as progress, then the result', async () => {
    const host = await hostWith(env.stdio('tasks', 'tasks'));
    const seen = await researchInStages(host);
    assert.ok(seen.every((p) => p.taskStatus !== undefined));
    assert.equal(requests('tools/call').length, 1);
    assert.ok(requests('tasks/get').length >= 1, 'the client polled tasks/get');
    assert.equal(requests('tasks/result').length, 1);
    assert.equal(requests('tasks/cancel').length, 0);
    const audit = host.log.matching(/call tasks__research: task working · stage 2 of 3/, 'info');
    assert.equal(audit.length, 1, host.log.text());
  });

  it('server-everything: simulate-research-query (taskSupport "required") succeeds', async () => {
    const host = await hostWith(referenceServer('everything', 'server-everything'));
    const tool = host.snapshot().tool('everything', 'simulate-research-query');
    assert.equal(tool?.tool.execution?.taskSupport, 'required');
    const seen: CallProgress[] = [];
    const r = await host.call({ name: 'everything__simulate-research-query', args: { topic: 'MCP tasks' }, onProgress: (p) => seen.push(p) });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.match(r.modelText, /# Research Report: MCP tasks/);
    assert.ok(seen.some((p) => p.message === 'Gathering sources...'), JSON.stringify(seen));
    assert.ok(seen.some((p) => p.taskStatus === 'completed'), JSON.stringify(seen));
  });

  it('a task that outlives timeoutMs without progress is cancelled with tasks/cancel', async () => {
    const host = await hostWith({ ...env.stdio('tasks', 'tasks'), timeoutMs: 800 });
    const r = await host.call({ name: 'tasks__stuck', args: {} });
    assert.equal(r.outcome, 'timeout', r.modelText);
    assert.match(r.modelText, /timed out after 800 ms/);
    assert.equal(requests('tasks/cancel').length, 1, 'tasks/cancel was sent before the call settled');
    await waitFor('the task to see its cancellation', () => env.events('tasks').some((e: Any) => e.event === 'taskCancelled'));
  });

  it('without resetTimeoutOnProgress the whole task must finish within timeoutMs', async () => {
    const host = await hostWith({ ...env.stdio('tasks', 'tasks'), timeoutMs: 1000, resetTimeoutOnProgress: false });
    const r = await host.call({ name: 'tasks__research', args: { steps: 10, stepMs: 250 } });
    assert.equal(r.outcome, 'timeout', r.modelText);
    assert.equal(requests('tasks/cancel').length, 1);
  });

  it('with resetTimeoutOnProgress each status change gives the task timeoutMs more', async () => {
    const host = await hostWith({ ...env.stdio('tasks', 'tasks'), timeoutMs: 1000 });
    const r = await host.call({ name: 'tasks__research', args: { steps: 6, stepMs: 300 } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.ok(r.durationMs > 1000, `durationMs ${r.durationMs}`);
  });

  it('Stop cancels the task: outcome "cancelled" and tasks/cancel at the server', async () => {
    const host = await hostWith(env.stdio('tasks', 'tasks'));
    const r = await stopOnceReported(host, 'tasks__stuck', 'thinking forever');
    assert.equal(r.outcome, 'cancelled', r.modelText);
    assert.equal(requests('tasks/cancel').length, 1);
    await waitFor('the task to see its cancellation', () => env.events('tasks').some((e: Any) => e.event === 'taskCancelled'));
  });

  it("a failed task gives the model the task's result (its reason)", async () => {
    const host = await hostWith(env.stdio('tasks', 'tasks'));
    const r = await host.call({ name: 'tasks__broken', args: {} });
    assert.equal(r.outcome, 'isError', r.modelText);
    assert.equal(r.modelText, 'no luck');
    assert.equal(requests('tasks/cancel').length, 0);
  });

  it('a tool with taskSupport "optional" is called directly (no task polling by the host)', async () => {
    const host = await hostWith(env.stdio('tasks', 'tasks'));
    const r = await host.call({ name: 'tasks__flexible', args: {} });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'flexible done');
    assert.equal(requests('tasks/get').length, 0);
  });
});
