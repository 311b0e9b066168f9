/**
 * Behaviour 12: new settings disturb only what changed; a role switch starts and stops servers.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { isProcessAlive } from '../../../fixtures/fixtureServers';
import { endOfTurn, role, settings, stateKind, useTestEnv, loaded } from '../helpers';

describe('McpHost: applySettings and setRole', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('added starts, removed stops, changed restarts, untouched keeps its process', async () => {
    const keep = env.stdio('keep', 'basic');
    const change = env.stdio('change', 'slow');
    const remove = env.stdio('remove', 'collide');
    const host = await env.started({ settings: settings({ servers: [keep, change, remove], autoApprove: ['*/*'] }) });
    const pid = (n: string) => host.snapshot().server(n)?.pid;
    const before = { keep: pid('keep')!, change: pid('change')!, remove: pid('remove')! };
    for (const p of Object.values(before)) assert.ok(isProcessAlive(p));

    const add = env.stdio('add', 'paginated');
    const changed = { ...change, env: { ...change.env, SOME_FLAG: '1' } };
    await host.applySettings(settings({ servers: [keep, changed, add], autoApprove: ['*/*'] }));

    assert.equal(pid('keep'), before.keep, 'untouched keeps the same process');
    assert.equal(stateKind(host, 'keep'), 'connected');
    assert.equal(stateKind(host, 'change'), 'connected');
    assert.notEqual(pid('change'), before.change, 'changed restarts');
    assert.equal(isProcessAlive(before.change), false);
    assert.equal(host.snapshot().server('remove'), undefined);
    assert.equal(isProcessAlive(before.remove), false, 'removed stops (process gone)');
    assert.equal(stateKind(host, 'add'), 'connected', 'added starts');

    assert.ok(!loaded(host).some((e) => e.server === 'remove'), 'removed server’s tools are gone');
    assert.equal((await host.call({ name: 'remove__search' })).outcome, 'notFound');
    assert.equal((await host.call({ name: 'add__tool_01' })).modelText, 'tool_01');
    assert.equal((await host.call({ name: 'change__quick' })).modelText, 'quick');
    assert.equal((await host.call({ name: 'keep__echo', args: { text: 'still here' } })).modelText, 'echo: still here');
    assert.equal(env.events('keep').filter((e) => e.event === 'initialize').length, 1);
    assert.deepEqual(
      host.snapshot().servers.map((c) => c.name),
      ['keep', 'change', 'add'],
    );
  });

  it('policy-only changes apply to the next call without restarting anything', async () => {
    const auditA = env.file('a.jsonl');
    const auditB = env.file('b.jsonl');
    const base = settings({ servers: [env.stdio('basic', 'basic')], auditPath: auditA });
    const host = await env.started({ settings: { ...base, autoApprove: [] }, confirmer: { confirm: async () => 'deny' } });
    const pid = host.snapshot().server('basic')?.pid;
    assert.equal((await host.call({ name: 'basic__echo', args: { text: 'x' } })).outcome, 'denied');
    await host.applySettings({ ...base, autoApprove: ['basic/*'], maxResultChars: 10, auditPath: auditB, toolNames: 'reject' });
    assert.equal(host.snapshot().server('basic')?.pid, pid);
    const r = await host.call({ name: 'echo', args: { text: 'now allowed and long' } });
    assert.equal(r.outcome, 'ok', 'autoApprove and the naming mode apply at once');
    assert.match(r.modelText, /^echo: now \s+\[output truncated by MCP Host: 10 of 26 characters shown\]$/);
    await endOfTurn();
    assert.equal(fs.readFileSync(auditA, 'utf8').trim().split('\n').length, 1);
    assert.equal(fs.readFileSync(auditB, 'utf8').trim().split('\n').length, 1, 'the audit moved to the new path');
  });

  it('setRole starts the new role’s servers and stops the ones it no longer uses', async () => {
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow')],
        roles: [role('support', { servers: ['basic'] }), role('ops', { servers: ['basic', 'slow'] })],
        activeRole: 'support',
        autoApprove: ['*/*'],
      }),
    });
    assert.equal(stateKind(host, 'slow'), 'idle');
    assert.equal(fs.existsSync(env.logOf('slow')), false);
    const basicPid = host.snapshot().server('basic')?.pid;

    await host.setRole('ops');
    assert.equal(host.snapshot().role, 'ops');
    assert.equal(stateKind(host, 'slow'), 'connected');
    const slowPid = host.snapshot().server('slow')!.pid!;
    assert.equal((await host.call({ name: 'slow__quick' })).modelText, 'quick');
    assert.equal(host.snapshot().server('basic')?.pid, basicPid, 'a server both roles use keeps running');

    await host.setRole('support');
    assert.equal(stateKind(host, 'slow'), 'stopped');
    assert.equal(isProcessAlive(slowPid), false);
    assert.equal((await host.call({ name: 'slow__quick' })).outcome, 'notFound');

    await host.setRole(undefined);
    assert.equal(host.snapshot().role, undefined);
    assert.equal(stateKind(host, 'slow'), 'connected', 'no role uses every server');
  });

  it('an untrusted workspace starts nothing until trusted', async () => {
    const host = env.host({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), trusted: false });
    await host.start();
    assert.equal(stateKind(host, 'basic'), 'untrusted');
    assert.equal(fs.existsSync(env.logOf('basic')), false);
    await host.setTrusted(true);
    assert.equal(stateKind(host, 'basic'), 'connected');
  });

  it('a disabled server is never started', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('off', 'basic', { enabled: false }), env.stdio('on', 'basic')] }) });
    assert.equal(stateKind(host, 'off'), 'disabled');
    assert.equal(fs.existsSync(env.logOf('off')), false);
    assert.equal(stateKind(host, 'on'), 'connected');
  });
});
