/**
 * What the servers behind the gateway ask (test/fixtures/servers/asks.mjs: form and URL
 * elicitation, sampling, roots) relayed to the real SDK v2 client whose call they serve, over
 * Streamable HTTP in both protocol eras: the host's policy and audit decide first (a refusal never
 * reaches the client), a client that did not declare the capability is not asked, roots never
 * widen past the settings.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { Gateway, type GatewayHttp } from '../../../../src/core/gateway/gateway';
import { newGatewayToken } from '../../../../src/core/gateway/bearerToken';
import { UpstreamRelay } from '../../../../src/core/gateway/upstreamRelay';
import { decliningPrompter } from '../../../../src/core/requests/elicitationPrompter';
import { folderRoots, rootsWithin } from '../../../../src/core/requests/rootsSource';
import { refusingSampler } from '../../../../src/core/requests/sampler';
import { RecordingLogger, settings, useTestEnv, type Any } from '../helpers';
import { useGatewayTest } from './gatewayKit';

describe('gateway: server requests relayed to the upstream client', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  const gw = useGatewayTest();

  /** asks behind the host; the fallback (nobody) declines, refuses sampling and would fail to open a URL. */
  const start = async (extra: Any = {}) => {
    const logger = new RecordingLogger();
    const opened: string[] = [];
    const nobody = { elicitation: { ...decliningPrompter('nobody else can be asked'), openUrl: async (u: string) => void opened.push(u) }, sampler: refusingSampler('nobody else can be asked') };
    const relay = new UpstreamRelay(nobody, logger);
    const sink = new MemorySink();
    const host = await env.started({
      settings: settings({ servers: [env.stdio('asks', 'asks')], autoApprove: ['asks/*'], ...extra }),
      serverRequests: relay.ports(folderRoots([env.dir])),
      workspaceFolder: env.dir,
      auditSinks: [sink],
    });
    const token = newGatewayToken();
    const gateway = (gw.gateway = new Gateway(host, { confirmations: 'upstream', logger: host.log, relay }));
    const http = await gateway.listenHttp({ token });
    const tool = (name: string) => host.snapshot().exposed.find((t) => t.entry.tool.name === name)!.entry.name;
    return { host, sink, http, token, tool, logger, opened };
  };

  /** A client that records what it is asked and answers as `answers` says. */
  const connect = async (http: GatewayHttp, token: string, capabilities: Any, answers: Any = {}, o: Any = {}) => {
    const asked: Any[] = [];
    const client = await gw.connect(http, token, capabilities, o.name ?? 'relay-agent', { modern: o.modern, version: '1.0' });
    const on = (method: string) => client.setRequestHandler(method as Any, async (r: Any) => (asked.push({ method, params: r.params }), answers[method]?.(r.params)));
    if (capabilities.elicitation) on('elicitation/create');
    if (capabilities.sampling) on('sampling/createMessage');
    if (capabilities.roots) on('roots/list');
    return { client, asked };
  };
  const json = (r: Any) => JSON.parse(r.content.map((c: Any) => c.text).join(''));
  const text = (r: Any) => r.content.map((c: Any) => c.text).join('\n');
  const records = (sink: MemorySink, kind: string) => sink.records.filter((r: Any) => r.kind === kind) as Any[];

  const everything = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  const answers = (sub: string) => ({
    'sampling/createMessage': (p: Any) => ({ role: 'assistant', model: 'agent-model', stopReason: 'endTurn', content: { type: 'text', text: `answer to ${p.messages[0].content.text}` } }),
    'elicitation/create': (p: Any) => (p.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'Grace' } }),
    'roots/list': () => ({ roots: [{ uri: pathToFileURL(sub).href, name: 'sub' }, { uri: 'file:///etc', name: 'etc' }] }),
  });

  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    it(`${era}: sampling, URL elicitation and roots reach the client whose call it is, after the host's policy; roots stay within the settings`, async () => {
      const { sink, http, token, tool, opened } = await start({ sampling: { servers: ['asks'], roles: {} } });
      const sub = path.join(env.dir, 'sub');
      fs.mkdirSync(sub);
      const { client, asked } = await connect(http, token, everything, answers(sub), { modern: era === '2026-07-28' });
      assert.equal(client.getNegotiatedProtocolVersion() ?? '2025-11-25', era);

      const sampled = await client.callTool({ name: tool('sample'), arguments: { prompt: 'Write a haiku', maxTokens: 42, systemPrompt: 'Be brief' } });
      assert.equal(sampled.isError, false, text(sampled));
      assert.deepEqual(json(sampled), { role: 'assistant', model: 'agent-model', stopReason: 'endTurn', content: { type: 'text', text: 'answer to Write a haiku' } });
      const sampling = asked.find((a) => a.method === 'sampling/createMessage').params;
      assert.deepEqual([sampling.maxTokens, sampling.systemPrompt, sampling.tools], [42, 'Be brief', undefined]);
      assert.deepEqual(records(sink, 'sampling').map((r) => [r.outcome, r.decidedBy, r.answer.model]), [['accepted', 'user', 'agent-model']]);

      const url = await client.callTool({ name: tool('ask_url'), arguments: { url: 'https://example.com/link' } });
      assert.deepEqual(json(url), { action: 'accept' });
      const urlQuestion = asked.find((a) => a.method === 'elicitation/create').params;
      assert.deepEqual([urlQuestion.mode, urlQuestion.url], ['url', 'https://example.com/link']);
      assert.match(urlQuestion.message, /Server "asks" asks during the call of ask_url/);
      assert.deepEqual(opened, [], 'the client opens the page; the host does not open it again');

      const roots = await client.callTool({ name: tool('roots'), arguments: {} });
      assert.deepEqual(json(roots), { roots: [{ uri: pathToFileURL(sub).href, name: 'sub' }] }, 'file:///etc is outside the workspace folder the settings give');
      const [rootsRecord] = records(sink, 'roots').filter((r) => r.answer.offered);
      assert.deepEqual(rootsRecord.answer.offered, [pathToFileURL(sub).href, 'file:///etc']);
      assert.deepEqual(rootsRecord.duringCall, ['roots']);
    });
  }

  it('a request the policy refuses never reaches the client (sampling off; elicitation not allowed)', async () => {
    const { sink, http, token, tool } = await start({ elicitation: { servers: [], roles: {} } });
    const { client, asked } = await connect(http, token, everything, answers(env.dir));
    assert.match(text(await client.callTool({ name: tool('sample'), arguments: { prompt: 'x' } })), /sampling failed: -1 .*Sampling is not allowed: mcpHost\.sampling does not allow server "asks"/);
    assert.deepEqual(json(await client.callTool({ name: tool('ask_form'), arguments: {} })), { action: 'decline' });
    assert.deepEqual(json(await client.callTool({ name: tool('ask_url'), arguments: { url: 'https://example.com/x' } })), { action: 'decline' });
    assert.deepEqual(asked, [], 'the client was never asked');
    assert.deepEqual(
      sink.records.filter((r: Any) => r.kind !== 'call').map((r: Any) => [r.kind, r.outcome, r.decidedBy]),
      [
        ['sampling', 'denied', 'policy'],
        ['elicitation', 'denied', 'policy'],
        ['elicitation', 'denied', 'policy'],
      ],
    );
  });

  it('a client that did not declare the capability is not asked: the server is declined and told why; roots stay the settings', async () => {
    const { sink, http, token, tool, logger } = await start({ sampling: { servers: ['asks'], roles: {} } });
    const { client, asked } = await connect(http, token, { elicitation: { form: {} } }, answers(env.dir), { name: 'form-only' });
    assert.match(text(await client.callTool({ name: tool('sample'), arguments: { prompt: 'x' } })), /User rejected sampling request \(client "form-only" \(whose call of \S*sample server "asks" serves\) did not declare sampling\)/);
    assert.deepEqual(json(await client.callTool({ name: tool('ask_url'), arguments: { url: 'https://example.com/x' } })), { action: 'decline' });
    assert.ok(logger.lines.some((l) => /did not declare elicitation\.url: declined/.test(l.message)), logger.lines.map((l) => l.message).join('\n'));
    assert.deepEqual(json(await client.callTool({ name: tool('roots'), arguments: {} })), { roots: [{ uri: pathToFileURL(env.dir).href, name: path.basename(env.dir) }] });
    assert.deepEqual(asked, []);
    assert.deepEqual(records(sink, 'sampling').map((r) => [r.outcome, r.reason]), [['declined', `client "form-only" (whose call of ${tool('sample')} server "asks" serves) did not declare sampling`]]);
    // The form question still reaches it (it declared form elicitation).
    assert.equal(json(await client.callTool({ name: tool('ask_form'), arguments: {} })).content.name, 'Grace');
  });
});

describe('rootsWithin: a client narrows the roots the settings give, never widens them', () => {
  const root = (p: string) => ({ uri: pathToFileURL(p).href, name: path.basename(p) });
  it('keeps what lies inside both, whichever side is wider; drops the rest', () => {
    const ws = path.resolve('/work/ws');
    assert.deepEqual(rootsWithin([root('/work/ws/src')], [root(ws)]), [root('/work/ws/src')], 'a narrower client root stays');
    assert.deepEqual(rootsWithin([root('/work')], [root(ws)]), [root(ws)], 'a wider client root gives the allowed one');
    assert.deepEqual(rootsWithin([root('/work/wsx'), root('/etc'), root('/work/ws/../other')], [root(ws)]), [], 'siblings, elsewhere and .. escapes are dropped');
    assert.deepEqual(rootsWithin([{ uri: 'https://example.com/repo', name: 'r' }], [{ uri: 'https://example.com/repo', name: 'r' }]), [{ uri: 'https://example.com/repo', name: 'r' }]);
    assert.deepEqual(rootsWithin([root(ws)], []), [], 'no allowed roots, none given');
  });
});
