/**
 * Fault injection over HTTP: faultyHttpServer.mjs (raw node:http on 127.0.0.1) answering with
 * HTTP errors, 401 with and without WWW-Authenticate, 404 on POST (the SSE fallback), slow answers,
 * a JSON body or an SSE stream cut mid-call, a server that dies after connecting, large results.
 * The faulty HTTP servers are children of the test process; the CLI's own children (the healthy
 * stdio server) must all be gone when it exits.
 */
import * as assert from 'node:assert/strict';
import {
  ensureBuilt,
  healthyServer,
  makeWorkspace,
  MiB,
  removeTempDirs,
  runCli,
  Session,
  startFaultyHttp,
  tempDir,
  type CliRun,
  type FaultyOptions,
  type HttpServer,
  type Json,
} from '../fixtures/faulty/cliFaultHarness';
import { assertAtOnce, assertAudited, assertHealthyAnswers, assertHealthyConnected, assertNothingLeft, LONG_TIMEOUT, reportCase } from './faultAssertions';

const OBJ = { type: 'object' };
const tool = (name: string) => ({ name, description: `tool ${name}`, inputSchema: OBJ });
const remote = (h: HttpServer, extra: Json = {}) => ({ type: 'http', url: h.url, ...extra });

describe('faults: HTTP servers', function () {
  this.timeout(90_000);
  before(ensureBuilt);
  const servers: HttpServer[] = [];
  const sessions: Session[] = [];
  const start = async (dir: string, name: string, o: FaultyOptions) => {
    const h = await startFaultyHttp(dir, name, o);
    servers.push(h);
    return h;
  };
  after(async () => {
    for (const s of sessions.splice(0)) s.destroy();
    await Promise.all(servers.splice(0).map((h) => h.close()));
    removeTempDirs();
  });

  describe('failures while connecting (one check over several servers)', () => {
    let run: CliRun;
    let doc: Json;
    const hs: Record<string, HttpServer> = {};
    before(async () => {
      const dir = tempDir();
      const opts: Record<string, FaultyOptions> = {
        init500: { initialize: [{ status: 500, body: 'internal trouble' }] },
        init401auth: { initialize: [{ status: 401, wwwAuthenticate: 'Bearer realm="faults", error="invalid_token"' }] },
        init401bare: { initialize: [{ status: 401 }] },
        post404legacy: { postStatus: { code: 404 }, legacySse: true, tools: [tool('viaSse')] },
        post404none: { postStatus: { code: 404 } },
        slowInit: { initialize: [{ sleep: 30_000 }] },
      };
      for (const [name, o] of Object.entries(opts)) hs[name] = await start(dir, name, o);
      const settings: Record<string, Json> = {};
      for (const [name, h] of Object.entries(hs)) settings[name] = remote(h, name === 'slowInit' ? { connectTimeoutMs: 2000 } : {});
      const ws = makeWorkspace({ ...settings, healthy: healthyServer() });
      run = await runCli(['check', '--json', '--workspace', ws.dir]);
      doc = assertHealthyConnected(run);
      for (const name of Object.keys(opts)) {
        const v = doc.servers.find((s: Json) => s.name === name);
        reportCase(`http connect: ${name}`, { state: v.state, error: v.error });
      }
    });
    const view = (name: string) => doc.servers.find((s: Json) => s.name === name);

    it('HTTP 500 on initialize: an error that names the status', async () => {
      assert.equal(view('init500').state, 'error');
      assert.match(view('init500').error, /HTTP 500/);
    });

    it('HTTP 401 with and without WWW-Authenticate from a server without headers of its own: needs sign-in (a 2025-03-26 server, default endpoints of its origin; issue 27)', async () => {
      for (const name of ['init401auth', 'init401bare']) assert.equal(view(name).state, 'needsSignIn', name);
    });

    it('404 on POST with a legacy SSE endpoint: connected through the SSE fallback', async () => {
      assert.equal(view('post404legacy').state, 'connected', view('post404legacy').error);
      assert.ok(doc.tools.some((t: Json) => t.name === 'post404legacy__viaSse'));
      assert.ok(hs.post404legacy.events().some((e) => e.event === 'request' && e.transport === 'sse'));
    });

    it('check shows which transport a "type": "http" server ended up on (Streamable HTTP or the SSE fallback)', async () => {
      assert.equal(view('post404legacy').transport, 'sse');
      assert.equal(view('healthy').transport, 'stdio');
    });

    it('404 on POST and no SSE endpoint either: an error', async () => {
      assert.equal(view('post404none').state, 'error');
      assert.match(view('post404none').error, /404|405/);
    });

    it('an initialize slower than connectTimeoutMs: an error after that time, not after the slow answer', async () => {
      assert.equal(view('slowInit').state, 'error');
      assert.match(view('slowInit').error, /initialize/);
    });

    it('check exits 1 well before the slow server would have answered; nothing is left', async () => {
      assert.equal(run.code, 1);
      assertAtOnce(run.wallMs, 'check');
      assertNothingLeft(run.leftBehind);
    });
  });

  for (const mode of ['json', 'sse'] as const) {
    describe(`failures during calls (${mode} responses)`, () => {
      let h: HttpServer;
      let s: Session;
      let ws: ReturnType<typeof makeWorkspace>;
      const CUT = ['cutSse', 'cutSsePrimed', 'resetSse'];
      before(async () => {
        const dir = tempDir();
        h = await start(dir, `calls-${mode}`, {
          mode,
          tools: ['status500', 'status401', 'slow', 'cutJson', ...CUT, 'big10', 'big50', 'ok'].map(tool),
          calls: {
            status500: [{ status: 500, body: 'call trouble' }],
            status401: [{ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' }],
            slow: [{ sleep: 3000 }, { reply: { text: 'slow but fine' } }],
            cutJson: [{ cutJson: { textBytes: 100_000 } }],
            cutSse: [{ cutSse: { partial: true } }],
            cutSsePrimed: [{ cutSse: { priming: true, partial: true } }],
            resetSse: [{ cutSse: { partial: true, destroy: true } }],
            big10: [{ reply: { textBytes: 10 * MiB } }],
            big50: [{ reply: { textBytes: 50 * MiB } }],
          },
        });
        ws = makeWorkspace({ faulty: remote(h), healthy: healthyServer() });
        // 20 s: "at once" (< 15 s) and "after the timeout" cannot be confused, and a cut stream
        // that were waited out (a regression) would still end within the test.
        s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', '20000']);
        sessions.push(s);
        // Sent at once: were a cut stream waited out (20 s), the cases would cost one wait in all.
        for (const name of CUT) s.send({ id: `cut-${name}`, op: 'call', name: `faulty__${name}`, args: {} });
      });

      const call = async (name: string) => {
        const r = await s.call(`${name}`, `faulty__${name}`, {}, 30_000);
        reportCase(`http call (${mode}): ${name}`, { outcome: r.answer.outcome, ms: r.ms, text: r.answer.modelText.slice(0, 200) });
        assert.ok(h.alive(), `the faulty HTTP server died:\n${h.stderr()}`);
        return r;
      };

      it('HTTP 500 on a call: an error outcome at once that names the status', async () => {
        const { answer, ms } = await call('status500');
        assert.equal(answer.outcome, 'error');
        assert.match(answer.modelText, /call trouble/);
        assertAtOnce(ms, 'status500');
      });

      it('HTTP 500 on a call: the error names the status code', async () => {
        const { answer: e500 } = await s.call('status500-again', 'faulty__status500');
        assert.match(e500.modelText, /HTTP 500/, e500.modelText);
      });

      it('a slow answer (3 s) within the timeout: ok', async () => {
        const { answer } = await call('slow');
        assert.equal(answer.outcome, 'ok');
        assert.equal(answer.modelText, 'slow but fine');
      });

      it('a JSON body cut mid-way: an error outcome at once', async () => {
        const { answer, ms } = await call('cutJson');
        assert.equal(answer.outcome, 'error');
        assertAtOnce(ms, 'cutJson');
      });

      for (const [mib, name] of [
        [10, 'big10'],
        [50, 'big50'],
      ] as const) {
        it(`${mib} MiB of text: ok; a call in flight on the healthy server completes`, async () => {
          s.send({ id: `inflight-${name}`, op: 'call', name: 'healthy__wait', args: { ms: 1000 } });
          const before = s.rss();
          const { answer, ms } = await call(name);
          const after = s.rss();
          reportCase(`http large result (${mode}): ${mib} MiB`, { ms, sessionHwmGrowthMiB: (after.hwmKiB - before.hwmKiB) / 1024 });
          assert.equal(answer.outcome, 'ok', answer.modelText.slice(0, 300));
          assertAtOnce(ms, name);
          assert.equal((await s.answer(`inflight-${name}`)).outcome, 'ok');
        });
      }

      for (const [name, label] of [
        ['cutSse', 'ended'],
        ['cutSsePrimed', 'ended after a priming event (resumable)'],
        ['resetSse', 'reset (socket destroyed)'],
      ]) {
        it(`an SSE stream ${label} mid-call: an error outcome at once, not after the timeout`, async () => {
          const answer = await s.answer(`cut-${name}`, 30_000);
          const ms = s.elapsed(`cut-${name}`);
          reportCase(`http call (${mode}): ${name}`, { outcome: answer.outcome, ms, text: answer.modelText.slice(0, 200) });
          assert.equal(answer.outcome, 'error', answer.modelText);
          assertAtOnce(ms, name);
        });
      }

      // Last of the calls: a 401 from a server without headers of its own is a request to sign in (issue 27), so the
      // server then waits for one and answers no more calls.
      it('HTTP 401 on a call: an error outcome at once that says to sign in, and where', async () => {
        const { answer, ms } = await call('status401');
        assert.equal(answer.outcome, 'error');
        assert.match(answer.modelText, /needs you to sign in with http:\/\/127\.0\.0\.1:\d+/, answer.modelText);
        assertAtOnce(ms, 'status401');
      });

      it('the healthy server still answers; one audit record per call; nothing is left', async () => {
        await assertHealthyAnswers(s, 'h');
        const end = await s.end();
        assert.equal(end.code, 0);
        const called = h.events().filter((e) => e.event === 'call').map((e) => e.tool);
        for (const name of new Set(called)) assertAudited(ws.audit, `faulty__${name}`, called.filter((c) => c === name).length);
        assertNothingLeft(end.leftBehind);
      });
    });
  }

  describe('the message bound (maxMessageBytes 1 MiB) with JSON and SSE responses', () => {
    it('a 2 MiB answer fails that call at once, naming the limit; the next call and the healthy server answer; nothing is left', async () => {
      const dir = tempDir();
      const opts = (mode: 'json' | 'sse'): FaultyOptions => ({ mode, tools: [tool('over'), tool('small')], calls: { over: [{ reply: { textBytes: 2 * MiB } }], small: [{ reply: { text: 'fits' } }] } });
      const json = await start(dir, 'bound-json', opts('json'));
      const sse = await start(dir, 'bound-sse', opts('sse'));
      const ws = makeWorkspace({ json: remote(json, { maxMessageBytes: MiB }), sse: remote(sse, { maxMessageBytes: MiB }), healthy: healthyServer() });
      const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', '20000']);
      sessions.push(s);
      for (const server of ['json', 'sse']) {
        const { answer, ms } = await s.call(`${server}-over`, `${server}__over`);
        reportCase(`http bound (${server}): over`, { outcome: answer.outcome, ms, text: answer.modelText });
        assert.equal(answer.outcome, 'error', answer.modelText.slice(0, 300));
        assert.match(answer.modelText, new RegExp(`server "${server}" sent a message of .*MiB; the limit is 1 MiB \\(mcpHost\\.maxMessageBytes\\)`));
        assertAtOnce(ms, `${server} over the bound`);
        assert.equal((await s.call(`${server}-small`, `${server}__small`)).answer.modelText, 'fits');
      }
      await assertHealthyAnswers(s, 'h');
      const end = await s.end();
      for (const server of ['json', 'sse']) for (const t of ['over', 'small']) assertAudited(ws.audit, `${server}__${t}`, 1);
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('a server that dies after connecting', () => {
    let h: HttpServer;
    let s: Session;
    let ws: ReturnType<typeof makeWorkspace>;
    before(async () => {
      // It dies once it has listed its tools: after initialized, a loaded machine may still be listing them (then the
      // start fails instead, which is another case).
      h = await start(tempDir(), 'dies', { tools: [tool('echo')], dieAfterToolsListedMs: 300 });
      ws = makeWorkspace({ faulty: remote(h), healthy: healthyServer() });
      s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT]);
      sessions.push(s);
      await assertHealthyAnswers(s, 'warm');
      // Wait until the server is really gone.
      const end = Date.now() + 10_000;
      while (!h.events().some((e) => e.event === 'exit') && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      assert.ok(h.events().some((e) => e.event === 'exit'), 'the faulty HTTP server did not die');
    });

    it('"servers" does not show a dead server as connected', async () => {
      // The host learns of the death from its connection's socket closing, a moment after the
      // process exits: ask until it shows (bounded), not once at the instant of the exit.
      let v: Json | undefined;
      for (let i = 0; i < 100; i++) {
        s.send({ id: `srv${i}`, op: 'servers' });
        v = (await s.answer(`srv${i}`)).servers.find((x: Json) => x.name === 'faulty');
        if (v?.state !== 'connected') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      reportCase('http server died: servers', { state: v?.state });
      assert.notEqual(v?.state, 'connected', 'still "connected" 5 s after the server died');
    });

    it('a call fails at once (not after the timeout); the healthy server still answers', async () => {
      const { answer, ms } = await s.call('c1', 'faulty__echo');
      reportCase('http server died: call', { outcome: answer.outcome, ms, text: answer.modelText });
      assert.notEqual(answer.outcome, 'ok');
      assert.notEqual(answer.outcome, 'timeout');
      assertAtOnce(ms, 'the call to a dead server');
      await assertHealthyAnswers(s, 'h');
    });

    it('the error names the URL and the cause, not just "fetch failed"', async () => {
      // While a restart attempt is connecting the server holds no tools (the call would be "not
      // available"): call while it waits for the next attempt, which says why it is restarting. The
      // next attempt may begin between the look and the call (a loaded machine): then look again.
      let answer: Json = {};
      for (let i = 0, attempt = 0; i < 200; i++) {
        s.send({ id: `w${i}`, op: 'servers' });
        if ((await s.answer(`w${i}`)).servers.find((x: Json) => x.name === 'faulty')?.state === 'restarting') {
          answer = (await s.call(`c${2 + attempt++}`, 'faulty__echo')).answer;
          if (!/is not available/.test(String(answer.modelText)) || attempt >= 5) break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      if (answer.modelText === undefined) answer = (await s.call('c2', 'faulty__echo')).answer;
      assert.ok(answer.modelText.includes(h.url.replace('/mcp', '')), answer.modelText);
      assert.match(answer.modelText, /ECONNREFUSED|refused/i);
    });

    it('one audit record per attempt; nothing is left', async () => {
      const end = await s.end();
      const attempts = s.lines.filter((l) => typeof l.id === 'string' && /^c\d$/.test(l.id)).length;
      assertAudited(ws.audit, 'faulty__echo', attempts);
      assertNothingLeft(end.leftBehind);
    });
  });
});
