/**
 * -32042 (URL elicitation required, protocol 2025-11-25) as the host's step: a real stdio server
 * (test/fixtures/servers/asks.mjs, tool link_account) answers -32042 until its link page was
 * visited. Each URL elicitation of the error goes through the elicitation path (settings, the
 * person, one audit record); accepted, the URL is opened (here: fetched, as a browser would), the
 * host waits for notifications/elicitation/complete and retries the call once. Anything else fails
 * with a clear text, the server called once.
 */
import * as assert from 'node:assert/strict';
import { readUrlElicitations } from '../../../../src/core/mcp/call/urlElicitationRequired';
import { settings, useTestEnv, waitFor, type Any } from '../helpers';
import { aborted, requestPorts, requestRecords, ScriptedPrompter } from './requestKit';

describe('-32042 URL elicitation required: the host runs the step, then retries once', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  /** A "browser" that loads the page: the fixture links the account on that visit. */
  const visit = async (url: string) => void (await (await fetch(url)).text());

  async function hostWith(kit: ReturnType<typeof requestPorts>, extra: Partial<Parameters<typeof settings>[0]> = {}, timeoutMs?: number) {
    return env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks', timeoutMs ? { timeoutMs } : {})], autoApprove: ['asks/*'], ...extra }),
      ...kit.options,
    });
  }

  const calls = () => env.events('asks').filter((e) => e.event === 'call' && e.tool === 'link_account');
  const callRecord = (kit: ReturnType<typeof requestPorts>) => kit.audit.records.find((r: Any) => r.kind === 'call') as Any;

  it('accepted: the person sees the message and the site, the URL opens, the completion notice arrives, the call is retried once and succeeds', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(undefined, undefined, visit) });
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__link_account' });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'account linked');
    assert.equal(kit.prompter.urls.length, 1);
    const q = kit.prompter.urls[0];
    assert.equal(q.message, 'Link your fixture account to continue');
    assert.match(q.url, /^http:\/\/127\.0\.0\.1:\d+\/link\?id=link-1$/);
    assert.equal(q.origin, new URL(q.url).origin);
    assert.equal(q.elicitationId, 'link-1');
    assert.deepEqual(q.duringCall, ['link_account'], 'asked as part of the call');
    assert.deepEqual(kit.prompter.opened, [q.url]);
    assert.equal(calls().length, 2, 'the call was sent twice: once answered -32042, once retried');
    const records = requestRecords(kit.audit, 'elicitation');
    assert.equal(records.length, 1, 'one audit record per URL elicitation');
    assert.deepEqual([records[0].outcome, records[0].decidedBy], ['accepted', 'user']);
    assert.deepEqual(records[0].request, { mode: 'url', message: 'Link your fixture account to continue', url: q.url, elicitationId: 'link-1', via: 'urlElicitationRequired' });
    assert.deepEqual(records[0].duringCall, ['link_account']);
    assert.ok(host.log.text().includes('the URL elicitation link-1 is complete'), 'the server confirmed the step');
    assert.equal(callRecord(kit)?.outcome, 'ok');
  });

  it('a server that sends no completion notice: after the wait (the call timeout, clock stopped) the call is retried once', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(undefined, undefined, visit) });
    const host = await hostWith(kit, {}, 1500);
    const r = await host.call({ name: 'asks__link_account', args: { notify: false } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'account linked');
    assert.equal(calls().length, 2);
    assert.match(host.log.text(), /no confirmation of the step in the browser after 1500 ms: the request is sent again/);
  });

  it('opened but not finished: the retry meets -32042 again and the call fails clearly, never a second retry', async () => {
    const kit = requestPorts(); // accepts and "opens" without visiting the page
    const host = await hostWith(kit, {}, 1000);
    const r = await host.call({ name: 'asks__link_account', args: { notify: false } });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /server "asks" still asks for the step in the browser after it was opened and the request sent again \(error -32042\); the tool did not run/);
    assert.equal(calls().length, 2, 'one retry, no loop');
    assert.equal(requestRecords(kit.audit, 'elicitation').length, 1, 'the second -32042 asks nobody');
  });

  it('declined: the call fails saying the step was not done; nothing opened; the server called once', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(undefined, () => ({ action: 'decline' })) });
    const host = await hostWith(kit);
    const r = await host.call({ name: 'asks__link_account' });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /server "asks" needs a step in the browser before this tool can run \("Link your fixture account to continue", http:\/\/127\.0\.0\.1:\d+\), and it was not done: the person declined to open it\. The tool did not run\./);
    assert.deepEqual(kit.prompter.opened, []);
    assert.equal(calls().length, 1);
    assert.deepEqual(
      requestRecords(kit.audit, 'elicitation').map((x) => [x.outcome, x.decidedBy]),
      [['declined', 'user']],
    );
    assert.equal(callRecord(kit)?.outcome, 'error');
  });

  it('mcpHost.elicitation does not allow the server: refused without asking, audited as denied by policy', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit, { elicitation: { servers: ['someone-else'], roles: {} } });
    const r = await host.call({ name: 'asks__link_account' });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /it was not done: the host refused it: mcpHost\.elicitation does not allow server "asks"\. The tool did not run\./);
    assert.equal(kit.prompter.urls.length, 0, 'the person was not asked');
    assert.equal(calls().length, 1);
    const [record] = requestRecords(kit.audit, 'elicitation');
    assert.deepEqual([record.outcome, record.decidedBy], ['denied', 'policy']);
  });

  it('malformed data (no URL, not http(s), not an object): a clear error naming what is wrong; nobody asked, nothing opened', async () => {
    const kit = requestPorts();
    const host = await hostWith(kit);
    const expected: Record<string, RegExp> = {
      'no-url': /data\.elicitations\.0\.url: expected a string/,
      ftp: /data\.elicitations\.0\.url: expected an http\(s\) URL/,
      garbage: /data: expected an object with "elicitations"/,
    };
    for (const [data, problem] of Object.entries(expected)) {
      const r = await host.call({ name: 'asks__link_account', args: { data } });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.match(r.modelText, /server "asks" asked for a step in the browser \(error -32042, URL elicitation required\) but its request is not usable/, data);
      assert.match(r.modelText, problem, data);
      assert.match(r.modelText, /nothing was opened and the tool did not run/);
    }
    assert.equal(kit.prompter.urls.length, 0);
    assert.deepEqual(kit.prompter.opened, []);
    assert.equal(requestRecords(kit.audit, 'elicitation').length, 0);
    assert.equal(calls().length, 3, 'each call sent once');
  });

  it('Stop while the person is asked: the question ends, audited as cancelled, the call is cancelled and not retried', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter(undefined, (_q, signal) => aborted(signal)) });
    const host = await hostWith(kit);
    const stop = new AbortController();
    const call = host.call({ name: 'asks__link_account', signal: stop.signal });
    await waitFor('the question', () => kit.prompter.urls.length === 1, 15_000);
    stop.abort();
    const r = await call;
    assert.equal(r.outcome, 'cancelled', r.modelText);
    assert.deepEqual(kit.prompter.opened, []);
    assert.equal(calls().length, 1);
    const [record] = requestRecords(kit.audit, 'elicitation');
    assert.deepEqual([record.outcome, record.reason], ['cancelled', 'the call was stopped']);
  });

  it('a host that cannot ask anybody keeps the error as the server said it', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'] }) });
    const r = await host.call({ name: 'asks__link_account' });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /server "asks" needs you to complete a step in the browser before this request \(error -32042/);
    assert.equal(calls().length, 1);
  });
});

describe('readUrlElicitations: the data of a -32042', () => {
  it('takes URL elicitations with message, elicitationId and an http(s) URL', () => {
    const e = { mode: 'url', message: 'Sign in', elicitationId: 'x', url: 'https://example.org/connect?e=x' };
    assert.deepEqual(readUrlElicitations({ elicitations: [e], more: 1 }), { ok: true, elicitations: [e] });
  });

  it('names what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /^data: expected an object with "elicitations"$/],
      [{ elicitations: [] }, /^data\.elicitations: expected at least one URL elicitation$/],
      [{ elicitations: [{ mode: 'form', message: 'm', elicitationId: 'x', url: 'https://e.org' }] }, /^data\.elicitations\.0\.mode: expected "url"$/],
      [{ elicitations: [{ mode: 'url', message: 'm', elicitationId: '', url: 'https://e.org' }] }, /^data\.elicitations\.0\.elicitationId: expected a non-empty string$/],
      [{ elicitations: [{ mode: 'url', message: 'm', elicitationId: 'x', url: 'not a url' }] }, /^data\.elicitations\.0\.url: expected an absolute URL$/],
      [{ elicitations: [{ mode: 'url', message: 'm', elicitationId: 'x', url: 'javascript:alert(1)' }] }, /^data\.elicitations\.0\.url: expected an http\(s\) URL$/],
    ];
    for (const [data, error] of cases) {
      const read = readUrlElicitations(data);
      assert.equal(read.ok, false, JSON.stringify(data));
      if (!read.ok) assert.match(read.error, error);
    }
  });
});
