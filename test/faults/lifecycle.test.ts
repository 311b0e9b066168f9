/**
 * Fault injection, server process life: crashes (at start, in initialize, mid-call), hangs (in
 * initialize, in a call; honouring SIGTERM and stdin EOF or ignoring both), grandchildren, and
 * start settings that cannot work. Each case runs the built CLI with the faulty server beside a
 * healthy one and checks outcome, time, the healthy server, the audit and the processes left.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ensureBuilt,
  FaultyStdio,
  healthyServer,
  makeWorkspace,
  removeTempDirs,
  runCli,
  Session,
  tempDir,
  type FaultyOptions,
  type Json,
} from '../fixtures/faulty/cliFaultHarness';
import {
  assertAtOnce,
  assertAudited,
  assertHealthyAnswers,
  assertHealthyConnected,
  assertNothingLeft,
  LONG_TIMEOUT,
  reportCase,
  sawEvent,
} from './faultAssertions';

function setup(options: FaultyOptions, faultySettings: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  const dir = tempDir();
  const faulty = new FaultyStdio(dir, 'faulty', options);
  const ws = makeWorkspace({ faulty: faulty.settings(faultySettings), healthy: healthyServer() }, settings);
  return { dir, faulty, ws };
}

const sessions: Session[] = [];
function session(ws: { dir: string; audit: string }, faulty: FaultyStdio, extra: string[] = []): Session {
  const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT, ...extra], { pidSources: [() => faulty.pids()] });
  sessions.push(s);
  return s;
}

async function check(ws: { dir: string }, faulty: FaultyStdio) {
  const run = await runCli(['check', '--json', '--workspace', ws.dir], { pidSources: [() => faulty.pids()] });
  const doc = assertHealthyConnected(run);
  return { run, doc, faultyView: doc.servers.find((s: Json) => s.name === 'faulty') };
}

describe('faults: server process life', function () {
  this.timeout(60_000);
  before(ensureBuilt);
  afterEach(() => {
    for (const s of sessions.splice(0)) s.destroy();
  });
  after(removeTempDirs);

  describe('crash at start and in initialize', () => {
    for (const [label, step, expected] of [
      ['exit code 3', { exit: 3 }, /code 3/],
      ['SIGKILL', { kill: 'SIGKILL' }, /SIGKILL/],
    ] as const) {
      it(`a server that dies at start (${label}) is reported at once; the healthy server connects; nothing is left`, async () => {
        const { faulty, ws } = setup({ atStart: [step] });
        const { run, faultyView } = await check(ws, faulty);
        reportCase(`crash at start (${label})`, { code: run.code, wallMs: run.wallMs, error: faultyView.error, left: run.leftBehind });
        assert.equal(run.code, 1);
        assert.equal(faultyView.state, 'error');
        assert.match(faultyView.error, expected);
        assertAtOnce(run.wallMs, 'check');
        assertNothingLeft(run.leftBehind);
      });
    }

    it('a server that exits (code 4) while answering initialize is reported at once', async () => {
      const { faulty, ws } = setup({ initialize: [{ exit: 4 }] });
      const { run, faultyView } = await check(ws, faulty);
      assert.ok(sawEvent(faulty, (e) => e.event === 'request' && e.method === 'initialize'), 'the fixture never saw initialize');
      assert.equal(faultyView.state, 'error');
      assert.match(faultyView.error, /code 4.*initialize/);
      assertAtOnce(run.wallMs, 'check');
      assertNothingLeft(run.leftBehind);
    });
  });

  describe('crash mid-call', () => {
    for (const [label, step, expected] of [
      ['exit code 5', { exit: 5 }, /code 5|closed the connection/],
      ['SIGKILL', { kill: 'SIGKILL' }, /SIGKILL|closed the connection/],
    ] as const) {
      it(`a server that dies mid-call (${label}): error outcome at once, not a timeout; healthy answers; one audit record; nothing left`, async () => {
        const { faulty, ws } = setup({ calls: { die: [{ sleep: 50 }, step] }, tools: [{ name: 'die', inputSchema: { type: 'object' } }] });
        const s = session(ws, faulty);
        const { answer, ms } = await s.call(1, 'faulty__die');
        reportCase(`crash mid-call (${label})`, { outcome: answer.outcome, ms, text: answer.modelText });
        assert.equal(answer.outcome, 'error', s.describe());
        assert.match(answer.modelText, expected);
        assertAtOnce(ms, 'the crashed call');
        await assertHealthyAnswers(s, 'h1');
        const end = await s.end();
        assert.equal(end.code, 0);
        assertAudited(ws.audit, 'faulty__die', 1);
        assertNothingLeft(end.leftBehind);
      });
    }

    it('a server that dies mid-call leaving a grandchild that ignores SIGTERM: the grandchild is reaped too', async () => {
      const { faulty, ws } = setup({
        atStart: [{ spawnChild: { ignoreSigterm: true } }],
        tools: [{ name: 'die', inputSchema: { type: 'object' } }],
        calls: { die: [{ exit: 5 }] },
      });
      const s = session(ws, faulty);
      const { answer } = await s.call(1, 'faulty__die');
      assert.equal(answer.outcome, 'error');
      await assertHealthyAnswers(s, 'h1');
      const end = await s.end();
      assert.equal(faulty.pids().length >= 2, true, 'the fixture did not record its grandchild');
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('hang in initialize', () => {
    it('honouring SIGTERM and stdin EOF: check fails after connectTimeoutMs, the healthy server connects, nothing is left', async () => {
      const { faulty, ws } = setup({ initialize: [{ hang: true }] }, { connectTimeoutMs: 2000 });
      const { run, faultyView } = await check(ws, faulty);
      reportCase('hang in initialize (honouring)', { code: run.code, wallMs: run.wallMs, error: faultyView.error, left: run.leftBehind });
      assert.equal(faultyView.state, 'error');
      assert.match(faultyView.error, /initialize/);
      assertAtOnce(run.wallMs, 'check');
      assertNothingLeft(run.leftBehind);
    });

    it('ignoring SIGTERM and stdin EOF: the server does not outlive the CLI', async () => {
      const { faulty, ws } = setup({ initialize: [{ hang: true }], ignoreSigterm: true, ignoreStdinEof: true }, { connectTimeoutMs: 2000 });
      const { run, faultyView } = await check(ws, faulty);
      reportCase('hang in initialize (ignoring SIGTERM+EOF)', { code: run.code, wallMs: run.wallMs, error: faultyView.error, left: run.leftBehind });
      assert.equal(faultyView.state, 'error');
      assertAtOnce(run.wallMs, 'check');
      assert.ok(sawEvent(faulty, (e) => e.event === 'stdin-eof'), 'the fixture never saw (and ignored) stdin EOF');
      assertNothingLeft(run.leftBehind);
    });
  });

  describe('hang in a call', () => {
    it('honouring cancellation: the call times out at --timeout, the server is told to cancel, the healthy server answers', async () => {
      const { faulty, ws } = setup({ tools: [{ name: 'hang', inputSchema: { type: 'object' } }], calls: { hang: [{ hang: true }] } });
      const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', '1500'], { pidSources: [() => faulty.pids()] });
      sessions.push(s);
      const { answer, ms } = await s.call(1, 'faulty__hang');
      assert.equal(answer.outcome, 'timeout', s.describe());
      assert.match(answer.modelText, /timed out after 1500 ms/);
      assertAtOnce(ms, 'the timed-out call');
      await assertHealthyAnswers(s, 'h1');
      const end = await s.end();
      const call = faulty.events().find((e) => e.event === 'call' && e.tool === 'hang');
      assert.ok(sawEvent(faulty, (e) => e.event === 'cancelled' && e.requestId === call?.id), 'no notifications/cancelled for the call');
      assertAudited(ws.audit, 'faulty__hang', 1);
      assertNothingLeft(end.leftBehind);
    });

    it('ignoring SIGTERM and stdin EOF: the end of the session still stops the server (SIGKILL), within bounds', async () => {
      const { faulty, ws } = setup({
        tools: [{ name: 'hang', inputSchema: { type: 'object' } }],
        calls: { hang: [{ hang: true }] },
        ignoreSigterm: true,
        ignoreStdinEof: true,
      });
      const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', '1500'], { pidSources: [() => faulty.pids()] });
      sessions.push(s);
      const { answer } = await s.call(1, 'faulty__hang');
      assert.equal(answer.outcome, 'timeout');
      const started = performance.now();
      const end = await s.end();
      const ms = performance.now() - started;
      reportCase('hang in call, server ignoring SIGTERM+EOF, session end', { exitMs: ms, left: end.leftBehind });
      assert.equal(end.code, 0);
      assertAtOnce(ms, 'ending the session');
      assert.ok(sawEvent(faulty, (e) => e.event === 'signal' && e.ignored), 'the fixture never got (and ignored) SIGTERM');
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('child processes of a server', () => {
    for (const ignoreSigterm of [false, true]) {
      it(`a grandchild${ignoreSigterm ? ' that ignores SIGTERM' : ''} is stopped with its server at the end of the session; servers reports the pid the fixture wrote`, async () => {
        const { faulty, ws } = setup({ atStart: [{ spawnChild: { ignoreSigterm } }] });
        const s = session(ws, faulty);
        s.send({ id: 's', op: 'servers' });
        const servers = await s.answer('s');
        const written = JSON.parse(fs.readFileSync(faulty.pidFile, 'utf8'));
        assert.equal(servers.servers.find((x: Json) => x.name === 'faulty').pid, written.pid);
        assert.equal(written.pgid, written.pid, 'the server should lead its own process group');
        assert.equal(written.children.length, 1);
        await assertHealthyAnswers(s, 'h1');
        const end = await s.end();
        assertNothingLeft(end.leftBehind);
      });
    }
  });

  describe('start settings that cannot work', () => {
    it('a cwd that does not exist is reported as such, not as a missing command', async () => {
      const dir = tempDir();
      const missing = path.join(dir, 'no', 'such', 'dir');
      const { faulty, ws } = setup({}, { cwd: missing });
      const { run, faultyView } = await check(ws, faulty);
      reportCase('cwd does not exist', { error: faultyView.error });
      assert.equal(faultyView.state, 'error');
      assert.ok(faultyView.error.includes(missing), `the error does not name the cwd: ${faultyView.error}`);
      assert.doesNotMatch(faultyView.error, /cannot start "[^"]*node"/, 'the command is blamed');
      assertNothingLeft(run.leftBehind);
    });

    it('a command that does not exist is named in the error', async () => {
      const dir = tempDir();
      const missing = path.join(dir, 'no-such-server');
      const ws = makeWorkspace({ faulty: { command: missing }, healthy: healthyServer() });
      const run = await runCli(['check', '--json', '--workspace', ws.dir]);
      const doc = assertHealthyConnected(run);
      const view = doc.servers.find((s: Json) => s.name === 'faulty');
      assert.equal(view.state, 'error');
      assert.ok(view.error.includes(missing), view.error);
      assertNothingLeft(run.leftBehind);
    });

    it('a missing ${secret:} is reported on stderr of call, not only in the check table', async () => {
      const { faulty, ws } = setup({}, { env: { TOKEN: '${secret:faults-missing}' } });
      // `call` starts only the server of the tool it calls (oneShotTarget): call one of the faulty server's.
      const run = await runCli(['call', 'faulty__echo', '--args', '{"text":"x"}', '--workspace', ws.dir], { pidSources: [() => faulty.pids()] });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /faulty/);
      assert.match(run.stderr, /secret "faults-missing" is not set/);
      assertNothingLeft(run.leftBehind);
    });
  });
});
