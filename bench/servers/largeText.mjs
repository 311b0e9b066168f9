// Bench server: stdio MCP server whose one tool returns a text result of a requested size.
//   text {bytes}  -> one text content part of exactly `bytes` characters (printable ASCII in lines of
//                    100 characters; the newlines are escaped as \n on the wire, so the message is
//                    ~1 % larger than the text).
//   noop          -> "ok"
// So that the server's own cost is small and linear, `text` is answered outside the SDK: the
// JSON-escaped text of each size is built once and kept as a Buffer, and each answer is written to
// stdout as three Buffers (envelope with the request id, the text, the closing brackets). The SDK
// serialising a 50 MB result takes ~7x its 10 MB time here, which would be charged to the client.
// Everything else (initialize, tools/list, noop) goes through the SDK's Server as usual.
// Env: as the test fixtures (see test/fixtures/servers/lib/common.mjs).

import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Server, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { FIXTURE_VERSION, instrument, startFixture, text } from '../../test/fixtures/servers/lib/common.mjs';

startFixture('largeText');

const LINE = 'The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOP'.slice(0, 99) + '\n';
/** bytes -> the JSON string literal's content (without quotes) as a Buffer. */
const cache = new Map();

function escapedText(bytes) {
  let b = cache.get(bytes);
  if (b !== undefined) return b;
  const s = LINE.repeat(Math.floor(bytes / LINE.length)) + LINE.slice(0, bytes % LINE.length);
  b = Buffer.from(JSON.stringify(s).slice(1, -1), 'utf8');
  cache.set(bytes, b);
  return b;
}

const tools = [
  {
    name: 'text',
    description: 'Returns a text of `bytes` characters.',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer', minimum: 0 } }, required: ['bytes'] },
  },
  { name: 'noop', description: 'Returns "ok".', inputSchema: { type: 'object', properties: {} } },
];

const server = new Server({ name: 'largeText', version: FIXTURE_VERSION }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (request) => {
  if (request.params.name === 'noop') return text('ok');
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
});

/** Answers tools/call `text` itself (see the header); returns whether it did. */
function answerText(msg) {
  if (msg?.method !== 'tools/call' || msg.id === undefined || msg.params?.name !== 'text') return false;
  const bytes = Number(msg.params.arguments?.bytes);
  if (!Number.isInteger(bytes) || bytes < 0) return false; // the SDK answers with an error
  const body = escapedText(bytes);
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[{"type":"text","text":"`);
  process.stdout.write(body);
  process.stdout.write('"}]}}\n');
  return true;
}

const transport = new StdioServerTransport();
const start = transport.start.bind(transport);
transport.start = async () => {
  const dispatch = transport.onmessage;
  transport.onmessage = (msg, extra) => {
    if (!answerText(msg)) dispatch?.(msg, extra);
  };
  return start();
};
await server.connect(instrument(transport));
