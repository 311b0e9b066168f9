/**
 * The misbehaving fixtures themselves (no host involved): each fault the suite relies on really
 * happens, so a case that passes against the host cannot pass because the fault never occurred.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isProcessAlive } from '../fixtures/fixtureServers';
import { FAULTY_STDIO, removeTempDirs, sleep, startFaultyHttp, tempDir, type FaultyOptions, type HttpServer, type Json } from '../fixtures/faulty/cliFaultHarness';

/** A raw line-based view of the faulty stdio server. */
class RawStdio {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private rest = '';

  constructor(options: FaultyOptions) {
    this.child = spawn(process.execPath, [FAULTY_STDIO, `--options=${JSON.stringify(options)}`], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const parts = (this.rest + d).split('\n');
      this.rest = parts.pop()!;
      this.lines.push(...parts);
    });
    this.child.stdin!.on('error', () => undefined);
    this.exited = new Promise((r) => this.child.once('exit', (code, signal) => r({ code, signal })));
  }

  send(m: Json): void {
    this.child.stdin!.write(JSON.stringify(m) + '\n');
  }

  async answer(id: number): Promise<Json> {
    for (let i = 0; i < 200; i++) {
      for (const l of this.lines) {
        try {
          const m = JSON.parse(l);
          if (m.id === id && !m.method) return m;
        } catch {
          // garbage lines are part of some faults
        }
      }
      await sleep(25);
    }
    throw new Error(`no answer to ${id}: ${this.lines.join('\n').slice(0, 2000)}`);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

describe('faults: the misbehaving fixtures do what they say', function () {
  this.timeout(20_000);
  const raws: RawStdio[] = [];
  const https: HttpServer[] = [];
  const raw = (o: FaultyOptions) => {
    const r = new RawStdio(o);
    raws.push(r);
    return r;
  };
  afterEach(async () => {
    for (const r of raws.splice(0)) r.kill();
    await Promise.all(https.splice(0).map((h) => h.close()));
  });
  after(removeTempDirs);

  describe('stdio', () => {
    it('answers initialize and lists the tools exactly as given, malformed ones included', async () => {
      const tools = [{ name: 'ok', inputSchema: { type: 'object' } }, { inputSchema: 'nope' }, { name: 'a/b', inputSchema: {} }];
      const r = raw({ tools });
      r.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
      assert.equal((await r.answer(1)).result.protocolVersion, '2025-06-18');
      r.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      assert.deepEqual((await r.answer(2)).result.tools, tools);
    });

    it('replies: N bytes of text, an image of N bytes, JSON-RPC errors, malformed errors, raw results, echoed arguments', async () => {
      const r = raw({
        calls: {
          t: [{ reply: { textBytes: 12345 } }],
          i: [{ reply: { imageBytes: 3000 } }],
          e: [{ reply: { error: { code: -32001, message: 'm' } } }],
          m: [{ reply: { rawError: 'str' } }],
          r: [{ reply: { result: { content: [{ type: 'hologram' }] } } }],
        },
      });
      const call = async (id: number, name: string, args: Json = {}) => {
        r.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
        return r.answer(id);
      };
      assert.equal((await call(1, 't')).result.content[0].text.length, 12345);
      assert.equal(Buffer.from((await call(2, 'i')).result.content[0].data, 'base64').length, 3000);
      assert.deepEqual((await call(3, 'e')).error, { code: -32001, message: 'm' });
      assert.equal((await call(4, 'm')).error, 'str');
      assert.deepEqual((await call(5, 'r')).result, { content: [{ type: 'hologram' }] });
      assert.equal((await call(6, 'echo', { a: 1 })).result.content[0].text, '{"a":1}');
      assert.equal((await call(7, 'nope')).error.code, -32602);
    });

    it('garbage and notifications on stdout as steps', async () => {
      const r = raw({ atStart: [{ stdout: 'garbage\n' }, { notify: 'notifications/tools/list_changed', count: 3 }] });
      for (let i = 0; i < 100 && r.lines.length < 4; i++) await sleep(25);
      assert.equal(r.lines[0], 'garbage');
      assert.equal(r.lines.filter((l) => l.includes('list_changed')).length, 3);
    });

    it('crashes at start with an exit code or a signal', async () => {
      assert.deepEqual(await raw({ atStart: [{ exit: 3 }] }).exited, { code: 3, signal: null });
      assert.deepEqual(await raw({ atStart: [{ kill: 'SIGKILL' }] }).exited, { code: null, signal: 'SIGKILL' });
    });

    it('exits on stdin EOF and dies by SIGTERM by default', async () => {
      const a = raw({});
      a.child.stdin!.end();
      assert.deepEqual(await a.exited, { code: 0, signal: null });
      const b = raw({});
      await sleep(300);
      b.child.kill('SIGTERM');
      assert.deepEqual(await b.exited, { code: null, signal: 'SIGTERM' });
    });

    it('ignoreSigterm + ignoreStdinEof: survives both (only SIGKILL ends it)', async () => {
      const r = raw({ ignoreSigterm: true, ignoreStdinEof: true });
      // An answer proves the signal handlers are installed (a fixed sleep is not enough on a loaded machine).
      r.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      await r.answer(1);
      r.child.stdin!.end();
      r.child.kill('SIGTERM');
      await sleep(500);
      assert.ok(isProcessAlive(r.child.pid!));
      r.child.kill('SIGKILL');
      assert.equal((await r.exited).signal, 'SIGKILL');
    });

    it('spawnChild: a grandchild in the server\'s process group, written to the pid file', async () => {
      const dir = tempDir();
      const pidFile = path.join(dir, 'pids.json');
      const r = raw({ pidFile, atStart: [{ spawnChild: { ignoreSigterm: true } }] });
      const read = () => (fs.existsSync(pidFile) ? JSON.parse(fs.readFileSync(pidFile, 'utf8')) : { children: [] });
      for (let i = 0; i < 400 && read().children.length === 0; i++) await sleep(25);
      const p = read();
      assert.equal(p.pid, r.child.pid);
      assert.equal(p.children.length, 1);
      const grandchild = p.children[0];
      assert.ok(isProcessAlive(grandchild));
      assert.equal(processGroupOf(grandchild), p.pgid);
      process.kill(grandchild, 'SIGTERM');
      await sleep(300);
      assert.ok(isProcessAlive(grandchild), 'the grandchild should ignore SIGTERM');
      process.kill(grandchild, 'SIGKILL');
    });
  });

  describe('http', () => {
    const post = (h: HttpServer, body: Json, headers: Record<string, string> = {}) =>
      fetch(h.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } };

    it('JSON mode answers with application/json and a session id; SSE mode with an event stream', async () => {
      const dir = tempDir();
      const j = await startFaultyHttp(dir, 'j', {});
      const s = await startFaultyHttp(dir, 's', { mode: 'sse' });
      https.push(j, s);
      const rj = await post(j, init);
      assert.equal(rj.headers.get('content-type'), 'application/json');
      assert.ok(rj.headers.get('mcp-session-id'));
      assert.equal(((await rj.json()) as Json).result.protocolVersion, '2025-06-18');
      const rs = await post(s, init);
      assert.equal(rs.headers.get('content-type'), 'text/event-stream');
      assert.match(await rs.text(), /^event: message\ndata: \{.*"protocolVersion":"2025-06-18"/);
    });

    it('status steps, postStatus with WWW-Authenticate, a cut JSON body, a cut SSE stream', async () => {
      const dir = tempDir();
      const h = await startFaultyHttp(dir, 'h', {
        calls: { s500: [{ status: 500 }], cut: [{ cutJson: { textBytes: 50_000 } }], sse: [{ cutSse: { priming: true, partial: true } }] },
      });
      const a = await startFaultyHttp(dir, 'a', { postStatus: { code: 401, wwwAuthenticate: 'Bearer realm="x"' } });
      https.push(h, a);
      const call = (name: string) => post(h, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } });
      assert.equal((await call('s500')).status, 500);
      const cut = await call('cut');
      assert.equal(cut.status, 200);
      await assert.rejects(cut.text());
      const sse = await (await call('sse')).text();
      assert.match(sse, /^id: ev-2-1\n/);
      assert.doesNotMatch(sse, /"result":\{"content":\[\{"type":"text"/);
      const r = await post(a, init);
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="x"');
    });

    it('legacySse: GET opens an event stream announcing the POST endpoint', async () => {
      const h = await startFaultyHttp(tempDir(), 'l', { postStatus: { code: 404 }, legacySse: true });
      https.push(h);
      const controller = new AbortController();
      const res = await fetch(h.url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      assert.match(Buffer.from(value!).toString('utf8'), /^event: endpoint\ndata: \/messages\?sessionId=/);
      controller.abort();
    });

    it('dieAfterInitializedMs: the process exits after initialized', async () => {
      const h = await startFaultyHttp(tempDir(), 'd', { dieAfterInitializedMs: 100 });
      https.push(h);
      await post(h, { jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let i = 0; i < 100 && h.alive(); i++) await sleep(25);
      assert.equal(h.alive(), false);
    });

    it('dieAfterToolsListedMs: the process exits after its first tools/list answer', async () => {
      const h = await startFaultyHttp(tempDir(), 'l', { dieAfterToolsListedMs: 100 });
      https.push(h);
      await post(h, { jsonrpc: '2.0', method: 'notifications/initialized' });
      await sleep(300);
      assert.equal(h.alive(), true, 'initialized alone does not end it');
      await post(h, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      for (let i = 0; i < 100 && h.alive(); i++) await sleep(25);
      assert.equal(h.alive(), false);
    });
  });
});

function processGroupOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
