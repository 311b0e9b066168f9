/** The decision order every server request shares (trust → role → setting), its one audit record, and the call clocks. */
import * as assert from 'node:assert/strict';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { AuditLog, MemorySink } from '../../../../src/core/audit/auditLog';
import { ActivePolicies } from '../../../../src/core/policy/activePolicies';
import { ServerRequestPolicy } from '../../../../src/core/policy/serverRequestPolicy';
import { PromptQueue } from '../../../../src/core/requests/promptQueue';
import { ServerCalls } from '../../../../src/core/mcp/call/serverCalls';
import { ServerRequestRun, type ServerRequestDeps } from '../../../../src/core/requests/serverRequestRun';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { nullLogger } from '../../../../src/core/util/logger';
import { role, settings, sleep, type Any } from '../helpers';

const server = (name: string): StdioServerSettings => ({ name, type: 'stdio', enabled: true, command: 'node', args: [], env: {}, connectTimeoutMs: 1000 });

function deps(o: { trusted?: boolean; activeRole?: string } = {}) {
  const sink = new MemorySink();
  const s = settings({
    servers: [server('a'), server('b')],
    roles: [role('ra', { servers: ['a'] })],
    activeRole: o.activeRole,
    sampling: { servers: ['a'], roles: {} },
  });
  const d: ServerRequestDeps = {
    policies: new ActivePolicies(s, {}, nullLogger),
    trusted: () => o.trusted ?? true,
    audit: new AuditLog([sink]),
    logger: nullLogger,
    calls: new ServerCalls(),
    queue: new PromptQueue(),
  };
  return { d, sink };
}

describe('ServerRequestRun: one decision order, one record', () => {
  it('refuses in order: untrusted workspace, a server outside the role, the setting', () => {
    const allowed = (p: Any) => p.requests.allowsSampling('b');
    assert.equal(new ServerRequestRun(deps({ trusted: false }).d, 'sampling', 'a', {}).refusal(() => true, 'x'), 'the workspace is not trusted');
    assert.equal(new ServerRequestRun(deps({ activeRole: 'ra' }).d, 'sampling', 'b', {}).refusal(() => true, 'x'), 'role "ra" does not use server "b"');
    assert.equal(new ServerRequestRun(deps().d, 'sampling', 'b', {}).refusal(allowed, 'mcpHost.sampling'), 'mcpHost.sampling does not allow server "b"');
    assert.equal(new ServerRequestRun(deps().d, 'sampling', 'a', {}).refusal((p) => p.requests.allowsSampling('a'), 'mcpHost.sampling'), undefined);
  });

  it('writes exactly one record with role, calls in flight, outcome and duration', async () => {
    const { d, sink } = deps({ activeRole: 'ra' });
    const call = d.calls.begin('a', 'tool1', 60_000);
    const run = new ServerRequestRun(d, 'elicitation', 'a', { mode: 'form' });
    await run.finish({ outcome: 'declined', decidedBy: 'user' });
    call.end();
    assert.equal(sink.records.length, 1);
    const rec = sink.records[0] as Any;
    assert.deepEqual(
      { ...rec, ts: undefined, durationMs: undefined },
      { kind: 'elicitation', ts: undefined, role: 'ra', server: 'a', duringCall: ['tool1'], request: { mode: 'form' }, answer: null, outcome: 'declined', decidedBy: 'user', durationMs: undefined },
    );
  });

  it('asking fails → { ok: false } with the reason; a withdrawn question ends the wait', async () => {
    const { d } = deps();
    const run = new ServerRequestRun(d, 'elicitation', 'a', {});
    const failed = await run.ask(async () => {
      throw new Error('no dialog');
    }, new AbortController().signal);
    assert.deepEqual(failed, { ok: false, error: 'no dialog' });
    const abort = new AbortController();
    const pending = run.ask(() => new Promise<never>(() => undefined), abort.signal);
    abort.abort();
    assert.deepEqual(await pending, { ok: false, error: 'the server withdrew the request' });
  });
});

describe('ServerRequestPolicy', () => {
  it('the role list replaces the server list; unset settings: elicitation for all, sampling for none', () => {
    const p = new ServerRequestPolicy({ elicitation: { servers: ['*'], roles: { r: ['a'] } }, sampling: { servers: ['a*'], roles: { r: [] }, model: 'm' } }, 'r');
    assert.deepEqual([p.allowsElicitation('a'), p.allowsElicitation('b'), p.allowsSampling('ab'), p.samplingModel], [true, false, false, 'm']);
    const other = new ServerRequestPolicy({ elicitation: { servers: ['*'], roles: { r: ['a'] } }, sampling: { servers: ['a*'], roles: {} } }, 'other');
    assert.deepEqual([other.allowsElicitation('b'), other.allowsSampling('ab'), other.allowsSampling('b')], [true, true, false]);
    const defaults = new ServerRequestPolicy({}, undefined);
    assert.deepEqual([defaults.allowsElicitation('any'), defaults.allowsSampling('any')], [true, false]);
  });
});

describe('ServerCalls: the calls a request belongs to, and clocks that stop while the user is asked', () => {
  it('lists the tools in flight per server', () => {
    const calls = new ServerCalls();
    const one = calls.begin('s', 'x', 60_000);
    const two = calls.begin('s', 'y', 60_000);
    assert.deepEqual(calls.inFlight('s'), ['x', 'y']);
    one.end();
    assert.deepEqual(calls.inFlight('s'), ['y']);
    two.end();
    assert.deepEqual(calls.inFlight('s'), []);
  });

  it('times out like the SDK (SdkError RequestTimeout), but not while the user is being asked', async () => {
    const calls = new ServerCalls();
    const held = calls.begin('s', 'x', 100);
    const asking = calls.askingUser('s');
    await sleep(300);
    assert.equal(held.signal?.aborted, false, 'no timeout while asking');
    asking.dispose();
    await new Promise((resolve) => held.signal!.addEventListener('abort', resolve, { once: true }));
    const reason = held.signal!.reason;
    assert.ok(reason instanceof SdkError && reason.code === SdkErrorCode.RequestTimeout);
    held.end();
  });

  it('progress restarts the clock when the call resets its timeout on progress', async () => {
    const calls = new ServerCalls();
    const held = calls.begin('s', 'x', 200, undefined, true);
    const onProgress = held.withProgress<number>(() => undefined);
    for (let i = 0; i < 4; i++) {
      await sleep(120);
      onProgress(i);
    }
    assert.equal(held.signal.aborted, false, '480 ms of progress every 120 ms outlives a 200 ms timeout');
    await new Promise((resolve) => held.signal.addEventListener('abort', resolve, { once: true }));
    held.end();
  });

  it("the caller's own abort still aborts", () => {
    const calls = new ServerCalls();
    const stop = new AbortController();
    const call = calls.begin('s', 'x', 60_000, stop.signal);
    stop.abort();
    assert.equal(call.signal?.aborted, true);
    call.end();
  });
});
