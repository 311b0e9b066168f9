// Bench server: stdio MCP server whose one tool returns a text result of a requested size.
//   text {bytes}  -> one text content part of exactly `bytes` characters (printable ASCII in lines of
//                    100 characters; the newlines are escaped as \n on the wire, so the message is
//                    ~1 % larger than the text). The text of each size is built once and kept.
//   noop          -> "ok"
// Env: as the test fixtures (see test/fixtures/servers/lib/common.mjs).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE_VERSION, serveStdio, startFixture, text } from '../../test/fixtures/servers/lib/common.mjs';

startFixture('largeText');

const LINE = 'The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOP';
const cache = new Map();

function makeText(bytes) {
  let s = cache.get(bytes);
  if (s !== undefined) return s;
  const line = LINE.slice(0, 99) + '\n';
  s = line.repeat(Math.floor(bytes / line.length)) + line.slice(0, bytes % line.length);
  cache.set(bytes, s);
  return s;
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
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'noop') return text('ok');
  if (name !== 'text') throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const bytes = Number(args?.bytes);
  if (!Number.isInteger(bytes) || bytes < 0) throw new McpError(ErrorCode.InvalidParams, 'bytes must be a non-negative integer');
  return text(makeText(bytes));
});

await serveStdio(server);
