/**
 * elicitation/create from a real stdio server (test/fixtures/servers/asks.mjs) through the host:
 * policy, the user's answer, SEP-1034 defaults, validation, URL mode, withdrawal, audit.
 */
import * as assert from 'node:assert/strict';
import { REDACTED } from '../../../../src/core/audit/redactArguments';
import { SERVER_REQUEST_DEFAULTS } from '../../../../src/core/settings/serverRequestSettings';
import { role, settings, sleep, useTestEnv, waitFor, type Any } from '../helpers';
import { aborted, requestPorts, requestRecords, resultJson, ScriptedPrompter } from './requestKit';

describe('elicitation: servers that ask the user', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  async function hostWith(kit: ReturnType<typeof requestPorts>, extra: Partial<Parameters<typeof settings>[0]> = {}, timeoutMs?: number) {
    return env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks', timeoutMs ? { timeoutMs } : {})], autoApprove: ['asks/*'], ...extra }),
      ...kit.options,
    });
  }

  it('declares form (with applyDefaults) and URL elicitation, sampling and roots with listChanged', async () => {
    await hostWith(requestPorts());
    const init = env.events('asks').find((e) => e.event === 'initialize');
    const extensions = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/tasks': {} };
    assert.deepEqual(init.capabilities, { elicitation: { form: { applyDefaults: true }, url: {} }, sampling: {}, roots: { listChanged: true }, extensions });
  });

  it('a host without ports declares none of it (only the MCP Apps extension), and the server learns it cannot ask', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'] }) });
    assert.deepEqual(Object.keys(env.events('asks').find((e) => e.event === 'initialize').capabilities), ['extensions']);
    const r = await host.call({ name: 'asks__ask_form' });
    assert.match(r.modelText, /elicitation failed/);
  });

  it('form accepted as offered: the schema defaults are sent (SEP-1034), the question shows server, message, fields and the call', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__ask_form' });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.deepEqual(resultJson(r.modelText), { action: 'accept', content: { name: 'Ada', age: 36, color: 'blue', newsletter: false, tags: ['a'] } });
    const q = kit.prompter.forms[0];
    assert.equal(q.server, 'asks');
    assert.equal(q.message, 'Tell us about yourself');
    assert.deepEqual(q.duringCall, ['ask_form']);
    assert.deepEqual(
      q.form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['name', 'string', true],
        ['age', 'integer', false],
        ['color', 'choice', false],
        ['newsletter', 'boolean', false],
        ['tags', 'choices', false],
        ['email', 'string', false],
      ],
    );
    const [rec] = requestRecords(kit.audit, 'elicitation');
    assert.equal(rec.outcome, 'accepted');
    assert.equal(rec.decidedBy, 'user');
    assert.equal(rec.server, 'asks');
    assert.deepEqual(rec.duringCall, ['ask_form']);
    assert.deepEqual((rec.request as Any).fields[0], { name: 'name', type: 'string', required: true });
    assert.deepEqual(rec.answer, { name: 'Ada', age: 36, color: 'blue', newsletter: false, tags: ['a'] });
    assert.ok(rec.durationMs >= 0);
  });

  it('a partial answer is completed with the defaults of the fields it leaves out', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { name: 'Grace', email: 'grace@example.org' } })) });
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__ask_form' });
    assert.deepEqual((resultJson(r.modelText) as Any).content, { name: 'Grace', age: 36, color: 'blue', newsletter: false, tags: ['a'], email: 'grace@example.org' });
  });

  it('an answer that does not match the schema is declined, never sent, and audited as invalid', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { name: 'Ada', age: 200, email: 'not an email' } })) });
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__ask_form' });
    assert.deepEqual(resultJson(r.modelText), { action: 'decline' });
    const [rec] = requestRecords(kit.audit);
    assert.equal(rec.outcome, 'invalid');
    assert.match(rec.reason!, /Age: must be <= 150/);
    assert.match(rec.reason!, /Email: must match format "email"/);
  });

  it('decline and cancel reach the server as such', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'decline' })) });
    const host = await hostWith(kit);
    assert.deepEqual(resultJson((await host.call({ name: 'asks__ask_form' })).modelText), { action: 'decline' });
    kit.prompter.form = () => ({ action: 'cancel' });
    assert.deepEqual(resultJson((await host.call({ name: 'asks__ask_form' })).modelText), { action: 'cancel' });
    assert.deepEqual(requestRecords(kit.audit).map((r) => [r.outcome, r.decidedBy, r.answer]), [
      ['declined', 'user', null],
      ['cancelled', 'user', null],
    ]);
  });

  it('a failure to ask is a decline, never consent', async () => {
    const kit = requestPorts({
      prompter: new ScriptedPrompter(() => {
        throw new Error('DialogService: refused to show dialog in tests');
      }),
    });
    const host = await hostWith(kit);
    assert.deepEqual(resultJson((await host.call({ name: 'asks__ask_form' })).modelText), { action: 'decline' });
    const [rec] = requestRecords(kit.audit);
    assert.equal(rec.outcome, 'error');
    assert.match(rec.reason!, /asking the user failed, declined: DialogService/);
  });

  it('secret-looking fields reach the server but are redacted in the audit', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { username: 'ada', password: 'hunter2' } })) });
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__ask_form', args: { variant: 'secret' } });
    assert.deepEqual((resultJson(r.modelText) as Any).content, { username: 'ada', password: 'hunter2' });
    assert.equal(kit.prompter.forms[0].form.fields.find((f) => f.name === 'password')?.secret, true);
    const [rec] = requestRecords(kit.audit);
    assert.deepEqual(rec.answer, { username: 'ada', password: REDACTED });
    assert.ok(!JSON.stringify(requestRecords(kit.audit)).includes('hunter2'));
  });

  it('mcpHost.elicitation decides per server and per role; a refused question is declined without asking', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit, {
      roles: [role('strict', { servers: ['asks'] }), role('open', { servers: ['asks'] })],
      activeRole: 'strict',
      elicitation: { servers: ['*'], roles: { strict: [] } },
    });
    const r = await host.call({ name: 'asks__ask_form' });
    assert.deepEqual(resultJson(r.modelText), { action: 'decline' });
    assert.equal(kit.prompter.forms.length, 0, 'the user was not asked');
    const [rec] = requestRecords(kit.audit);
    assert.deepEqual([rec.outcome, rec.decidedBy, rec.role], ['denied', 'policy', 'strict']);
    assert.match(rec.reason!, /mcpHost\.elicitation does not allow server "asks" \(role "strict"\)/);

    await host.setRole('open');
    const ok = await host.call({ name: 'asks__ask_form' });
    assert.equal((resultJson(ok.modelText) as Any).action, 'accept');
    assert.equal(kit.prompter.forms.length, 1);
  });

  it('the default settings allow every server to ask (and sampling none)', () => {
    assert.deepEqual(SERVER_REQUEST_DEFAULTS.elicitation.servers, ['*']);
    assert.deepEqual(SERVER_REQUEST_DEFAULTS.sampling.servers, []);
  });

  it('URL mode: the exact URL is shown and opened only after the user agrees', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit);
    const url = 'https://example.org/link?account=42';
    const r = await host.call({ name: 'asks__ask_url', args: { url } });
    assert.deepEqual(resultJson(r.modelText), { action: 'accept' });
    assert.equal(kit.prompter.urls[0].url, url);
    assert.equal(kit.prompter.urls[0].message, 'Open this page to link your account');
    assert.deepEqual(kit.prompter.opened, [url]);

    kit.prompter.url = () => ({ action: 'decline' });
    const declined = await host.call({ name: 'asks__ask_url', args: { url } });
    assert.deepEqual(resultJson(declined.modelText), { action: 'decline' });
    assert.equal(kit.prompter.opened.length, 1, 'a declined URL is not opened');
    assert.deepEqual(requestRecords(kit.audit).map((x) => [x.outcome, x.answer]), [
      ['accepted', { opened: url }],
      ['declined', null],
    ]);
  });

  it('URL mode: only https, or http to this machine; anything else is declined without asking', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit);
    for (const url of ['http://example.org/login', 'file:///etc/passwd', 'https://user:pw@example.org/']) {
      const r = await host.call({ name: 'asks__ask_url', args: { url } });
      assert.deepEqual(resultJson(r.modelText), { action: 'decline' }, url);
    }
    assert.equal(kit.prompter.urls.length, 0);
    assert.deepEqual(requestRecords(kit.audit).map((x) => x.outcome), ['invalid', 'invalid', 'invalid']);
    const local = await host.call({ name: 'asks__ask_url', args: { url: 'http://127.0.0.1:9/callback' } });
    assert.deepEqual(resultJson(local.modelText), { action: 'accept' });
  });

  it('the server withdraws its question: the prompt ends, the answer is "cancelled"', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter((_q, signal) => aborted(signal)) });
    const host = await hostWith(kit);
    // SDK 1.32.2 ignores notifications/cancelled for request id 0 (`if (!requestId) return`), and
    // the server's first request to us gets id 0: let roots/list take it.
    await host.call({ name: 'asks__roots' });
    const r = await host.call({ name: 'asks__ask_form', args: { timeoutMs: 300 } });
    assert.match(r.modelText, /elicitation failed: -32001 .*Request timed out/);
    await waitFor('the audit record', () => requestRecords(kit.audit, 'elicitation').length > 0);
    const [rec] = requestRecords(kit.audit, 'elicitation');
    assert.equal(rec.outcome, 'cancelled');
    assert.equal(rec.reason, 'the server withdrew the request');
  });

  it("the time the user takes does not count against the tool call's timeout", async () => {
    const kit = requestPorts({
      prompter: new ScriptedPrompter(async (q) => {
        await sleep(2500);
        return { action: 'accept', content: q.form.defaults() };
      }),
    });
    const host = await hostWith(kit, {}, 1500);
    const r = await host.call({ name: 'asks__ask_form' });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal((resultJson(r.modelText) as Any).action, 'accept');
  });

  it("nor against a resource read's or a prompt's (a 2025-era server asks while it answers them), and neither is named as a tool call", async () => {
    const kit = requestPorts({
      prompter: new ScriptedPrompter(async (q) => {
        await sleep(2500);
        return { action: 'accept', content: q.form.defaults() };
      }),
    });
    const host = await env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks', { timeoutMs: 1500, env: { FIXTURE_ASKING_CATALOG: '1' } })], autoApprove: ['asks/*'] }),
      ...kit.options,
    });
    const read = await host.catalog.readResource({ server: 'asks', uri: 'asks://profile' });
    assert.equal(read.outcome, 'ok', read.text);
    assert.equal((JSON.parse((read.contents[0] as { text: string }).text) as Any).action, 'accept');
    const prompt = await host.catalog.getPrompt({ server: 'asks', name: 'introduce' });
    assert.equal(prompt.outcome, 'ok', prompt.text);
    assert.equal((JSON.parse((prompt.messages[0]!.content as { text: string }).text) as Any).action, 'accept');
    assert.deepEqual(
      kit.prompter.forms.map((q) => q.duringCall),
      [[], []],
    );
    assert.deepEqual(
      requestRecords(kit.audit, 'elicitation').map((r) => [r.outcome, r.duringCall]),
      [
        ['accepted', []],
        ['accepted', []],
      ],
    );
  });

  it('a resource read or a prompt whose server keeps quiet (and asks nothing) still times out on that clock', async () => {
    const host = await env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks', { timeoutMs: 800, env: { FIXTURE_ASKING_CATALOG: '1' } })], autoApprove: ['asks/*'] }),
    });
    const read = await host.catalog.readResource({ server: 'asks', uri: 'asks://silent' });
    assert.deepEqual([read.outcome, read.text], ['timeout', 'no answer within 800 ms']);
    const prompt = await host.catalog.getPrompt({ server: 'asks', name: 'silent' });
    assert.deepEqual([prompt.outcome, prompt.text], ['timeout', 'no answer within 800 ms']);
  });

  it('questions are put to the user one at a time', async () => {
    let open = 0;
    let maxOpen = 0;
    const kit = requestPorts({
      prompter: new ScriptedPrompter(async (q) => {
        maxOpen = Math.max(maxOpen, ++open);
        await sleep(100);
        open--;
        return { action: 'accept', content: q.form.defaults() };
      }),
    });
    const host = await hostWith(kit);
    const results = await Promise.all([1, 2, 3].map(() => host.call({ name: 'asks__ask_form' })));
    assert.ok(results.every((r) => r.outcome === 'ok'));
    assert.equal(kit.prompter.forms.length, 3);
    assert.equal(maxOpen, 1);
  });
});
