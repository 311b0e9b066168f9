/**
 * Behaviour 10: one JSONL audit line per call attempt (every outcome) and per tool-list change,
 * written before `call()` resolves; secrets redacted; results capped; definition hashes.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { Tool } from '@modelcontextprotocol/client';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { RecordingConfirmer, endOfTurn, sleep, nextToolsChanged, readAudit, settings, useTestEnv, withTimeout, type Any, loaded } from '../helpers';

/** The record's keys, plus the audit chain's `seq` and `prev` that the file sink adds to each line. */
const CALL_KEYS = ['args', 'confirmedBy', 'definitionHash', 'durationMs', 'isError', 'kind', 'name', 'outcome', 'prev', 'result', 'role', 'seq', 'server', 'tool', 'ts'];
/** The times measured apart: `serverMs` when the server was called, `confirmWaitMs` when a person was asked. */
const SERVER = ['serverMs'];
const ASKED = ['confirmWaitMs'];

/** sha256 of the definition as canonical JSON (keys sorted at every level), computed independently here. */
function expectedHash(tool: Tool): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .filter((k) => (v as Any)[k] !== undefined)
              .sort()
              .map((k) => [k, canon((v as Any)[k])]),
          )
        : v;
  return createHash('sha256').update(JSON.stringify(canon(tool))).digest('hex');
}

describe('McpHost: audit', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('writes one line per call with exactly the documented keys, for every outcome, before call() resolves', async () => {
    const auditPath = env.file('audit/calls.jsonl');
    const confirmer = new RecordingConfirmer((req) => (req.tool === 'noop' ? 'deny' : 'once'));
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow', { timeoutMs: 200 }), env.stdio('crashy', 'crashy')],
        autoApprove: ['basic/echo', 'basic/fail', 'basic/add', 'slow/*', 'crashy/*'],
        roles: [{ name: 'ops', tools: ['*/*'], exclude: [], autoApprove: [], confirm: [] }],
        activeRole: 'ops',
      }),
      confirmer,
      auditPathOverride: auditPath,
    });
    assert.equal(host.auditPath, auditPath);
    const ac = new AbortController();
    ac.abort();
    const cases: [Any, string, string | null, string[]][] = [
      [{ name: 'basic__echo', args: { text: 'hi' } }, 'ok', 'policy', SERVER],
      [{ name: 'basic__fail', args: { reason: 'r' } }, 'isError', 'policy', SERVER],
      [{ name: 'slow__sleep', args: { ms: 5000 } }, 'timeout', 'policy', SERVER],
      [{ name: 'basic__echo', args: { text: 'x' }, signal: ac.signal }, 'cancelled', null, []],
      [{ name: 'basic__noop', args: {} }, 'denied', null, ASKED],
      [{ name: 'basic__image', args: {} }, 'ok', 'user', [...SERVER, ...ASKED]],
      [{ name: 'nope__nothing', args: {} }, 'notFound', null, []],
      [{ name: 'basic__add', args: { a: 'x' } }, 'invalidArgs', null, []],
      [{ name: 'crashy__crash', args: {} }, 'error', 'policy', SERVER],
    ];
    for (const [i, [req, outcome, confirmedBy, times]] of cases.entries()) {
      const r = await host.call(req);
      assert.equal(r.outcome, outcome, req.name);
      // The line is written at the end of the turn the call returned in, before anything else runs.
      await endOfTurn();
      const lines = readAudit(auditPath);
      assert.equal(lines.length, i + 1, `a line for ${req.name} by the end of the turn call() resolved in`);
      const rec = lines[i];
      assert.deepEqual(Object.keys(rec).sort(), [...CALL_KEYS, ...times].sort(), req.name);
      for (const k of times) assert.equal(typeof rec[k], 'number', `${req.name}: ${k}`);
      assert.equal(rec.kind, 'call');
      assert.equal(rec.role, 'ops');
      assert.equal(rec.name, req.name);
      assert.equal(rec.outcome, outcome);
      assert.equal(rec.isError, outcome !== 'ok');
      assert.equal(rec.confirmedBy, confirmedBy);
      assert.equal(typeof rec.durationMs, 'number');
      assert.ok(!Number.isNaN(Date.parse(rec.ts)));
      assert.equal(rec.result, r.modelText.slice(0, 1000));
      const entry = loaded(host).find((t) => t.name === req.name);
      if (outcome === 'notFound') {
        assert.deepEqual([rec.server, rec.tool, rec.definitionHash], [null, null, null]);
      } else {
        assert.equal(rec.server, entry!.server);
        assert.equal(rec.tool, entry!.tool.name);
        assert.equal(rec.definitionHash, expectedHash(entry!.tool), 'sha256 of the tool definition');
      }
    }
    const lines = readAudit(auditPath);
    assert.deepEqual(lines[0].args, { text: 'hi' });
    assert.equal(lines[5].result, 'before image\n[image image/png, 77 B]\nafter image', 'data parts appear as placeholders');
  });

  it('keeps the time a person took to confirm apart from the server\'s time', async () => {
    const auditPath = env.file('audit.jsonl');
    const PERSON_MS = 400;
    // The person reads the question for a while before allowing the call.
    const confirmer = new RecordingConfirmer(async (): Promise<'once'> => {
      await sleep(PERSON_MS);
      return 'once';
    });
    const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), confirmer, auditPathOverride: auditPath });
    const r = await host.call({ name: 'basic__wait', args: { ms: 50 } });
    assert.equal(r.outcome, 'ok');
    await endOfTurn();
    const [rec] = readAudit(auditPath);
    assert.equal(rec.confirmedBy, 'user');
    // Node's timers may fire up to a millisecond early against performance.now().
    assert.ok(rec.confirmWaitMs >= PERSON_MS - 1, `confirmWaitMs ${rec.confirmWaitMs}`);
    assert.ok(rec.serverMs >= 50 - 1, `serverMs ${rec.serverMs}`);
    // Two stretches of one call, one after the other: the server's time holds none of the wait
    // (each is rounded to 0.1 ms, hence the 0.1 of slack).
    assert.ok(rec.serverMs + rec.confirmWaitMs <= rec.durationMs + 0.1, JSON.stringify(rec));
    assert.deepEqual([r.serverMs, r.confirmWaitMs, r.durationMs], [rec.serverMs, rec.confirmWaitMs, rec.durationMs], 'the result carries the same times');
  });

  it('redacts secret-looking argument keys, also in JSON-string arguments and for unknown tools', async () => {
    const auditPath = env.file('audit.jsonl');
    const host = await env.started({
      settings: settings({ servers: [env.stdio('basic', 'basic')], autoApprove: ['*/*'] }),
      auditPathOverride: auditPath,
    });
    const r = await host.call({ name: 'basic__secret_echo', args: { token: 'tk-123456', text: 'visible' } });
    assert.equal(r.modelText, 'secret_echo: visible');
    // The server did get the real token.
    assert.equal(env.events('basic').find((e) => e.event === 'call').args.token, 'tk-123456');
    await host.call({ name: 'basic__secret_echo', args: JSON.stringify({ token: 'tk-234567', text: 'json string' }) });
    await host.call({ name: 'basic__gone', args: JSON.stringify({ apiKey: 'tk-345678', nested: { password: 'pw-456789' } }) });
    await host.call({ name: 'basic__secret_echo', args: { token: 'tk-567890' } }); // invalidArgs
    await endOfTurn();
    const text = fs.readFileSync(auditPath, 'utf8');
    for (const secret of ['tk-123456', 'tk-234567', 'tk-345678', 'pw-456789', 'tk-567890']) assert.ok(!text.includes(secret), `${secret} is not in the audit`);
    const lines = readAudit(auditPath);
    assert.deepEqual(lines[0].args, { token: '[redacted]', text: 'visible' });
    assert.deepEqual(lines[1].args, { token: '[redacted]', text: 'json string' });
    assert.deepEqual(lines[2].args, { apiKey: '[redacted]', nested: { password: '[redacted]' } });
    assert.deepEqual(lines[3].args, { token: '[redacted]' });
  });

  it('caps the recorded result at 1 KB (UTF-8 bytes)', async () => {
    const auditPath = env.file('audit.jsonl');
    const host = await env.started({
      settings: settings({ servers: [env.stdio('basic', 'basic')], autoApprove: ['*/*'] }),
      auditPathOverride: auditPath,
    });
    const r = await host.call({ name: 'basic__echo', args: { text: 'é'.repeat(3000) } });
    assert.equal(r.modelText.length, 3006, 'the model gets it all (below maxResultChars)');
    await endOfTurn();
    const rec = readAudit(auditPath)[0];
    assert.ok(Buffer.byteLength(rec.result, 'utf8') <= 1024, `${Buffer.byteLength(rec.result)} bytes`);
    assert.match(rec.result, /^echo: é+ …\[cut\]$/);
  });

  it('records tool-list changes, and the definition hash follows a changed definition', async () => {
    const auditPath = env.file('audit.jsonl');
    const host = await env.started({
      settings: settings({ servers: [env.stdio('dynamic', 'dynamic')], autoApprove: ['*/*'] }),
      auditPathOverride: auditPath,
    });
    await host.call({ name: 'dynamic__beta' });
    await endOfTurn();
    const before = readAudit(auditPath)[0].definitionHash;

    const recorded = withTimeout(
      new Promise<void>((resolve) => host.onDidRecord((r) => r.kind === 'toolsChanged' && resolve())),
      5000,
      'the toolsChanged record',
    );
    const changed = nextToolsChanged(host, 'dynamic');
    await host.call({ name: 'dynamic__control', args: { action: 'describe', name: 'beta', description: 'new text' } });
    await changed;
    await recorded;
    await host.call({ name: 'dynamic__beta' });
    await endOfTurn();

    const lines = readAudit(auditPath);
    const change = lines.find((l) => l.kind === 'toolsChanged');
    assert.deepEqual(Object.keys(change).sort(), ['added', 'changed', 'kind', 'prev', 'removed', 'seq', 'server', 'ts']);
    assert.equal(change.server, 'dynamic');
    assert.deepEqual(change.changed, [{ tool: 'beta', fields: ['description'], descriptionBefore: 'The beta tool', descriptionAfter: 'new text' }]);
    const after = lines.at(-1).definitionHash;
    assert.notEqual(after, before);
    assert.equal(after, expectedHash(loaded(host).find((t) => t.name === 'dynamic__beta')!.tool));
  });

  it('extra sinks get the same records; a failing sink never loses the result', async () => {
    const memory = new MemorySink();
    const broken = { write: async () => Promise.reject(new Error('disk on fire')) };
    const host = await env.started({
      settings: settings({ servers: [env.stdio('basic', 'basic')], autoApprove: ['*/*'] }),
      auditSinks: [memory, broken],
    });
    const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
    assert.equal(r.outcome, 'ok');
    assert.equal(memory.records.length, 1);
    assert.equal((memory.records[0] as Any).outcome, 'ok');
    await endOfTurn(); // the failure is logged once the sink has failed
    assert.equal(host.log.matching(/audit: could not write a record: disk on fire/, 'error').length, 1);
  });
});
