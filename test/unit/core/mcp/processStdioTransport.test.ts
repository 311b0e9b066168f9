/**
 * Reaping a stdio server's process group: one close sequence however often close() is called, a
 * failed initialize that leaves nothing behind, the rest of a group after the server exits on its
 * own (SIGKILL after a grace period), and a missing working directory named as such.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProcessStdioTransport } from '../../../../src/core/mcp/processStdioTransport';
import { isProcessAlive, nodeEnv } from '../../../fixtures/fixtureServers';
import { FAULTY_STDIO, type FaultyOptions } from '../../../fixtures/faulty/cliFaultHarness';
import { settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

/** The faulty stdio server with `options`, its pid file in the test's temp dir. */
function faulty(env: TestEnv, options: FaultyOptions) {
  const pidFile = env.file('pids.json');
  const args = [FAULTY_STDIO, `--options=${JSON.stringify({ pidFile, ...options })}`];
  const pids = (): { pid: number; children: number[] } => (fs.existsSync(pidFile) ? JSON.parse(fs.readFileSync(pidFile, 'utf8')) : { pid: 0, children: [] });
  return { args, pids };
}

async function ping(t: ProcessStdioTransport): Promise<void> {
  const answered = new Promise<void>((resolve) => {
    t.onmessage = (m: JSONRPCMessage) => {
      if ('id' in m && m.id === 'ping') resolve();
    };
  });
  await t.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  await answered;
}

describe('ProcessStdioTransport: reaping', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  it('close() twice gives the same promise; a server ignoring stdin EOF and SIGTERM is gone when it resolves', async () => {
    const f = faulty(env, { ignoreSigterm: true, ignoreStdinEof: true });
    const t = new ProcessStdioTransport({ command: process.execPath, args: f.args, env: nodeEnv() });
    await t.start();
    await ping(t);
    const pid = t.pid!;
    const first = t.close();
    const second = t.close();
    assert.equal(first, second, 'one close sequence');
    await second;
    await waitFor('the server to be gone', () => !isProcessAlive(pid), 2000);
    assert.equal(t.exitReason(), 'signal SIGKILL');
  });

  it('a server that exits on its own: the grandchild that ignores SIGTERM is SIGKILLed by the close that follows', async () => {
    const f = faulty(env, { atStart: [{ spawnChild: { ignoreSigterm: true } }, { exit: 5 }] });
    const t = new ProcessStdioTransport({ command: process.execPath, args: f.args, env: nodeEnv() });
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    await closed;
    const [grandchild] = f.pids().children;
    assert.ok(grandchild, 'the fixture recorded its grandchild');
    assert.ok(isProcessAlive(grandchild), 'SIGTERM alone did not end it');
    await t.close();
    // SIGKILL was sent: the process is gone as soon as the kernel has delivered it.
    await waitFor('the grandchild to be gone', () => !isProcessAlive(grandchild), 2000);
  });

  it('through the host: a server that crashes mid-call leaves no grandchild, without waiting for the host to close', async () => {
    const f = faulty(env, { atStart: [{ spawnChild: { ignoreSigterm: true } }], tools: [{ name: 'die', inputSchema: { type: 'object' } }], calls: { die: [{ exit: 5 }] } });
    const host = await env.started({
      settings: settings({ servers: [{ name: 'f', type: 'stdio', enabled: true, command: process.execPath, args: f.args, env: nodeEnv(), connectTimeoutMs: 8000 }], autoApprove: ['*/*'] }),
      backoff: { initialDelayMs: 60_000, maxDelayMs: 60_000, maxFailures: 1 },
    });
    const [grandchild] = f.pids().children;
    assert.equal((await host.call({ name: 'f__die' })).outcome, 'error');
    await waitFor('the grandchild to be reaped', () => !isProcessAlive(grandchild), 10_000);
  });

  it('a failed initialize (server hanging in it, ignoring SIGTERM and EOF) has reaped the server when start() resolves', async () => {
    const f = faulty(env, { initialize: [{ hang: true }], ignoreSigterm: true, ignoreStdinEof: true });
    const host = env.host({
      settings: settings({ servers: [{ name: 'f', type: 'stdio', enabled: true, command: process.execPath, args: f.args, env: nodeEnv(), connectTimeoutMs: 500 }] }),
    });
    await host.start();
    assert.match(host.snapshot().server('f')?.failure ?? '', /initialize/);
    assert.ok(f.pids().pid > 0);
    assert.equal(isProcessAlive(f.pids().pid), false, 'the server outlived its failed start');
  });

  it('a working directory that does not exist is named, and the command is not blamed', async () => {
    const missing = path.join(env.dir, 'no', 'such', 'dir');
    const t = new ProcessStdioTransport({ command: process.execPath, args: [], env: {}, cwd: missing });
    await assert.rejects(t.start(), (e: Error) => e.message.includes(`"${missing}"`) && /working directory/.test(e.message) && !e.message.includes('ENOENT'));
  });

  it('a message over maxMessageBytes fails the request it answers; the server goes on', async () => {
    const f = faulty(env, { tools: [{ name: 'big', inputSchema: { type: 'object' } }], calls: { big: [{ reply: { textBytes: 300_000 } }] } });
    const t = new ProcessStdioTransport({ command: process.execPath, args: f.args, env: nodeEnv(), maxMessageBytes: 100_000, name: 'f' });
    await t.start();
    const got: JSONRPCMessage[] = [];
    t.onmessage = (m) => got.push(m);
    await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } });
    await waitFor('the answer', () => got.length > 0);
    assert.match(JSON.stringify(got[0]), /server \\"f\\" sent a message of 293\.0 KiB; the limit is 97\.7 KiB \(mcpHost\.maxMessageBytes\)/);
    await ping(t);
    await t.close();
  });
});
