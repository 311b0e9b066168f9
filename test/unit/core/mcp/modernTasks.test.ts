/**
 * Tasks on 2026-07-28 servers (issue 27 item 5): the `io.modelcontextprotocol/tasks` extension
 * against a real server that speaks only the new revision (test/fixtures/servers/modern/tasks.mjs,
 * SDK v2's server with raw tasks/* handlers), over stdio and Streamable HTTP, through the whole
 * host: a `tools/call` answered with `resultType: "task"` is polled with `tasks/get` to its result
 * (status as progress), `input_required` is answered through `tasks/update` on the same decision
 * path as any server request (settings, the person, audit), Stop and timeouts send `tasks/cancel`,
 * and a server that answers nonsense gets a clear error.
 */
import * as assert from 'node:assert/strict';
import type { CallAuditRecord } from '../../../../src/core/audit/auditRecord';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import type { ServerSettings } from '../../../../src/core/settings/hostSettings';
import { startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { settings, sleep, useTestEnv, waitFor, type Any } from '../helpers';
import { requestPorts, requestRecords, ScriptedPrompter } from '../requests/requestKit';
import { researchInStages, stopOnceReported } from './taskKit';

for (const kind of ['stdio', 'http'] as const) {
  describe(`tasks on a 2026-07-28 server (${kind})`, function () {
    this.timeout(30_000);
    const fixtures: HttpFixture[] = [];
    // Registered first, so it runs before the env's check that no child process is left.
    afterEach(async () => {
      await Promise.all(fixtures.splice(0).map((f) => f.close()));
    });
    const env = useTestEnv();

    /** The fixture's settings (its FIXTURE_LOG is env.events('tasks')), with `extra` settings. */
    async function server(extra: Partial<ServerSettings> = {}): Promise<ServerSettings> {
      const stdio = env.stdio('tasks', 'modern/tasks', { env: { FIXTURE_LOG_REQUESTS: '1' } });
      if (kind === 'stdio') return { ...stdio, ...extra } as ServerSettings;
      const f = await startHttpFixture({ script: 'modern/tasks', args: ['--http'], env: stdio.env });
      fixtures.push(f);
      return { ...env.remote('tasks', f.url), ...extra } as ServerSettings;
    }

    async function hostWith(o: { extra?: Partial<ServerSettings>; kit?: ReturnType<typeof requestPorts>; more?: Partial<Parameters<typeof settings>[0]> } = {}) {
      const sink = new MemorySink();
      const host = await env.started({
        settings: settings({ servers: [await server(o.extra)], autoApprove: ['*/*'], ...o.more }),
        ...(o.kit?.options ?? {}),
        auditSinks: [sink, ...(o.kit ? [o.kit.audit] : [])],
      });
      audit = sink;
      return host;
    }
    /** The audit records of the last host. */
    let audit: MemorySink;

    const events = (name: string) => env.events('tasks').filter((e: Any) => e.event === name);
    const callRecord = (tool: string) => audit.records.find((r): r is CallAuditRecord => r.kind === 'call' && r.tool === tool);

    it('declares the extension (the server creates tasks only then); a tool answered with a task is polled with tasks/get to its result, its status as progress', async () => {
      const host = await hostWith();
      assert.equal(host.snapshot().server('tasks')?.info?.protocolVersion, '2026-07-28');
      const seen = await researchInStages(host);
      assert.equal(seen.at(-1)?.taskStatus, 'completed');
      const [created] = events('taskCreated');
      assert.ok(events('tasks/get').length >= 1, 'the host polled tasks/get');
      assert.ok(events('tasks/get').every((e: Any) => e.taskId === created.taskId));
      assert.equal(events('tasks/cancel').length, 0);
      assert.equal(callRecord('research')?.outcome, 'ok');
      if (kind === 'http') {
        // SEP-2663: every tasks/* request is routed by its task: Mcp-Name is the taskId.
        const gets = events('http').filter((e: Any) => e.mcpMethod === 'tasks/get');
        assert.ok(gets.length >= 1 && gets.every((e: Any) => e.mcpName === created.taskId), JSON.stringify(gets));
      }
    });

    it('a plain tool on the same server is a plain call (no task, no polling)', async () => {
      const host = await hostWith();
      const r = await host.call({ name: 'tasks__echo', args: { text: 'hi' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'echo: hi');
      assert.equal(events('taskCreated').length, 0);
      assert.equal(events('tasks/get').length, 0);
    });

    it('input_required inside a task: the person is asked through the host (clock paused, audited), the answer goes back in tasks/update', async () => {
      // The person takes longer than the call's timeout: the clock stops while they are asked.
      const kit = requestPorts({ prompter: new ScriptedPrompter(async () => (await sleep(1500), { action: 'accept', content: { confirm: true } })) });
      const host = await hostWith({ kit, extra: { timeoutMs: 1000 } });
      const seen: CallProgress[] = [];
      const r = await host.call({ name: 'tasks__approve', args: { action: 'deploy' }, onProgress: (p) => seen.push(p) });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'approved: deploy');
      assert.ok(seen.some((p) => p.taskStatus === 'input_required'), JSON.stringify(seen));
      const [q] = kit.prompter.forms;
      assert.equal(q.server, 'tasks');
      assert.equal(q.message, 'Allow "deploy"?');
      assert.deepEqual(q.duringCall, ['approve']);
      const updates = events('tasks/update');
      assert.equal(updates.length, 1, 'one tasks/update, once');
      assert.match(updates[0].keys[0], /^confirm-/);
      assert.deepEqual(events('taskAnswer')[0].answer, { action: 'accept', content: { confirm: true } });
      const [rec] = requestRecords(kit.audit, 'elicitation');
      assert.deepEqual([rec.outcome, rec.decidedBy, rec.server], ['accepted', 'user', 'tasks']);
    });

    it('input_required inside a task that mcpHost.elicitation refuses: declined without asking, audited as denied by policy', async () => {
      const kit = requestPorts();
      const host = await hostWith({ kit, more: { elicitation: { servers: [], roles: {} } } });
      const r = await host.call({ name: 'tasks__approve', args: { action: 'deploy' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'declined: deploy');
      assert.equal(kit.prompter.forms.length, 0, 'the person was not asked');
      assert.deepEqual(events('taskAnswer')[0].answer, { action: 'decline' });
      const [rec] = requestRecords(kit.audit, 'elicitation');
      assert.deepEqual([rec.outcome, rec.decidedBy], ['denied', 'policy']);
    });

    it('MRTR then a task (SEP-2663 composition): the tools/call first asks by input_required, its retry is answered with a task', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { confirm: true } })) });
      const host = await hostWith({ kit });
      const r = await host.call({ name: 'tasks__confirm_then_run', args: { action: 'build' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'ran: build');
      assert.equal(kit.prompter.forms[0].message, 'Run "build"?');
      assert.equal(events('taskCreated').length, 1);
      assert.deepEqual(requestRecords(kit.audit, 'elicitation').map((x) => x.outcome), ['accepted']);
    });

    it('sampling inside a task: decided by mcpHost.sampling and the person like any sampling request, audited', async () => {
      const kit = requestPorts();
      const host = await hostWith({ kit, more: { sampling: { servers: ['tasks'], roles: {} } } });
      const r = await host.call({ name: 'tasks__summarize', args: { text: 'tasks in both eras' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.match(r.modelText, /^summary: echo of: .*Summarize in one line: tasks in both eras/);
      assert.equal(kit.sampler.questions.length, 1);
      const [rec] = requestRecords(kit.audit, 'sampling');
      assert.deepEqual([rec.outcome, rec.decidedBy, rec.server], ['accepted', 'user', 'tasks']);
    });

    it('input_required that the host cannot answer (no way to ask anybody): the call fails clearly and the task is cancelled', async () => {
      const host = await hostWith();
      const r = await host.call({ name: 'tasks__approve', args: { action: 'deploy' } });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.match(r.modelText, /the task's request "confirm-[^"]+" \(elicitation\/create\) was not answered: .*does not answer/);
      assert.equal(events('tasks/update').length, 0, 'nothing was answered');
      await waitFor('tasks/cancel at the server', () => events('taskCancelled').length === 1);
    });

    it('Stop: tasks/cancel reaches the server and the call is audited "cancelled"', async () => {
      const host = await hostWith();
      const r = await stopOnceReported(host, 'tasks__stuck', 'thinking forever');
      assert.equal(r.outcome, 'cancelled', r.modelText);
      assert.equal(events('tasks/cancel').length, 1);
      assert.equal(events('taskCancelled').length, 1, 'the task saw its cancellation');
      assert.equal(callRecord('stuck')?.outcome, 'cancelled');
    });

    it('timeout: tasks/cancel reaches the server and the outcome says the call timed out', async () => {
      const host = await hostWith({ extra: { timeoutMs: 800 } });
      const r = await host.call({ name: 'tasks__stuck', args: {} });
      assert.equal(r.outcome, 'timeout', r.modelText);
      assert.match(r.modelText, /timed out after 800 ms/);
      assert.equal(events('tasks/cancel').length, 1, 'tasks/cancel was sent before the call settled');
      assert.equal(events('taskCancelled').length, 1);
      assert.equal(callRecord('stuck')?.outcome, 'timeout');
    });

    it("a failed task's JSON-RPC error is the call's error", async () => {
      const host = await hostWith();
      const r = await host.call({ name: 'tasks__fail', args: {} });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.match(r.modelText, /the job broke/);
      assert.equal(events('tasks/cancel').length, 0, 'a task that ended is not cancelled');
    });

    it('a server that claims a task but answers nonsense: a clear error naming what is wrong, and a running task is cancelled', async () => {
      const host = await hostWith();
      const created = await host.call({ name: 'tasks__garbage', args: { where: 'create' } });
      assert.equal(created.outcome, 'error', created.modelText);
      assert.match(created.modelText, /the server's answer to tools\/call is not a valid task \(taskId: /);

      const get = await host.call({ name: 'tasks__garbage', args: { where: 'get' } });
      assert.equal(get.outcome, 'error', get.modelText);
      assert.match(get.modelText, /the server's answer to tasks\/get is not a valid task \(status: /);
      await waitFor('tasks/cancel for the task whose state could not be read', () => events('taskCancelled').length === 1);

      const result = await host.call({ name: 'tasks__garbage', args: { where: 'result' } });
      assert.equal(result.outcome, 'error', result.modelText);
      assert.match(result.modelText, /task \S+ completed without a result/);
    });
  });
}
