/**
 * Fault injection, large results over stdio: text of 1, 10 and 50 MiB (more sizes with
 * MCP_HOST_FAULTS_EXTRA_MIB=20,80), large images, a result over the message bound; and the CLI's
 * memory: peak RSS (VmHWM) of `mcp-host call` printing what a model is given, minus the peak of
 * the same call with a tiny result, per MiB of result.
 */
import * as assert from 'node:assert/strict';
import {
  ensureBuilt,
  FaultyStdio,
  healthyServer,
  makeWorkspace,
  MiB,
  removeTempDirs,
  runCli,
  Session,
  tempDir,
  type Json,
} from '../fixtures/faulty/cliFaultHarness';
import { assertAtOnce, assertAudited, assertHealthyAnswers, assertNothingLeft, LONG_TIMEOUT, reportCase } from './faultAssertions';

/** Issue 10's target: peak RSS at most 3 × the result size (measured side by side with the raw SDK by `npm run bench`). */
const MAX_RSS_PER_MIB = 3;
/**
 * What a CLI process's peak RSS moves by between runs whatever the result size (V8's heap growth
 * steps, the allocator's arenas): measured 1–3 MiB apart on a quiet machine, more beside the rest of
 * the suite. Without it a 9 MiB case fails at 3.2 per MiB on noise; a per-MiB regression still fails.
 */
const RSS_NOISE_MIB = 6;
const EXTRA_MIB = (process.env.MCP_HOST_FAULTS_EXTRA_MIB ?? '').split(',').filter(Boolean).map(Number);

function bigServer(reply: Json) {
  const dir = tempDir();
  const faulty = new FaultyStdio(dir, 'faulty', { tools: [{ name: 'big', inputSchema: { type: 'object' } }], calls: { big: [{ reply }] } });
  const ws = makeWorkspace({ faulty: faulty.settings(), healthy: healthyServer() });
  return { faulty, ws };
}

/** `call faulty__big` printing the model text (or with `flags`, e.g. --json); its peak RSS. */
async function callPeak(reply: Json, flags: readonly string[] = []) {
  const { faulty, ws } = bigServer(reply);
  const run = await runCli(['call', 'faulty__big', ...flags, '--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], {
    pidSources: [() => faulty.pids()],
  });
  return { run, ws };
}

/** A clear answer to a large result: ok, or an error that names the size or the limit. Never a timeout. */
function assertClearOutcome(answer: { outcome: string; modelText: string }) {
  if (answer.outcome === 'ok') return;
  assert.equal(answer.outcome, 'error', answer.modelText.slice(0, 500));
  assert.match(answer.modelText, /too large|exceed|limit|bytes|MiB|MB/i);
}

describe('faults: large results', function () {
  this.timeout(120_000);
  before(ensureBuilt);
  after(removeTempDirs);
  const sessions: Session[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) s.destroy();
  });

  let baselineKiB = 0;
  before(async () => {
    const { run } = await callPeak({ text: 'tiny' });
    assert.equal(run.code, 0, run.stderr);
    baselineKiB = run.peakRssKiB;
  });

  /**
   * Session: a healthy `wait` in flight while the large result arrives; afterwards the healthy
   * server still answers, the audit has one record per call and nothing is left.
   */
  async function survives(label: string, reply: Json) {
    const { faulty, ws } = bigServer(reply);
    const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], { pidSources: [() => faulty.pids()] });
    sessions.push(s);
    await assertHealthyAnswers(s, 'warm');
    const before = s.rss();
    s.send({ id: 'inflight', op: 'call', name: 'healthy__wait', args: { ms: 1500 } });
    const { answer, ms } = await s.call('big', 'faulty__big', {}, 60_000);
    const after = s.rss();
    const inflight = await s.answer('inflight');
    reportCase(`large result (session): ${label}`, { outcome: answer.outcome, ms, sessionHwmGrowthMiB: (after.hwmKiB - before.hwmKiB) / 1024 });
    assert.doesNotMatch(s.stderr, /internal error/, 'the CLI crashed');
    assert.ok(s.isRunning, `the CLI exited\n${s.describe()}`);
    assertClearOutcome(answer);
    assertAtOnce(ms, label);
    assert.equal(inflight.outcome, 'ok', `the call in flight on the healthy server: ${inflight.modelText}`);
    await assertHealthyAnswers(s, 'after');
    const end = await s.end();
    assert.equal(end.code, 0);
    assertAudited(ws.audit, 'faulty__big', 1);
    assertAudited(ws.audit, 'healthy__wait', 1);
    assertNothingLeft(end.leftBehind);
    return answer;
  }

  /** `call` printing the model text (or the --json document): exit 0 or a clear error, capped model text, bounded peak RSS. */
  async function memoryBound(label: string, reply: Json, mib: number, flags: readonly string[] = []) {
    const { run, ws } = await callPeak(reply, flags);
    const growthMiB = (run.peakRssKiB - baselineKiB) / 1024;
    reportCase(`large result (call): ${label}`, {
      code: run.code,
      wallMs: run.wallMs,
      peakMiB: run.peakRssKiB / 1024,
      baselineMiB: baselineKiB / 1024,
      growthMiB,
      growthPerMiB: growthMiB / mib,
      stderr: run.stderr.slice(0, 300),
    });
    assert.doesNotMatch(run.stderr, /internal error/, run.stderr.slice(0, 500));
    assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}`);
    if (run.code === 0 && flags.includes('--json')) {
      // The whole result, exactly JSON.stringify's text (streamed from the parts the text was read in: src/cli/jsonStream.ts).
      const doc = JSON.parse(run.stdout) as { outcome: string; content: { text: string }[]; modelText: string };
      assert.equal(doc.outcome, 'ok');
      assert.equal(doc.content[0].text.length, mib * MiB);
      assert.ok(doc.modelText.length <= 60_000, `the model text is not capped: ${doc.modelText.length} chars`);
      assert.ok(run.stdout === JSON.stringify(doc, null, 2) + '\n', 'the document is not JSON.stringify(document, null, 2)');
    } else if (run.code === 0) assert.ok(run.stdout.length <= 60_000, `the model text is not capped: ${run.stdout.length} chars`);
    assertAudited(ws.audit, 'faulty__big', 1);
    assertNothingLeft(run.leftBehind);
    assert.ok(growthMiB <= MAX_RSS_PER_MIB * mib + RSS_NOISE_MIB, `peak RSS grew by ${growthMiB.toFixed(1)} MiB for a ${mib} MiB result (${(growthMiB / mib).toFixed(1)} per MiB; target ≤ ${MAX_RSS_PER_MIB}, + ${RSS_NOISE_MIB} MiB of noise)`);
  }

  it('1 MiB of text: ok, capped for the model; a call in flight on the healthy server completes; nothing left', async () => {
    const answer = await survives('1 MiB text', { textBytes: MiB });
    assert.equal(answer.outcome, 'ok');
    assert.match(answer.modelText, /output truncated by MCP Host: 50000 of 1048576 characters shown/);
  });

  it('a 7 MiB image (9.3 MiB of base64, under the 10 MiB message limit): ok, a placeholder in the model text', async () => {
    const answer = await survives('7 MiB image', { imageBytes: 7 * MiB });
    assert.equal(answer.outcome, 'ok');
    assert.equal(answer.modelText, '[image image/png, 7.0 MB]');
  });

  for (const mib of [10, 50, ...EXTRA_MIB]) {
    it(`${mib} MiB of text: the CLI survives, answering ok (or a clear size error) at once; the healthy server's call in flight completes`, async () => {
      const answer = await survives(`${mib} MiB text`, { textBytes: mib * MiB });
      if (mib * MiB < 64 * MiB) assert.equal(answer.outcome, 'ok', 'under the default bound of 64 MiB');
    });
  }

  it('a 12 MiB image (16 MiB of base64): ok, a placeholder in the model text', async () => {
    const answer = await survives('12 MiB image', { imageBytes: 12 * MiB });
    assert.equal(answer.outcome, 'ok');
    assert.equal(answer.modelText, '[image image/png, 12.0 MB]');
  });

  it('a result over the message bound (80 MiB): that request fails at once with a clear error, never a timeout; the CLI goes on', async () => {
    const answer = await survives('80 MiB text', { textBytes: 80 * MiB });
    assert.equal(answer.outcome, 'error');
    assert.match(answer.modelText, /server "faulty" sent a message of 80\.0 MiB; the limit is 64 MiB \(mcpHost\.maxMessageBytes\)/);
  });

  it("a server's own maxMessageBytes (1 MiB): 2 MiB answers fail at once (id first, or last as SDK servers write it); the server goes on", async () => {
    const dir = tempDir();
    const tools = ['over', 'overIdLast', 'small'].map((name) => ({ name, inputSchema: { type: 'object' } }));
    const calls = { over: [{ reply: { textBytes: 2 * MiB } }], overIdLast: [{ reply: { textBytes: 2 * MiB, idLast: true } }], small: [{ reply: { text: 'fits' } }] };
    const faulty = new FaultyStdio(dir, 'faulty', { tools, calls });
    const ws = makeWorkspace({ faulty: faulty.settings({ maxMessageBytes: MiB }), healthy: healthyServer() });
    const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT], { pidSources: [() => faulty.pids()] });
    sessions.push(s);
    for (const name of ['over', 'overIdLast']) {
      const { answer, ms } = await s.call(name, `faulty__${name}`);
      reportCase(`over a server's maxMessageBytes: ${name}`, { outcome: answer.outcome, ms, text: answer.modelText });
      assert.equal(answer.outcome, 'error', answer.modelText.slice(0, 300));
      assert.match(answer.modelText, /sent a message of 2\.0 MiB; the limit is 1 MiB \(mcpHost\.maxMessageBytes\)/);
      assertAtOnce(ms, name);
    }
    assert.equal((await s.call('small', 'faulty__small')).answer.modelText, 'fits');
    await assertHealthyAnswers(s, 'h');
    const end = await s.end();
    for (const name of ['over', 'overIdLast', 'small']) assertAudited(ws.audit, `faulty__${name}`, 1);
    assertNothingLeft(end.leftBehind);
  });

  describe('peak RSS of `call` per MiB of result (target ≤ 3)', () => {
    it('9 MiB of text (under the SDK\'s old 10 MiB limit)', async () => memoryBound('9 MiB text', { textBytes: 9 * MiB }, 9));
    for (const mib of [10, 50, ...EXTRA_MIB]) {
      it(`${mib} MiB of text`, async () => memoryBound(`${mib} MiB text`, { textBytes: mib * MiB }, mib));
    }
    // The whole result on stdout, a text of lines (each newline an escape on the wire, so the reader decodes it into new
    // strings): it was 3.8 per MiB while the writer sliced the text V8 holds as a rope (one flat 50 MiB copy).
    it('50 MiB of text in lines with --json (the whole result on stdout)', async () => memoryBound('50 MiB text in lines, --json', { textBytes: 50 * MiB, lines: true }, 50, ['--json']));
  });
});
