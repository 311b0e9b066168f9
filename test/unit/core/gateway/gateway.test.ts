/**
 * The gateway with a real SDK v2 client as the upstream client over Streamable HTTP, and real
 * fixture servers behind the host: token, the role view, confirmation by elicitation, cancellation,
 * the audit actor, connected clients and list_changed.
 */
import * as assert from 'node:assert/strict';
import { actor } from '../../../../src/core/audit/actor';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { Gateway, type GatewayHttp } from '../../../../src/core/gateway/gateway';
import { newGatewayToken } from '../../../../src/core/gateway/bearerToken';
import { UpstreamRelay } from '../../../../src/core/gateway/upstreamRelay';
import { decliningPrompter } from '../../../../src/core/requests/elicitationPrompter';
import { refusingSampler } from '../../../../src/core/requests/sampler';
import { folderRoots } from '../../../../src/core/requests/rootsSource';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import { RecordingLogger, role, settings, useTestEnv, waitFor, withTimeout, type Any } from '../helpers';
import { useGatewayTest } from './gatewayKit';

describe('gateway (SDK v2 client over HTTP)', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  const gw = useGatewayTest();

  /** basic and slow reviewed, collide never reviewed (quarantined); role "dev" leaves out basic/image. */
  const start = async (confirmations: 'upstream' | 'host' = 'upstream') => {
    const sink = new MemorySink();
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow'), env.stdio('collide', 'collide')],
        pinning: 'review',
        autoApprove: ['basic/echo', 'slow/*'],
        roles: [role('dev', { exclude: ['basic/image'] }), role('other', { tools: ['basic/echo'] })],
      }),
      role: 'dev',
      workspaceFolder: env.dir,
      auditSinks: [sink],
    });
    for (const server of ['basic', 'slow']) host.definitions.approve(server, host.definitions.review(server)!.token, actor('editor'));
    const token = newGatewayToken();
    gw.gateway = new Gateway(host, { confirmations, logger: host.log });
    const http = await gw.gateway.listenHttp({ token });
    return { host, sink, token, http };
  };

  const connect = (http: GatewayHttp, token: string, capabilities: Any = {}, name = 'test-agent') => gw.connect(http, token, capabilities, name);
  const text = (r: Any) => r.content.map((c: Any) => c.text).join('\n');
  const exposedNames = (host: McpHost) => host.snapshot().exposed.map((t) => t.entry.name);

  it('refuses every request without the token or with a wrong one (401)', async () => {
    const { http, token } = await start();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const auth of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`]) {
      const res = await fetch(http.url, { method: 'POST', body, headers: { ...headers, ...(auth ? { Authorization: auth } : {}) } });
      assert.equal(res.status, 401, `status for ${auth}`);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
    await assert.rejects(connect(http, 'not-the-token'));
    const ok = await connect(http, token);
    assert.ok((await ok.listTools()).tools.length > 0);
  });

  it('lists exactly the role view; quarantined and out-of-role tools are absent and refused', async () => {
    const { host, http, token, sink } = await start();
    const client = await connect(http, token);
    const listed = (await client.listTools()).tools;
    assert.deepEqual(listed.map((t) => t.name), exposedNames(host));
    assert.ok(!listed.some((t) => /image/.test(t.name)), 'basic/image is outside the role');
    assert.ok(!listed.some((t) => /collide|search/.test(t.name)), 'collide is quarantined');
    const echo = listed.find((t) => t.name.endsWith('echo'))!;
    const entry = host.snapshot().exposed.find((t) => t.entry.name === echo.name)!.entry;
    assert.equal(echo.description, entry.tool.description, 'the reviewed definition');
    assert.deepEqual(echo.inputSchema, entry.tool.inputSchema);

    const image = host.snapshot().tools('basic').find((t) => t.tool.name === 'image')!.exposedName!;
    const out = await client.callTool({ name: image, arguments: {} });
    assert.equal(out.isError, true);
    assert.match(text(out), /is not available/);
    const collide = host.snapshot().tools('collide').find((t) => t.tool.name === 'search')!.exposedName!;
    const q = await client.callTool({ name: collide, arguments: {} });
    assert.equal(q.isError, true);
    assert.match(text(q), /quarantined and was not called/);
    assert.equal(env.events('collide').filter((e: Any) => e.event === 'call').length, 0, 'the quarantined server never saw a call');
    assert.equal(env.events('basic').filter((e: Any) => e.event === 'call').length, 0);
    assert.deepEqual(
      sink.records.filter((r: Any) => r.kind === 'call').map((r: Any) => r.outcome),
      ['notFound', 'quarantined'],
    );
  });

  it('an auto-approved call runs through the router, audited with the upstream client as actor', async () => {
    const { host, http, token, sink } = await start();
    const client = await connect(http, token);
    const echo = exposedNames(host).find((n) => n.endsWith('echo'))!;
    const out = await client.callTool({ name: echo, arguments: { text: 'hi' } });
    assert.equal(text(out), 'echo: hi');
    const rec = sink.records.find((r: Any) => r.kind === 'call') as Any;
    assert.equal(rec.outcome, 'ok');
    assert.equal(rec.confirmedBy, 'policy');
    assert.deepEqual(rec.actor, { kind: 'upstream', client: 'test-agent', version: '1.2.3', transport: 'http' });
    assert.deepEqual(
      gw.gateway!.clients().map((c) => [c.name, c.version, c.transport, c.calls]),
      [['test-agent', '1.2.3', 'http', 1]],
    );
  });

  it('a call that needs confirmation asks the client through elicitation: accept runs it, decline denies it', async () => {
    const { host, http, token, sink } = await start();
    const questions: Any[] = [];
    let answer: Any = { action: 'accept', content: { approve: true } };
    const client = await connect(http, token, { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request: Any) => {
      questions.push(request.params);
      return answer;
    });
    const add = exposedNames(host).find((n) => n.endsWith('add'))!;
    const ok = await client.callTool({ name: add, arguments: { a: 2, b: 3 } });
    assert.equal(ok.isError, false);
    assert.equal(text(ok), '5');
    assert.equal(questions.length, 1);
    assert.match(questions[0].message, /tool "add" of server "basic"/);
    assert.match(questions[0].message, /"a": 2/);

    answer = { action: 'decline' };
    const no = await client.callTool({ name: add, arguments: { a: 1, b: 1 } });
    assert.equal(no.isError, true);
    assert.match(text(no), /denied/);
    answer = { action: 'accept', content: { approve: false } };
    assert.equal((await client.callTool({ name: add, arguments: { a: 1, b: 1 } })).isError, true);
    assert.deepEqual(
      env.events('basic').filter((e: Any) => e.event === 'call').map((e: Any) => e.args),
      [{ a: 2, b: 3 }],
      'only the accepted call reached the server',
    );
    assert.deepEqual(
      sink.records.filter((r: Any) => r.kind === 'call').map((r: Any) => [r.outcome, r.confirmedBy]),
      [['ok', 'user'], ['denied', null], ['denied', null]],
    );
  });

  it('a call that needs confirmation is denied with a clear message when the client cannot be asked', async () => {
    const { host, http, token } = await start();
    const client = await connect(http, token);
    const add = exposedNames(host).find((n) => n.endsWith('add'))!;
    const out = await client.callTool({ name: add, arguments: { a: 2, b: 3 } });
    assert.equal(out.isError, true);
    assert.match(text(out), /needs confirmation and MCP Host cannot ask: client "test-agent" did not declare the elicitation capability/);
    assert.equal(env.events('basic').filter((e: Any) => e.event === 'call').length, 0, 'never run unasked');
  });

  it("the client's cancellation reaches the server behind (notifications/cancelled)", async () => {
    const { host, http, token, sink } = await start();
    const client = await connect(http, token);
    const sleep = exposedNames(host).find((n) => n.endsWith('sleep'))!;
    const abort = new AbortController();
    const call = client.callTool({ name: sleep, arguments: { ms: 20_000 } }, { signal: abort.signal });
    await waitFor('the call to reach slow', () => env.events('slow').some((e: Any) => e.event === 'call'), 10_000);
    abort.abort('stop');
    await assert.rejects(call);
    await waitFor('slow to see notifications/cancelled', () => env.events('slow').some((e: Any) => e.event === 'cancelled'), 10_000);
    await waitFor('the audit record', () => sink.records.some((r: Any) => r.kind === 'call'));
    assert.equal((sink.records.find((r: Any) => r.kind === 'call') as Any).outcome, 'cancelled');
  });

  it('forwards tools/list_changed when the role view changes', async () => {
    const { host, http, token } = await start();
    const client = await connect(http, token);
    await client.listTools();
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    // The session's notification stream (GET) is opened by the client after initialize.
    await new Promise((r) => setTimeout(r, 200));
    await host.setRole('other');
    await withTimeout(
      (async () => {
        while (!changed) await new Promise((r) => setTimeout(r, 20));
      })(),
      5000,
      'list_changed',
    );
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), exposedNames(host));
    assert.equal(exposedNames(host).length, 1);
  });

  /** A host of its own, with the gateway on HTTP. */
  const startWith = async (hostSettings: Any, gatewayOptions: Any = {}, confirmer?: Any) => {
    const sink = new MemorySink();
    const host = await env.started({ settings: settings(hostSettings), workspaceFolder: env.dir, auditSinks: [sink], ...(confirmer ? { confirmer } : {}) });
    const token = newGatewayToken();
    gw.gateway = new Gateway(host, { confirmations: 'upstream', logger: host.log, ...gatewayOptions });
    return { host, sink, token, http: await gw.gateway.listenHttp({ token }) };
  };

  it("over the role's budget: a selection plus search_tools, whose finds are offered next (list_changed)", async () => {
    const { host, http, token } = await startWith({ servers: [env.stdio('many', 'many-tools')], autoApprove: ['many/*'], toolBudget: { maxTools: 5 } });
    const client = await connect(http, token);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const first = (await client.listTools()).tools;
    assert.equal(first.length, 5);
    assert.equal(first[4].name, 'search_tools');
    assert.equal(host.snapshot().exposed.length, 100);
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'refund ticket', limit: 1 } });
    assert.match(text(found), /refund_ticket/);
    await waitFor('list_changed after search_tools', () => changed > 0);
    const next = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(next.some((n) => n.endsWith('refund_ticket')), next.join(', '));
    const refund = next.find((n) => n.endsWith('refund_ticket'))!;
    assert.match(text(await client.callTool({ name: refund, arguments: { id: '7' } })), /refund_ticket done for 7/);
  });

  it("offers the role's resources and prompts, read and used through the host's catalog", async () => {
    const { http, token, sink } = await startWith({
      servers: [env.stdio('catalog', 'catalog')],
      roles: [role('reader', { resources: ['catalog/fixture://catalog/doc/*', 'catalog/fixture://catalog/item/*'], prompts: ['catalog/greet'] })],
      activeRole: 'reader',
    });
    const client = await connect(http, token);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(resources, [1, 2, 3, 4, 5, 6, 7].map((i) => `fixture://catalog/doc/${i}`));
    assert.deepEqual((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate), ['fixture://catalog/item/{id}']);
    const doc = await client.readResource({ uri: 'fixture://catalog/doc/2' });
    assert.match((doc.contents[0] as Any).text, /doc-2/);
    assert.match(((await client.readResource({ uri: 'fixture://catalog/item/9' })).contents[0] as Any).text, /item 9/);
    await assert.rejects(client.readResource({ uri: 'fixture://catalog/image.png' }), /not available/);
    assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ['greet']);
    const greet = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    assert.match(JSON.stringify(greet.messages), /Ada/);
    await assert.rejects(client.getPrompt({ name: 'plain' }), /not available/);
    // Every read and prompt use is audited with the upstream client as actor, refusals included (role globs apply).
    const upstream = { kind: 'upstream', client: 'test-agent', version: '1.2.3', transport: 'http' };
    const reads = sink.records.filter((r: Any) => r.kind === 'resource') as Any[];
    assert.deepEqual(
      reads.map((r) => [r.uri, r.outcome, r.purpose]),
      [
        ['fixture://catalog/doc/2', 'ok', 'gateway'],
        ['fixture://catalog/item/9', 'ok', 'gateway'],
        ['fixture://catalog/image.png', 'notAllowed', 'gateway'],
      ],
    );
    for (const r of reads) assert.deepEqual(r.actor, upstream);
    const prompts = sink.records.filter((r: Any) => r.kind === 'prompt') as Any[];
    assert.deepEqual(prompts.map((r) => [r.prompt, r.outcome]), [['greet', 'ok'], ['plain', 'notAllowed']]);
    for (const r of prompts) assert.deepEqual(r.actor, upstream);
    await assert.rejects(client.readResource({ uri: 'fixture://nowhere/x' }), /not available/);
    assert.equal(sink.records.filter((r: Any) => r.kind === 'resource').length, 3, 'a URI no server has reaches no reader');
  });

  it('passes progress back when the client asked with a progressToken', async () => {
    const { http, token } = await startWith({ servers: [env.stdio('tasks', 'tasks')], autoApprove: ['tasks/*'] });
    const client = await connect(http, token);
    const name = (await client.listTools()).tools.map((t) => t.name).find((n) => n.endsWith('progress'))!;
    const seen: Any[] = [];
    const out = await client.callTool({ name, arguments: { steps: 3, stepMs: 10 } }, { onprogress: (p: Any) => seen.push(p) });
    assert.equal(out.isError, false);
    assert.ok(seen.length >= 1, 'progress reached the client');
    assert.equal(seen[seen.length - 1].total, 3);
  });

  it("confirmations 'host': the host's confirmer asks, and annotateForEditor marks only auto-approved tools read-only", async () => {
    const asked: Any[] = [];
    const confirmer = { confirm: async (r: Any) => (asked.push(r), 'once' as const) };
    const { host, http, token } = await startWith({ servers: [env.stdio('basic', 'basic')], autoApprove: ['basic/noop'] }, { confirmations: 'host', annotateForEditor: true }, confirmer);
    const client = await connect(http, token, {}, 'Visual Studio Code');
    const tools = (await client.listTools()).tools;
    const byTool = (t: string) => tools.find((x) => x.name.endsWith(t))!;
    assert.equal(byTool('noop').annotations?.readOnlyHint, true);
    assert.equal(byTool('echo').annotations?.readOnlyHint, undefined, 'echo says readOnlyHint, but the host asks for it: the editor must not skip asking');
    assert.equal(text(await client.callTool({ name: byTool('echo').name, arguments: { text: 'x' } })), 'echo: x');
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].actor, { kind: 'upstream', client: 'Visual Studio Code', version: '1.2.3', transport: 'http' });
    void host;
  });

  it('serves the 2026-07-28 revision too: a negotiating client lists and is asked through input_required', async () => {
    const { host, http, token } = await start();
    const client = await gw.connect(http, token, { elicitation: { form: {} } }, 'modern-agent', { modern: true, version: '2' });
    const questions: Any[] = [];
    client.setRequestHandler('elicitation/create', async (request: Any) => (questions.push(request.params), { action: 'accept', content: { approve: true } }));
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), exposedNames(host));
    const add = exposedNames(host).find((n) => n.endsWith('add'))!;
    assert.equal(text(await client.callTool({ name: add, arguments: { a: 4, b: 5 } })), '9');
    assert.equal(questions.length, 1);
    assert.ok(gw.gateway!.clients().some((c) => c.name === 'modern-agent'));
  });

  it("relays a server's question during a call to the client whose call it is (the host's policy and audit still decide)", async () => {
    const relay = new UpstreamRelay({ elicitation: decliningPrompter('nobody else can be asked'), sampler: refusingSampler('no sampling here') }, new RecordingLogger());
    const sink = new MemorySink();
    const host = await env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'] }),
      serverRequests: relay.ports(folderRoots([])),
      auditSinks: [sink],
    });
    const token = newGatewayToken();
    gw.gateway = new Gateway(host, { confirmations: 'upstream', logger: host.log, relay });
    const http = await gw.gateway.listenHttp({ token });
    const questions: Any[] = [];
    const client = await connect(http, token, { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request: Any) => (questions.push(request.params), { action: 'accept', content: { name: 'Grace' } }));
    const askForm = exposedNames(host).find((n) => n.endsWith('ask_form'))!;
    const out = await client.callTool({ name: askForm, arguments: {} });
    assert.equal(out.isError, false, text(out));
    assert.equal(JSON.parse(text(out)).content.name, 'Grace');
    assert.equal(questions.length, 1);
    assert.match(questions[0].message, /Server "asks" asks during the call of ask_form: Tell us about yourself/);
    assert.ok(questions[0].requestedSchema.properties.name, 'the server\'s own form');
    assert.ok(sink.records.some((r: Any) => r.kind === 'elicitation' && r.outcome === 'accepted'), JSON.stringify(sink.records.map((r: Any) => [r.kind, r.outcome])));

    // A client that cannot be asked: the question is declined, the call still ends.
    const plain = await connect(http, token, {}, 'plain-agent');
    const declined = await plain.callTool({ name: askForm, arguments: {} });
    assert.equal(JSON.parse(text(declined)).action, 'decline');
  });
});
