/**
 * The first message a host sends in a turn of the event loop leaves at once; the ones after it in
 * that turn (the next calls of many answers read from one chunk) reach a stdio server in one
 * writev, not one write each. Real server process (the faulty fixture, well-behaved).
 */
import * as assert from 'node:assert/strict';
import type { Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProcessStdioTransport } from '../../../../src/core/mcp/processStdioTransport';
import { nodeEnv } from '../../../fixtures/fixtureServers';
import { FAULTY_STDIO } from '../../../fixtures/faulty/cliFaultHarness';

type Counted = Writable & { _write: (...a: unknown[]) => void; _writev?: (chunks: unknown[], cb: () => void) => void };

/** Counts the writes that reach the pipe (one `_write` per chunk, one `_writev` per batch of chunks). */
function countWrites(stdin: Counted): { writes: number; writevs: number[] } {
  const seen = { writes: 0, writevs: [] as number[] };
  const write = stdin._write.bind(stdin);
  const writev = stdin._writev!.bind(stdin);
  stdin._write = (...a: unknown[]) => {
    seen.writes++;
    write(...a);
  };
  stdin._writev = (chunks: unknown[], cb: () => void) => {
    seen.writevs.push(chunks.length);
    writev(chunks, cb);
  };
  return seen;
}

describe('ProcessStdioTransport: writes', function () {
  this.timeout(30_000);

  it('the first message of a turn leaves at once, the others of the turn in one writev; a message alone in one write', async () => {
    const t = new ProcessStdioTransport({ command: process.execPath, args: [FAULTY_STDIO, '--options={}'], env: nodeEnv() });
    const answered = new Set<unknown>();
    t.onmessage = (m: JSONRPCMessage) => {
      if ('id' in m) answered.add(m.id);
    };
    await t.start();
    try {
      const seen = countWrites((t as unknown as { child: { stdin: Counted } }).child.stdin);
      const ids = ['a', 'b', 'c', 'd', 'e'];
      await Promise.all(ids.map((id) => t.send({ jsonrpc: '2.0', id, method: 'ping' })));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, { writes: 1, writevs: [4] }, 'five messages: the first at once, the other four in one writev');

      await new Promise((r) => setImmediate(r));
      await t.send({ jsonrpc: '2.0', id: 'f', method: 'ping' });
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, { writes: 2, writevs: [4] }, 'a message alone: one write');

      const deadline = Date.now() + 10_000;
      while (answered.size < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual([...answered].sort(), ['a', 'b', 'c', 'd', 'e', 'f'], 'the server read and answered every message');
    } finally {
      await t.close();
    }
  });
});
