/**
 * LivenessWatch against a real HTTP server on 127.0.0.1 reached with fetch: a server whose
 * connections close a moment before its listening socket (a process on its way out) is noticed;
 * one that only drops an idle connection and keeps listening is not reported.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LivenessWatch } from '../../../../src/core/mcp/socketWatch';
import { sleep } from '../helpers';

interface Listening {
  readonly url: string;
  readonly sockets: Set<Socket>;
  readonly server: http.Server;
}

async function listen(): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, sockets, server };
}

describe('LivenessWatch', () => {
  const open: Listening[] = [];
  const watches: LivenessWatch[] = [];
  afterEach(async () => {
    for (const w of watches.splice(0)) w.dispose();
    for (const l of open.splice(0)) {
      for (const s of l.sockets) s.destroy();
      await new Promise((r) => l.server.close(r));
    }
  });

  it('connections closed 100 ms before the port: reported unreachable (the check at the close still got in)', async () => {
    const l = await listen();
    open.push(l);
    const seen: Error[] = [];
    watches.push(new LivenessWatch(l.url, (e) => seen.push(e), [0, 250, 1000]));
    assert.equal(await (await fetch(l.url)).text(), 'ok');
    assert.ok(l.sockets.size > 0, 'fetch kept its connection open');
    const closedAt = Date.now();
    for (const s of l.sockets) s.destroy();
    await sleep(100);
    await new Promise((r) => l.server.close(r));
    for (let i = 0; i < 40 && seen.length === 0; i++) await sleep(50);
    assert.equal(seen.length, 1, 'not reported within 2 s of the close');
    assert.match(String(seen[0].message), /ECONNREFUSED/);
    assert.ok(Date.now() - closedAt >= 250, 'reported before the recheck');
  });

  it('a dropped idle connection while the port keeps answering: nothing reported, once', async () => {
    const l = await listen();
    open.push(l);
    const seen: Error[] = [];
    watches.push(new LivenessWatch(l.url, (e) => seen.push(e), [0, 50, 100]));
    await (await fetch(l.url)).text();
    for (const s of l.sockets) s.destroy();
    await sleep(300);
    assert.deepEqual(seen, []);
    // Still watching: the next close (and a port that is gone) is heard.
    await (await fetch(l.url)).text();
    for (const s of l.sockets) s.destroy();
    await new Promise((r) => l.server.close(r));
    for (let i = 0; i < 40 && seen.length === 0; i++) await sleep(50);
    assert.equal(seen.length, 1);
  });

  it('disposed while it waits to check again: no report, no timer left behind', async () => {
    const l = await listen();
    open.push(l);
    const seen: Error[] = [];
    const w = new LivenessWatch(l.url, (e) => seen.push(e), [0, 200]);
    await (await fetch(l.url)).text();
    for (const s of l.sockets) s.destroy();
    await sleep(50);
    w.dispose();
    await new Promise((r) => l.server.close(r));
    await sleep(300);
    assert.deepEqual(seen, []);
  });
});
