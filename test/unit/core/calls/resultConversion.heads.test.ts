/**
 * Capping a long text as the stdio reader delivers it: a long string is a rope of its pieces, and
 * any read of a rope (a prefix included) makes V8 copy all of it. convertResult takes the capped
 * model text from the string's flat head (flatHead) instead, for a text block and for the text of
 * an embedded resource (after its label line): the same characters, and no copy of the whole.
 */
import * as assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/client';
import { convertResult } from '../../../../src/core/calls/resultConversion';
import { StdioMessageReader } from '../../../../src/core/mcp/stdioMessageReader';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** ~16 M characters, non-ASCII (a two-byte string: 32 MB flat) and full of escapes on the wire. */
const TEXT = 'line "q" \\ tab\t é 🚀 end\n'.repeat(640_000);
const MAX_CHARS = 50_000;

/** The result of one response line read by StdioMessageReader from 64 KB chunks. */
function readResult(result: CallToolResult): CallToolResult {
  const messages: JSONRPCMessage[] = [];
  const reader = new StdioMessageReader({
    maxMessageBytes: 256 * 1024 * 1024,
    onMessage: (m) => messages.push(m),
    onError: (e) => assert.fail(e),
    tooLarge: () => 'too large',
  });
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n`);
  for (let i = 0; i < line.length; i += 65536) reader.push(line.subarray(i, i + 65536));
  assert.equal(messages.length, 1);
  return (messages[0] as unknown as { result: CallToolResult }).result;
}

function used(): number {
  const u = process.memoryUsage();
  return u.heapUsed + u.external;
}

/** Heap and external memory after a collection. */
async function settledMemory(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  return used();
}

describe('convertResult: capping a long text read in pieces', function () {
  this.timeout(60_000);

  const cases: { name: string; result: CallToolResult; expected: string }[] = [
    { name: 'a text block', result: { content: [{ type: 'text', text: TEXT }] }, expected: TEXT.slice(0, MAX_CHARS) },
    {
      name: 'an embedded resource (label line + text)',
      result: { content: [{ type: 'resource', resource: { uri: 'mem://big.txt', mimeType: 'text/plain', text: TEXT } }] },
      expected: `[resource mem://big.txt]\n${TEXT}`.slice(0, MAX_CHARS),
    },
  ];
  for (const c of cases) {
    it(`${c.name}: the model text is the start of the text, taken without copying the whole text`, async () => {
      const result = readResult(c.result);
      const before = await settledMemory();
      const converted = convertResult(result, MAX_CHARS);
      // What capping allocated (read before any collection): slicing the rope instead would have
      // flattened it, a 32 MB copy (its pieces are only freed later, by a full collection).
      const allocated = used() - before;
      assert.ok(allocated < 4e6, `capping allocated ${(allocated / 1e6).toFixed(1)} MB`);
      assert.equal(converted.truncated, true);
      const first = converted.parts[0];
      assert.ok(first.type === 'text' && first.text === c.expected, 'the capped text is the start of the full text');
      assert.match(converted.modelText, new RegExp(`\\[output truncated by MCP Host: ${MAX_CHARS} of \\d+ characters shown\\]$`));
    });
  }
});
