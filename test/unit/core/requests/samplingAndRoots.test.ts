/**
 * sampling/createMessage and roots/list from a real stdio server (test/fixtures/servers/asks.mjs)
 * through the host: off by default, allowed per server/role, no tool use, the user's refusal,
 * the workspace folders as roots, roots/list_changed.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApprovedSampler, type SamplingQuestion } from '../../../../src/core/requests/sampler';
import { folderRoot, type RootsSource } from '../../../../src/core/requests/rootsSource';
import { Emitter } from '../../../../src/core/util/event';
import { role, settings, useTestEnv, waitFor, type Any } from '../helpers';
import { requestPorts, requestRecords, resultJson, ScriptedSampler } from './requestKit';

describe('sampling: servers that want a model completion', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  async function hostWith(kit: ReturnType<typeof requestPorts>, extra: Partial<Parameters<typeof settings>[0]> = {}) {
    return env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'], ...extra }), ...kit.options });
  }

  it('is off by default: refused with the spec\'s code -1, the user is not asked, the refusal is audited', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__sample', args: { prompt: 'hi' } });
    assert.match(r.modelText, /sampling failed: -1 .*Sampling is not allowed: mcpHost\.sampling does not allow server "asks"/);
    assert.equal(kit.sampler.questions.length, 0);
    const [rec] = requestRecords(kit.audit, 'sampling');
    assert.deepEqual([rec.outcome, rec.decidedBy], ['denied', 'policy']);
    assert.deepEqual((rec.request as Any).messages, [{ role: 'user', text: 'hi' }]);
  });

  it('allowed for a server: the user sees messages, system prompt and max tokens; the answer goes back', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit, { sampling: { servers: ['asks'], roles: {}, model: 'pinned-model' } });
    const r = await host.call({ name: 'asks__sample', args: { prompt: 'Write a haiku', maxTokens: 42, systemPrompt: 'Be brief' } });
    assert.equal(r.outcome, 'ok', r.modelText);
    const result = resultJson(r.modelText) as Any;
    assert.equal(result.model, 'scripted-model');
    assert.equal(result.role, 'assistant');
    assert.equal(result.stopReason, 'endTurn');
    assert.match(result.content.text, /Write a haiku/);
    const q = kit.sampler.questions[0];
    assert.deepEqual([q.server, q.maxTokens, q.systemPrompt, q.pinnedModel], ['asks', 42, 'Be brief', 'pinned-model']);
    assert.deepEqual(q.duringCall, ['sample']);
    const [rec] = requestRecords(kit.audit, 'sampling');
    assert.deepEqual([rec.outcome, rec.decidedBy, (rec.answer as Any).model], ['accepted', 'user', 'scripted-model']);
    assert.equal((rec.request as Any).maxTokens, 42);
  });

  it('a role list replaces the global one while the role is active', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit, {
      roles: [role('writer', { servers: ['asks'] }), role('reader', { servers: ['asks'] })],
      activeRole: 'reader',
      sampling: { servers: [], roles: { writer: ['as*'] } },
    });
    assert.match((await host.call({ name: 'asks__sample', args: { prompt: 'x' } })).modelText, /role "reader"/);
    await host.setRole('writer');
    assert.equal((await host.call({ name: 'asks__sample', args: { prompt: 'x' } })).outcome, 'ok');
  });

  it('tool use inside sampling is not offered: refused before the user is bothered', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit, { sampling: { servers: ['*'], roles: {} } });
    const r = await host.call({ name: 'asks__sample', args: { prompt: 'x', withTools: true } });
    assert.match(r.modelText, /sampling failed: -32602 .*tool use inside sampling is not offered/);
    assert.equal(kit.sampler.questions.length, 0);
    assert.equal(requestRecords(kit.audit, 'sampling')[0].outcome, 'invalid');
  });

  it("the user's refusal, and a sampler that fails, are both refusals", async () => {
    const kit = requestPorts({ sampler: new ScriptedSampler(() => ({ action: 'decline', reason: 'the user refused to send the request to the model' })) });
    const host = await hostWith(kit, { sampling: { servers: ['*'], roles: {} } });
    assert.match((await host.call({ name: 'asks__sample', args: { prompt: 'x' } })).modelText, /-1 .*User rejected sampling request/);
    kit.sampler.answer = () => {
      throw new Error('no model');
    };
    assert.match((await host.call({ name: 'asks__sample', args: { prompt: 'x' } })).modelText, /-1 .*User rejected sampling request/);
    assert.deepEqual(
      requestRecords(kit.audit, 'sampling').map((x) => [x.outcome, x.reason]),
      [
        ['declined', 'the user refused to send the request to the model'],
        ['error', 'sampling failed, refused: no model'],
      ],
    );
  });
});

describe('ApprovedSampler: two approvals around the model', () => {
  const question: SamplingQuestion = { server: 's', duringCall: [], messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 5 };
  const signal = new AbortController().signal;
  const steps: string[] = [];
  const models = (available = true) => ({
    choose: async (pinned: string | undefined) => {
      steps.push(`choose ${pinned ?? '-'}`);
      return available ? { name: 'm1', complete: async () => (steps.push('complete'), { model: 'm1', text: 'a' }) } : undefined;
    },
  });
  const approver = (request: boolean, answer: boolean) => ({
    approveRequest: async (_q: SamplingQuestion, model: string) => (steps.push(`request via ${model}`), request),
    approveAnswer: async () => (steps.push('answer'), answer),
  });
  beforeEach(() => steps.splice(0));

  it('sends only after the first yes and returns only after the second', async () => {
    assert.deepEqual(await new ApprovedSampler(approver(true, true), models()).sample(question, signal), { action: 'accept', answer: { model: 'm1', text: 'a' } });
    assert.deepEqual(steps, ['choose -', 'request via m1', 'complete', 'answer']);
  });

  it('a refused request never reaches the model; a refused answer never reaches the server', async () => {
    assert.equal((await new ApprovedSampler(approver(false, true), models()).sample(question, signal)).action, 'decline');
    assert.deepEqual(steps, ['choose -', 'request via m1']);
    steps.splice(0);
    const r = await new ApprovedSampler(approver(true, false), models()).sample(question, signal);
    assert.deepEqual(r, { action: 'decline', reason: 'the user refused to return the answer' });
  });

  it('no model (or the pinned one missing): declined with the reason', async () => {
    const r = await new ApprovedSampler(approver(true, true), models(false)).sample({ ...question, pinnedModel: 'gpt-x' }, signal);
    assert.deepEqual(r, { action: 'decline', reason: 'the model "gpt-x" (mcpHost.sampling.model) is not available' });
  });
});

describe('roots: the workspace folders', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('answers roots/list with the workspace folder by default, and audits what it disclosed', async () => {
    const kit = requestPorts();
    const host = await env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'] }), workspaceFolder: env.dir, ...kit.options });
    const r = await host.call({ name: 'asks__roots' });
    const uri = pathToFileURL(env.dir).href;
    assert.deepEqual(resultJson(r.modelText), { roots: [{ uri, name: path.basename(env.dir) }] });
    const [rec] = requestRecords(kit.audit, 'roots');
    assert.deepEqual([rec.outcome, rec.decidedBy, rec.answer, rec.duringCall], ['accepted', 'policy', { roots: [uri] }, ['roots']]);
  });

  it('sends notifications/roots/list_changed when the folders change; the server reads the new list', async () => {
    const changed = new Emitter<void>();
    let folders = [env.dir];
    const source: RootsSource = { roots: () => folders.map((f) => folderRoot(f)), onDidChange: changed.event };
    const kit = requestPorts({ roots: source });
    await env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')] }), ...kit.options });
    const second = path.join(env.dir, 'second');
    folders = [env.dir, second];
    changed.fire();
    await waitFor('the server to re-read the roots', () => env.events('asks').some((e) => e.event === 'rootsChanged'));
    const event = env.events('asks').find((e) => e.event === 'rootsChanged');
    assert.deepEqual(
      event.roots.map((r: Any) => r.uri),
      [pathToFileURL(env.dir).href, pathToFileURL(second).href],
    );
  });

  it('a workspace without a folder offers no roots', async () => {
    const kit = requestPorts();
    const host = await env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'] }), ...kit.options });
    assert.deepEqual(resultJson((await host.call({ name: 'asks__roots' })).modelText), { roots: [] });
  });
});
