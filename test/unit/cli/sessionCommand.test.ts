/** `mcp-host session`: JSON lines on stdin, answers and events on stdout. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { childPidsOf, isProcessAlive } from '../../fixtures/fixtureServers';
import { CliSession, fixtureServer, makeWorkspace, tempDir, type Json, trackSessions } from './cliHarness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mcp-host session', function () {
  this.timeout(40_000);
  const sessions = trackSessions();

  const workspace = () =>
    makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic'), slow: fixtureServer('slow'), dynamic: fixtureServer('dynamic') },
      'mcpHost.roles': {
        ops: { servers: ['basic', 'slow', 'dynamic'] },
        echoOnly: { servers: ['basic'], tools: ['basic/echo'] },
      },
      'mcpHost.activeRole': 'ops',
      'mcpHost.autoApprove': ['basic/echo', 'slow/*', 'dynamic/*'],
    });

  const start = (args: string[], opts?: { env?: Record<string, string> }) => {
    const s = new CliSession(args, opts);
    sessions.push(s);
    return s;
  };

  it('answers tools/servers/call, runs calls concurrently, prints events, survives a malformed line, ends cleanly on EOF', async () => {
    const auditFile = path.join(tempDir(), 'audit.jsonl');
    const s = start(['--workspace', workspace(), '--audit', auditFile]);

    s.send({ id: 1, op: 'tools' });
    const tools = await s.answer(1);
    assert.equal(tools.op, 'tools');
    assert.equal(tools.role, 'ops');
    const names = tools.tools.map((t: Json) => t.name);
    for (const n of ['basic__echo', 'slow__sleep', 'slow__quick', 'dynamic__alpha', 'dynamic__control']) assert.ok(names.includes(n), n);
    assert.equal(tools.tools.find((t: Json) => t.name === 'basic__fail').confirm, 'ask');

    // Server-state events were printed while the servers started.
    for (const server of ['basic', 'slow', 'dynamic']) {
      await s.waitFor(`${server} connected`, (l) => l.event === 'serverState' && l.server === server && l.state === 'connected');
    }
    assert.ok(s.lines.some((l) => l.event === 'serverState' && l.state === 'starting'));

    s.send({ id: 2, op: 'servers' });
    const servers = await s.answer(2);
    assert.deepEqual(
      servers.servers.map((x: Json) => [x.name, x.state]),
      [
        ['basic', 'connected'],
        ['slow', 'connected'],
        ['dynamic', 'connected'],
      ],
    );
    assert.deepEqual(servers.problems, []);
    const pids: number[] = servers.servers.map((x: Json) => x.pid);
    assert.ok(pids.every((p) => typeof p === 'number'), JSON.stringify(servers.servers));
    const children = childPidsOf(s.pid);
    for (const pid of pids) assert.ok(children.includes(pid), `server pid ${pid} is a child of the session (${children.join(', ')})`);

    // A slow call, then a quick one: the quick one answers first.
    s.send({ id: 'slow', op: 'call', name: 'slow__sleep', args: { ms: 1500 } });
    s.send({ id: 'quick', op: 'call', name: 'slow__quick', args: {} });
    const quick = await s.answer('quick');
    const slow = await s.answer('slow');
    assert.ok(s.indexOf(quick) < s.indexOf(slow), 'the quick call answered before the slow one');
    assert.equal(quick.outcome, 'ok');
    assert.equal(quick.modelText, 'quick');
    assert.equal(slow.outcome, 'ok');
    assert.equal(slow.modelText, 'slept 1500');
    assert.equal(slow.confirmedBy, 'policy');

    // Malformed lines get an answer with id null; the session goes on.
    s.send('this is not json');
    s.send({ id: 3, op: 'dance' });
    s.send({ id: 4, op: 'tools' });
    await s.answer(4);
    assert.ok(s.lines.some((l) => l.id === null && /not valid JSON/.test(l.error)));
    assert.match((await s.answer(3)).error, /unknown op "dance"/);

    // A call that needs confirmation: nobody can be asked in a session.
    s.send({ id: 5, op: 'call', name: 'basic__fail', args: {} });
    const denied = await s.answer(5);
    assert.equal(denied.outcome, 'denied');
    assert.equal(denied.confirmedBy, null);

    // The dynamic server adds a tool: a toolsChanged event, and the new tool is listed.
    s.send({ id: 6, op: 'call', name: 'dynamic__control', args: { action: 'add', name: 'gamma' } });
    assert.equal((await s.answer(6)).outcome, 'ok');
    const changed = await s.waitFor('toolsChanged', (l) => l.event === 'toolsChanged');
    assert.equal(changed.server, 'dynamic');
    assert.deepEqual(changed.added, ['gamma']);
    assert.deepEqual(changed.removed, []);
    s.send({ id: 7, op: 'tools' });
    assert.ok((await s.answer(7)).tools.some((t: Json) => t.name === 'dynamic__gamma'));

    // A request still running at EOF is answered before the session ends.
    s.send({ id: 8, op: 'call', name: 'slow__sleep', args: { ms: 300 } });
    s.end();
    const exit = await s.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, s.stderr);
    assert.equal((await s.answer(8)).outcome, 'ok');
    for (const pid of pids) assert.equal(isProcessAlive(pid), false, `server pid ${pid} is gone`);
    assert.ok(s.lines.every((l) => !('unparsable' in l)), 'stdout holds only JSON lines');

    const audit = fs.readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(
      audit.filter((a) => a.kind === 'call').map((a) => [a.name, a.outcome]),
      [
        ['slow__quick', 'ok'],
        ['slow__sleep', 'ok'],
        ['basic__fail', 'denied'],
        ['dynamic__control', 'ok'],
        ['slow__sleep', 'ok'],
      ],
    );
    assert.ok(audit.some((a) => a.kind === 'toolsChanged' && a.server === 'dynamic'));
  });

  it('switches role, refreshes, and answers bad requests with their id', async () => {
    const s = start(['--workspace', workspace(), '--yes']);
    // The switch stops the slow server, but only after the call already in flight has finished.
    s.send({ id: 'inflight', op: 'call', name: 'slow__sleep', args: { ms: 800 } });
    s.send({ id: 1, op: 'role', name: 'echoOnly' });
    s.send({ id: 'after', op: 'call', name: 'slow__quick' });
    const role = await s.answer(1);
    assert.equal(role.role, 'echoOnly', JSON.stringify(role));
    const inflight = await s.answer('inflight');
    assert.equal(inflight.outcome, 'ok', JSON.stringify(inflight));
    assert.ok(s.indexOf(inflight) < s.indexOf(role));
    assert.equal((await s.answer('after')).outcome, 'notFound', 'a call after the switch sees the new role');
    assert.deepEqual(
      role.servers.map((x: Json) => [x.name, x.state]),
      [
        ['basic', 'connected'],
        ['slow', 'stopped'],
        ['dynamic', 'stopped'],
      ],
    );
    assert.equal(role.servers[1].reason, 'not used by role "echoOnly"');

    s.send({ op: 'refresh' });
    const refreshed = await s.answer(null);
    assert.equal(refreshed.op, 'refresh');
    assert.deepEqual(
      refreshed.tools.map((t: Json) => t.name),
      ['basic__echo'],
    );

    // Outside the role is not found, even with --yes.
    s.send({ id: 2, op: 'call', name: 'slow__quick' });
    assert.equal((await s.answer(2)).outcome, 'notFound');
    s.send({ id: 3, op: 'call', name: 'basic__echo', args: { text: 'x' } });
    const yes = await s.answer(3);
    assert.equal(yes.outcome, 'ok');

    s.send({ id: 4, op: 'role', name: 'admin' });
    assert.match((await s.answer(4)).error, /unknown role "admin" \(roles: ops, echoOnly\)/);
    s.send({ id: 5, op: 'refresh', server: 'nope' });
    assert.match((await s.answer(5)).error, /no server named "nope"/);
    s.send({ id: 6, op: 'call' });
    assert.match((await s.answer(6)).error, /"call" needs "name"/);

    s.send({ id: 7, op: 'role', name: null });
    const none = await s.answer(7);
    assert.equal(none.role, null);
    assert.ok(none.servers.every((x: Json) => x.state === 'connected'));

    s.end();
    assert.equal((await s.exited).code, 0);
  });

  it('SIGTERM stops every server and exits 143', async () => {
    const s = start(['--workspace', workspace()]);
    s.send({ id: 1, op: 'servers' });
    const pids: number[] = (await s.answer(1)).servers.map((x: Json) => x.pid);
    assert.equal(pids.length, 3);
    // A call in flight is cancelled, not left hanging.
    s.send({ id: 2, op: 'call', name: 'slow__sleep', args: { ms: 20000 } });
    await sleep(300);
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    assert.deepEqual(exit, { code: 143, signal: null }, s.stderr);
    for (const pid of pids) assert.equal(isProcessAlive(pid), false, `server pid ${pid} is gone`);
    assert.equal((await s.answer(2, 100)).outcome, 'cancelled');
  });
});
