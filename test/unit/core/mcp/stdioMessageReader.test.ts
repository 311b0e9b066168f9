/**
 * StdioMessageReader: linear in the message size (time and memory, measured on 1, 10 and 50 MB
 * messages), the message bound (fails the request the message answers, never the stream), and
 * what it makes of lines that are not JSON-RPC.
 */
import * as assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { PIECE_BYTES, StdioMessageReader, responseId } from '../../../../src/core/mcp/stdioMessageReader';
import { hostErrorText, messageTooLargeText } from '../../../../src/core/mcp/hostErrorResponse';
import { ProtocolError } from '@modelcontextprotocol/client';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

function reader(maxMessageBytes = 64 * MiB) {
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const r = new StdioMessageReader({
    maxMessageBytes,
    onMessage: (m) => messages.push(m),
    onError: (e) => errors.push(e),
    tooLarge: (bytes, limit) => messageTooLargeText('srv', bytes, limit),
  });
  return { r, messages, errors };
}

/** Feeds `text` in chunks of `size` bytes. */
function feed(r: StdioMessageReader, text: string | Buffer, size = 65536): void {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += size) r.push(Buffer.from(buf.subarray(i, i + size)));
}

const line = (m: unknown) => JSON.stringify(m) + '\n';
/** The text of the first content block of a result message. */
const textOf = (m: JSONRPCMessage) => (m as unknown as { result: { content: { text: string }[] } }).result.content[0].text;
const response = (id: number | string, text: string, idLast = false) =>
  idLast ? `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n` : line({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

function errorOf(m: JSONRPCMessage): { code: number; message: string; data?: unknown } {
  assert.ok('error' in m, `expected an error response: ${JSON.stringify(m).slice(0, 200)}`);
  return (m as { error: { code: number; message: string; data?: unknown } }).error;
}

describe('StdioMessageReader', function () {
  this.timeout(120_000);

  it('splits lines across chunks, multi-byte characters cut between chunks included; CRLF and blank lines are fine', () => {
    const { r, messages, errors } = reader();
    const text = '🚀 ünïcødé ' + 'é'.repeat(1000);
    feed(r, response(1, text) + '\r\n' + response(2, 'b').replace('\n', '\r\n'), 7);
    assert.deepEqual(errors, []);
    assert.equal(messages.length, 2);
    assert.equal(textOf(messages[0]), text);
    assert.equal((messages[1] as { id: number }).id, 2);
  });

  it('a line that is not JSON-RPC is reported and skipped; the next message is read', () => {
    const { r, messages, errors } = reader();
    feed(r, 'not json\n[1,2]\n{"hello":1}\n{"jsonrpc":"2.0","id":\n' + response(5, 'ok'));
    assert.equal(errors.length, 4);
    assert.match(errors[0].message, /not JSON-RPC/);
    assert.deepEqual(messages.map((m) => (m as { id: number }).id), [5]);
  });

  it('a response whose error is malformed, or whose result is not an object, fails that request at once', () => {
    const { r, messages } = reader();
    feed(r, line({ jsonrpc: '2.0', id: 3, error: 'a string' }) + line({ jsonrpc: '2.0', id: 4, result: [1] }) + line({ jsonrpc: '2.0', id: 6, error: { code: 1, message: 'm', extra: 1 } }));
    assert.equal(messages.length, 3);
    assert.match(errorOf(messages[0]).message, /malformed error: "a string"/);
    assert.match(errorOf(messages[1]).message, /result that is not an object/);
    assert.deepEqual(errorOf(messages[2]), { code: 1, message: 'm' }, 'a valid error is passed on with only its members');
    assert.equal(hostErrorText(new ProtocolError(errorOf(messages[0]).code, errorOf(messages[0]).message, errorOf(messages[0]).data)), errorOf(messages[0]).message);
  });

  describe('a long line, read in framed pieces of PIECE_BYTES', () => {
    const head = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';
    // As on the wire (JSON-escaped): multi-byte characters of 2, 3 and 4 bytes, escapes.
    for (const special of ['é', '€', '🚀', '\\n', '\\u00e9', '\\\\', '\\"']) {
      it(`the piece end cutting ${special} anywhere in it: the same text as JSON.parse of the line`, () => {
        for (let d = 0; d <= 6; d++) {
          // `special` starts d bytes before the end of the first piece (and again around the second's).
          const fill = (n: number, c: string) => c.repeat(n);
          const body = fill(PIECE_BYTES - Buffer.byteLength(head) - d, 'a') + special + fill(PIECE_BYTES - Buffer.byteLength(special), 'z') + special + 'end';
          const text = `${head}${body}"}]}}`;
          const expected = JSON.parse(text).result.content[0].text as string;
          for (const size of [65536, 7777, 3 * PIECE_BYTES]) {
            const { r, messages, errors } = reader();
            feed(r, text + '\n', size);
            assert.deepEqual(errors, [], `d=${d} chunks of ${size}`);
            assert.equal(messages.length, 1);
            assert.ok(textOf(messages[0]) === expected, `d=${d} chunks of ${size}: a different text`);
          }
        }
      });
    }

    it('a line whose last piece ends with the \\r of CRLF before the \\n arrives is read; the stream goes on', () => {
      const tail = '"}]}}';
      const text = head + 'c'.repeat(2 * PIECE_BYTES - head.length - tail.length - 1) + tail;
      const { r, messages, errors } = reader();
      feed(r, text + '\r');
      r.push(Buffer.from('\n' + response(2, 'next')));
      assert.deepEqual(errors, []);
      assert.equal(textOf(messages[0]), JSON.parse(text).result.content[0].text);
      assert.equal(textOf(messages[1]), 'next');
    });

    it('a long line that is not JSON is reported with its start, without the frame', () => {
      const { r, messages, errors } = reader();
      feed(r, `not json ${'x'.repeat(2 * PIECE_BYTES)}\n` + response(3, 'ok'));
      assert.equal(errors.length, 1);
      assert.match(errors[0].message, /not JSON-RPC \(.*\): not json xxx/);
      assert.equal(textOf(messages[0]), 'ok');
    });
  });

  describe('the message bound', () => {
    it('a message over the bound fails the request it answers (id first, id last, string id); the stream goes on', () => {
      const { r, messages, errors } = reader(MiB);
      const big = 'x'.repeat(2 * MiB);
      feed(r, response(7, big) + response(8, big, true) + response('req-9', big, true) + response(10, 'small'));
      assert.deepEqual(errors, []);
      assert.equal(messages.length, 4);
      assert.deepEqual(messages.slice(0, 3).map((m) => (m as { id: unknown }).id), [7, 8, 'req-9']);
      for (const m of messages.slice(0, 3)) {
        assert.match(errorOf(m).message, /^server "srv" sent a message of 2\.0 MiB; the limit is 1 MiB \(mcpHost\.maxMessageBytes\)$/);
        assert.deepEqual(errorOf(m).data, { mcpHost: 'messageTooLarge' });
      }
      assert.equal(textOf(messages[3]), 'small');
    });

    it('a message of exactly the bound is read; one byte more is not', () => {
      const body = response(1, '').length - 1; // without the newline
      const exact = response(1, 'y'.repeat(MiB - body));
      assert.equal(Buffer.byteLength(exact) - 1, MiB);
      const a = reader(MiB);
      feed(a.r, exact);
      assert.ok('result' in a.messages[0]);
      const b = reader(MiB);
      feed(b.r, response(1, 'y'.repeat(MiB - body + 1)));
      assert.ok('error' in b.messages[0]);
    });

    it('a notification or a request from the server over the bound is reported, never taken for a response', () => {
      const { r, messages, errors } = reader(1024);
      const big = 'z'.repeat(4096);
      feed(r, line({ jsonrpc: '2.0', method: 'notifications/message', params: { data: big } }) + line({ method: 'sampling/createMessage', params: { x: big }, jsonrpc: '2.0', id: 1 }));
      assert.equal(messages.length, 0);
      assert.equal(errors.length, 2);
      assert.match(errors[0].message, /limit is 1 KiB.*dropped/);
    });

    it('responseId reads only a top-level id', () => {
      assert.equal(responseId('{"jsonrpc":"2.0","id":12,"result":{"content":[{"id":99', ''), 12);
      assert.equal(responseId('{"jsonrpc":"2.0","id":"q\\"1","result":{', ''), 'q"1');
      assert.equal(responseId('{"result":{"content":[{"id":99,"text":"', 'x"}]},"jsonrpc":"2.0","id":"a\\"b"}'), 'a"b');
      assert.equal(responseId('{"result":{"id":5', 'xx"}]}}'), undefined, 'a nested id at the end is not the id');
      assert.equal(responseId('{"method":"x","id":3,"params":{', '}}'), undefined);
    });
  });

  describe('time and memory on large messages (figures in the titles)', () => {
    for (const mb of [1, 10, 50]) {
      it(`${mb} MB: one message, peak memory growth at most 3× its size, the value retained ≈ its size`, async function () {
        const size = mb * 1000 * 1000;
        const head = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';
        const tail = '"}]}}\n';
        const fill = Buffer.alloc(65536, 0x78);
        const { r, messages } = reader();
        // The previous test's buffers and strings are freed (and counted out) before the base is read.
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
        gc();
        const base = process.memoryUsage();
        // `external` counts the buffers and the strings Node keeps outside the heap (a large latin1 piece is one).
        const used = () => {
          const u = process.memoryUsage();
          return u.heapUsed + u.external - base.heapUsed - base.external;
        };
        let peak = 0;
        const t0 = performance.now();
        r.push(Buffer.from(head));
        for (let left = size; left > 0; left -= fill.length) {
          // A fresh chunk each time, as a pipe delivers them; the test keeps none.
          r.push(Buffer.from(fill.subarray(0, Math.min(left, fill.length))));
          if ((left & 0xfffff) < fill.length) peak = Math.max(peak, used());
        }
        r.push(Buffer.from(tail));
        const ms = performance.now() - t0;
        peak = Math.max(peak, used());
        assert.equal(messages.length, 1);
        const text = textOf(messages[0]);
        assert.equal(text.length, size);
        // V8 frees an ArrayBuffer's memory in a concurrent sweep after the collection: a freed chunk can
        // still be counted for a moment (beside the rest of the suite, a whole message's worth). Settle first.
        let retained = Infinity;
        for (let i = 0; i < 5 && retained > 1.3 * size + 4e6; i++) {
          gc();
          await new Promise((resolve) => setTimeout(resolve, 20));
          retained = Math.min(retained, used());
        }
        this.test!.title += ` — ${ms.toFixed(0)} ms (${(ms / mb).toFixed(1)} ms/MB), peak +${(peak / 1e6).toFixed(0)} MB (${(peak / size).toFixed(2)}×), retained ${(retained / size).toFixed(2)}×`;
        assert.ok(peak <= 3 * size + 8e6, `peak growth ${(peak / 1e6).toFixed(1)} MB for a ${mb} MB message`);
        assert.ok(retained <= 1.3 * size + 4e6, `retained ${(retained / 1e6).toFixed(1)} MB for a ${mb} MB message`);
      });
    }
  });
});
