/** server-everything's own elicitation, sampling and roots tools, through the host. */
import * as assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { listedTools, referenceServer, settings, useTestEnv, waitFor, type Any } from '../helpers';
import { requestPorts, requestRecords, ScriptedPrompter } from './requestKit';

describe('server-everything asks the host', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  async function everything(kit: ReturnType<typeof requestPorts>) {
    const host = await env.started({
      settings: settings({ servers: [referenceServer('everything', 'server-everything', ['stdio'])], autoApprove: ['*/*'], sampling: { servers: ['everything'], roles: {} } }),
      workspaceFolder: env.dir,
      ...kit.options,
    });
    // It registers its elicitation/sampling/roots tools right after initialize and says list_changed.
    await waitFor('the conditional tools', () => listedTools(host, 'everything').some((t) => t.name === 'trigger-elicitation-request'), 10_000);
    return host;
  }

  it('offers its conditional tools once the host declares the capabilities', async () => {
    const host = await everything(requestPorts());
    const names = listedTools(host, 'everything').map((t) => t.name);
    for (const n of ['get-roots-list', 'trigger-elicitation-request', 'trigger-url-elicitation', 'trigger-sampling-request']) assert.ok(names.includes(n), n);
  });

  it('trigger-elicitation-request: its 13-field form, answered with the defaults and a name', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter((q) => ({ action: 'accept', content: { ...q.form.defaults(), name: 'Ada Lovelace', check: true } })) });
    const host = await everything(kit);
    const r = await host.call({ name: 'everything__trigger-elicitation-request' });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.match(r.modelText, /User provided the requested information/);
    assert.match(r.modelText, /- Name: Ada Lovelace/);
    assert.match(r.modelText, /- Favorite Integer: 42/);
    const q = kit.prompter.forms[0];
    assert.equal(q.form.fields.length, 13);
    assert.deepEqual(q.duringCall, ['trigger-elicitation-request']);
    assert.equal(requestRecords(kit.audit, 'elicitation')[0].outcome, 'accepted');
  });

  it('trigger-sampling-request: the prompt reaches the sampler, its answer reaches the server', async () => {
    const kit = requestPorts();
    const host = await everything(kit);
    const r = await host.call({ name: 'everything__trigger-sampling-request', args: { prompt: 'Say hi', maxTokens: 20 } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.match(r.modelText, /scripted-model/);
    assert.equal(kit.sampler.questions[0].maxTokens, 20);
    assert.match(JSON.stringify(kit.sampler.questions[0].messages), /Say hi/);
  });

  it('get-roots-list: the workspace folder', async () => {
    const kit = requestPorts();
    const host = await everything(kit);
    const r = await host.call({ name: 'everything__get-roots-list' });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.ok(r.modelText.includes(pathToFileURL(env.dir).href), r.modelText);
    assert.ok(requestRecords(kit.audit, 'roots').length >= 1);
    assert.ok(requestRecords(kit.audit, 'roots').every((x: Any) => x.outcome === 'accepted'));
  });
});
