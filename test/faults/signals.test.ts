/**
 * Fault injection from the other side: SIGINT/SIGTERM to the CLI while a call hangs (the server
 * honouring or ignoring SIGTERM and stdin EOF, or hanging in initialize), a second Ctrl-C, and many
 * concurrent or sequential calls in one session (no MaxListenersExceededWarning, no listener leak).
 */
import * as assert from 'node:assert/strict';
import {
  ensureBuilt,
  FaultyStdio,
  healthyServer,
  makeWorkspace,
  removeTempDirs,
  runCli,
  Session,
  sleep,
  tempDir,
  type FaultyOptions,
} from '../fixtures/faulty/cliFaultHarness';
import { assertAtOnce, assertAudited, assertHealthyAnswers, assertNothingLeft, LONG_TIMEOUT, reportCase, sawEvent } from './faultAssertions';

const HANG: FaultyOptions = { tools: [{ name: 'hang', inputSchema: { type: 'object' } }], calls: { hang: [{ hang: true }] } };

function setup(options: FaultyOptions, faultySettings: Record<string, unknown> = {}) {
  const dir = tempDir();
  const faulty = new FaultyStdio(dir, 'faulty', options);
  const ws = makeWorkspace({ faulty: faulty.settings(faultySettings), healthy: healthyServer() });
  return { faulty, ws };
}

/** Resolves once the fixture has logged the event (polls its log). */
async function until(faulty: FaultyStdio, what: string, predicate: (e: { event: string; [k: string]: unknown }) => boolean, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!faulty.events().some(predicate)) {
    if (Date.now() > end) throw new Error(`the fixture never logged ${what}`);
    await sleep(50);
  }
}

describe('faults: signals to the CLI and many calls', function () {
  this.timeout(60_000);
  before(ensureBuilt);
  after(removeTempDirs);
  const sessions: Session[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) s.destroy();
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} to a session during a hanging call: exit ${code}, the call is answered and audited "cancelled", the server is told, nothing is left`, async () => {
      const { faulty, ws } = setup(HANG);
      const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], { pidSources: [() => faulty.pids()] });
      sessions.push(s);
      s.send({ id: 1, op: 'call', name: 'faulty__hang', args: {} });
      await until(faulty, 'the call', (e) => e.event === 'hang');
      const started = performance.now();
      const end = await s.kill(signal);
      const ms = performance.now() - started;
      reportCase(`${signal} to session during a hanging call`, { code: end.code, exitMs: ms, left: end.leftBehind });
      assert.equal(end.code, code);
      assertAtOnce(ms, `exiting on ${signal}`);
      const answer = s.lines.find((l) => l.id === 1);
      assert.equal(answer?.outcome, 'cancelled', s.describe());
      const [record] = assertAudited(ws.audit, 'faulty__hang', 1);
      assert.equal(record.outcome, 'cancelled');
      assert.ok(sawEvent(faulty, (e) => e.event === 'cancelled'), 'the server got no notifications/cancelled');
      assertNothingLeft(end.leftBehind);
    });
  }

  it('SIGTERM to `call` during a hanging call, the server ignoring SIGTERM and stdin EOF: exit 143, audited "cancelled", nothing is left', async () => {
    const { faulty, ws } = setup({ ...HANG, ignoreSigterm: true, ignoreStdinEof: true });
    const run = await runCli(['call', 'faulty__hang', '--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], {
      pidSources: [() => faulty.pids()],
      signal: { name: 'SIGTERM', when: () => until(faulty, 'the call', (e) => e.event === 'hang') },
    });
    reportCase('SIGTERM to call, server ignoring SIGTERM+EOF', { code: run.code, wallMs: run.wallMs, left: run.leftBehind });
    assert.equal(run.code, 143, run.stderr);
    const [record] = assertAudited(ws.audit, 'faulty__hang', 1);
    assert.equal(record.outcome, 'cancelled');
    assert.ok(sawEvent(faulty, (e) => e.event === 'signal' && e.ignored === true), 'the fixture never got (and ignored) SIGTERM');
    assertNothingLeft(run.leftBehind);
  });

  it('SIGTERM to `check` while a server hangs in initialize ignoring SIGTERM and stdin EOF: exit 143, nothing is left', async () => {
    const { faulty, ws } = setup({ initialize: [{ hang: true }], ignoreSigterm: true, ignoreStdinEof: true });
    const run = await runCli(['check', '--workspace', ws.dir], {
      pidSources: [() => faulty.pids()],
      signal: { name: 'SIGTERM', when: () => until(faulty, 'initialize', (e) => e.event === 'hang') },
    });
    assert.equal(run.code, 143, run.stderr);
    assertNothingLeft(run.leftBehind);
  });

  it('a second SIGINT while the servers are being stopped still leaves no process behind', async () => {
    const { faulty, ws } = setup({ ...HANG, ignoreSigterm: true, ignoreStdinEof: true });
    const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], { pidSources: [() => faulty.pids()] });
    sessions.push(s);
    s.send({ id: 1, op: 'call', name: 'faulty__hang', args: {} });
    await until(faulty, 'the call', (e) => e.event === 'hang');
    s.child.kill('SIGINT');
    await sleep(300);
    const end = await s.kill('SIGINT');
    reportCase('double SIGINT, server ignoring SIGTERM+EOF', { code: end.code, left: end.leftBehind });
    assert.equal(end.code, 130);
    assertNothingLeft(end.leftBehind);
  });

  describe('many calls in one session', () => {
    let s: Session;
    let ws: ReturnType<typeof makeWorkspace>;
    let faulty: FaultyStdio;
    before(async () => {
      ({ faulty, ws } = setup({ tools: [{ name: 'slowEcho', inputSchema: { type: 'object' } }], calls: { slowEcho: [{ sleep: 300 }] } }));
      s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], { pidSources: [() => faulty.pids()] });
      await assertHealthyAnswers(s, 'warm');
    });
    after(() => s.destroy());

    it('12 concurrent calls: all answered, no MaxListenersExceededWarning', async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
      for (const id of ids) s.send({ id, op: 'call', name: i(id) % 2 ? 'healthy__wait' : 'faulty__slowEcho', args: i(id) % 2 ? { ms: 300 } : { n: id } });
      for (const id of ids) assert.equal((await s.answer(id)).outcome, 'ok');
      assert.doesNotMatch(s.stderr, /MaxListenersExceededWarning/);
    });

    it('11 sequential calls: no MaxListenersExceededWarning (no abort listener outlives its call)', async () => {
      // A session of its own: Node warns once per signal, so the concurrent case must not have warned first.
      const q = new Session(['--workspace', ws.dir, '--timeout', LONG_TIMEOUT]);
      sessions.push(q);
      for (let n = 0; n < 11; n++) assert.equal((await q.call(`q${n}`, 'healthy__echo', { text: 'q' })).answer.outcome, 'ok');
      assert.doesNotMatch(q.stderr, /MaxListenersExceededWarning/);
      assertNothingLeft((await q.end()).leftBehind);
    });

    it('every call is audited once; nothing is left', async () => {
      await assertHealthyAnswers(s, 'last');
      const end = await s.end();
      assert.equal(end.code, 0);
      const answered = s.lines.filter((l) => l.op === 'call').length;
      const audited = assertAudited(ws.audit, 'faulty__slowEcho', s.lines.filter((l) => l.name === 'faulty__slowEcho').length);
      assert.ok(answered >= audited.length);
      assertNothingLeft(end.leftBehind);
    });
  });
});

function i(id: string): number {
  return Number(id.slice(1));
}
