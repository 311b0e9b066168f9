/**
 * Behaviour 9: crash detection, restart with backoff, giving up, and a dispose that leaves no
 * process behind (children, wrapper grandchildren, servers still starting or waiting to restart).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ConnectionState } from '../../../../src/core/mcp/connectionState';
import { childPidsOf, descendantPidsOf, fixturePath, isProcessAlive } from '../../../fixtures/fixtureServers';
import { settings, sleep, stateKind, useTestEnv, waitFor, waitForState, type Any, loaded } from '../helpers';

const isConnected = (s: ConnectionState) => s.kind === 'connected';

describe('McpHost: lifecycle', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('restarts a crashed server with backoff and connects again', async () => {
    const host = await env.started({
      settings: settings({ servers: [env.stdio('crashy', 'crashy')], autoApprove: ['*/*'] }),
      backoff: { initialDelayMs: 50, maxDelayMs: 400, maxFailures: 3 },
    });
    const pid1 = host.snapshot().server('crashy')!.pid!;
    const states: ConnectionState[] = [];
    host.onDidChangeServerState((e) => states.push(e.state));

    const reconnected = waitForState(host, 'crashy', (s) => isConnected(s) && host.snapshot().server('crashy')?.pid !== pid1);
    const r = await host.call({ name: 'crashy__crash' });
    assert.equal(r.outcome, 'error');
    assert.ok(r.durationMs < 1000, `crash noticed within 1 s (${r.durationMs} ms)`);
    assert.match(r.modelText, /closed the connection/);
    assert.match(r.modelText, /exited \(code 3\)/);
    await reconnected;

    const restarting = states.find((s) => s.kind === 'restarting') as Any;
    assert.ok(restarting, 'went through restarting');
    assert.equal(restarting.delayMs, 50);
    assert.equal(restarting.attempt, 2);
    assert.match(restarting.reason, /exited \(code 3\).*crashing in tool call/);
    assert.ok(!isProcessAlive(pid1));
    assert.deepEqual(
      env.events('crashy').filter((e) => e.event === 'initialize' || e.event === 'exit').map((e) => e.event + (e.code ?? '')),
      ['initialize', 'exit3', 'initialize'],
    );
    assert.equal((await host.call({ name: 'crashy__ok' })).modelText, 'fine');
  });

  it('notices a server that dies on its own while idle', async () => {
    const host = await env.started({
      settings: settings({ servers: [env.stdio('crashy', 'crashy', { env: { FIXTURE_CRASH_AFTER_MS: '400' } })] }),
    });
    const pid1 = host.snapshot().server('crashy')!.pid!;
    const restarting = (await waitForState(host, 'crashy', (s) => s.kind === 'restarting')) as Any;
    assert.match(restarting.reason, /exited \(code 5\)/);
    await waitForState(host, 'crashy', (s) => isConnected(s) && host.snapshot().server('crashy')?.pid !== pid1);
  });

  it('gives up after maxFailures consecutive failed restarts, with the reason; a manual restart works again', async () => {
    // The wrapper refuses to start while the marker file exists: the first start succeeds, every
    // restart after the crash fails at once.
    const marker = env.file('crash-marker');
    const base = env.stdio('crashy', 'crashy');
    const server = {
      ...base,
      command: 'sh',
      args: ['-c', 'if [ -e "$0" ]; then echo "refusing to start: marker present" >&2; exit 7; fi; exec "$1" "$2"', marker, process.execPath, fixturePath('crashy')],
    };
    const host = await env.started({
      settings: settings({ servers: [server], autoApprove: ['*/*'] }),
      backoff: { initialDelayMs: 50, maxDelayMs: 150, maxFailures: 3 },
    });
    assert.equal(stateKind(host, 'crashy'), 'connected');
    const states: ConnectionState[] = [];
    host.onDidChangeServerState((e) => states.push(e.state));
    fs.writeFileSync(marker, '');
    const gaveUp = waitForState(host, 'crashy', (s) => s.kind === 'error');
    assert.equal((await host.call({ name: 'crashy__crash' })).outcome, 'error');
    const final = (await gaveUp) as Any;

    assert.deepEqual(
      states.filter((s) => s.kind === 'restarting').map((s: Any) => [s.attempt, s.delayMs]),
      [
        [2, 50],
        [3, 100],
        [4, 150],
      ],
      'exponential delays, capped at maxDelayMs',
    );
    assert.equal(states.filter((s) => s.kind === 'starting').length, 3, 'three restart attempts');
    assert.match(final.message, /gave up after 3 failed restarts/);
    assert.match(final.message, /exited \(code 7\)/);
    assert.match(final.message, /marker present/);
    // It stays given up: no more attempts.
    await sleep(300);
    assert.equal(stateKind(host, 'crashy'), 'error');
    assert.equal(host.snapshot().exposed.length, 0, 'a given-up server offers no tools');
    const r = await host.call({ name: 'crashy__ok' });
    assert.equal(r.outcome, 'error');
    assert.match(r.modelText, /gave up/);

    fs.rmSync(marker);
    await host.servers.restartServer('crashy');
    assert.equal(stateKind(host, 'crashy'), 'connected');
    assert.equal((await host.call({ name: 'crashy__ok' })).modelText, 'fine');
  });

  it('dispose leaves no child process, including grandchildren of a shell wrapper', async () => {
    const before = childPidsOf(process.pid);
    // sh stays the direct child (a command follows node), starts a background grandchild that never
    // reads stdin, and node is a grandchild too. Only killing the process group reaps them all.
    const wrapped = {
      ...env.stdio('wrapped', 'basic'),
      command: 'sh',
      args: ['-c', 'sleep 300 & echo "sleeper pid=$!" >&2; "$0" "$1"; echo "wrapper done" >&2', process.execPath, fixturePath('basic')],
    };
    const host = await env.started({
      settings: settings({ servers: [wrapped, env.stdio('basic', 'basic'), env.stdio('slow', 'slow'), env.stdio('dynamic', 'dynamic')] }),
    });
    for (const c of host.snapshot().servers) assert.equal(c.state.kind, 'connected', c.name);

    const direct = host.snapshot().servers.map((c) => c.pid!);
    const serverPids = ['wrapped', 'basic', 'slow', 'dynamic'].map((n) => env.events(n).find((e) => e.event === 'initialize').pid as number);
    await host.log.waitForLine(/sleeper pid=\d+/);
    const sleeper = Number(/sleeper pid=(\d+)/.exec(host.log.matching(/sleeper pid=/)[0].message)![1]);
    const wrapperNode = serverPids[0];
    assert.notEqual(wrapperNode, direct[0], 'the wrapped server is a grandchild');
    const descendants = descendantPidsOf(process.pid);
    for (const pid of [...direct, ...serverPids, sleeper]) assert.ok(descendants.includes(pid), `${pid} runs under us`);
    // A long call in flight does not hold dispose up, and it still ends with a result.
    const inFlight = host.call({ name: 'slow__sleep', args: { ms: 30_000 } });
    await waitFor('the long call to reach the server', () => env.events('slow').some((e) => e.event === 'call'));

    const t0 = Date.now();
    await host.close();
    assert.ok(Date.now() - t0 < 4000, 'dispose is quick');
    for (const pid of [...direct, ...serverPids]) assert.equal(isProcessAlive(pid), false, `pid ${pid} is gone`);
    // The background grandchild got SIGKILL with its process group; give the kernel a moment to reap it.
    await waitFor(`the sleeper ${sleeper} to die with its group`, () => !isProcessAlive(sleeper), 1000);
    assert.deepEqual(
      childPidsOf(process.pid).filter((p) => !before.includes(p)),
      [],
    );
    const r = await inFlight;
    assert.equal(r.outcome, 'error');
  });

  it('whenReady waits for start-up to settle, bounded by its timeout', async () => {
    const late = env.stdio('late', 'basic', { env: { FIXTURE_INIT_DELAY_MS: '3000' } });
    const host = env.host({ settings: settings({ servers: [late] }) });
    const started = host.start();
    const t0 = Date.now();
    await host.whenReady(50);
    assert.ok(Date.now() - t0 < 2000, 'the bounded wait returns before the 3 s initialize');
    assert.equal(stateKind(host, 'late'), 'starting');
    await host.whenReady();
    assert.equal(stateKind(host, 'late'), 'connected');
    await started;
  });

  it('whenReady right after a start that was not awaited waits for it', async () => {
    const host = env.host({ settings: settings({ servers: [env.stdio('basic', 'basic')] }) });
    void host.start();
    await host.whenReady();
    assert.equal(stateKind(host, 'basic'), 'connected');
    assert.ok(host.snapshot().exposed.length > 0);
  });

  it('dispose while a server is still starting leaves no process', async () => {
    const late = env.stdio('late', 'basic', { env: { FIXTURE_INIT_DELAY_MS: '8000' }, connectTimeoutMs: 15_000 });
    const host = env.host({ settings: settings({ servers: [late] }) });
    const starting = host.start();
    await waitFor('the late server to receive initialize', () => env.events('late').some((e) => e.event === 'initialize'));
    const pid = env.events('late').find((e) => e.event === 'initialize').pid;
    assert.ok(isProcessAlive(pid));
    const t0 = Date.now();
    await host.close();
    assert.ok(Date.now() - t0 < 4000, 'dispose does not wait for the initialize timeout');
    assert.equal(isProcessAlive(pid), false, 'the starting server was ended by dispose');
    await starting;
  });

  it('dispose while a restart is pending starts nothing afterwards', async () => {
    const host = await env.started({
      settings: settings({ servers: [env.stdio('crashy', 'crashy')], autoApprove: ['*/*'] }),
      backoff: { initialDelayMs: 300, maxDelayMs: 300, maxFailures: 3 },
    });
    const restarting = waitForState(host, 'crashy', (s) => s.kind === 'restarting');
    void host.call({ name: 'crashy__crash' });
    await restarting;
    await host.close();
    await sleep(450);
    assert.equal(env.events('crashy').filter((e) => e.event === 'initialize').length, 1, 'no restart after dispose');
    assert.deepEqual(descendantPidsOf(process.pid).filter((p) => isProcessAlive(p) && env.events('crashy').some((e) => e.pid === p)), []);
  });

  it('stopServer ends the process and removes its tools; startServer brings them back', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow')] }) });
    const pid = host.snapshot().server('basic')!.pid!;
    await host.servers.stopServer('basic');
    assert.equal(stateKind(host, 'basic'), 'stopped');
    assert.equal(isProcessAlive(pid), false);
    assert.ok(loaded(host).every((e) => e.server === 'slow'));
    const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
    assert.equal(r.outcome, 'notFound');
    await host.servers.startServer('basic');
    assert.equal(stateKind(host, 'basic'), 'connected');
    assert.ok(loaded(host).find((t) => t.name === 'basic__echo'));
  });
});
