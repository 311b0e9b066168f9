// Bench server: stdio MCP server with many tools, listed in pages (as large servers do).
//   FIXTURE_TOOL_COUNT (default 20000) tools tool_00000 … ; FIXTURE_PAGE_SIZE (default 500) per page.
//   Each tool has a ~120-character description and a small object input schema (~400 bytes per
//   tool on the wire). Calling any tool returns "<name> ok".
//   FIXTURE_MODERN=1: speaks only MCP 2026-07-28 (the SDK's serveStdio, 2025-era openings
//   rejected), and its server/discover and tools/list results say they may be used again for a
//   minute (FIXTURE_TTL_MS) by anyone (cacheScope public), as a server whose tools do not change would.
// Env: as the test fixtures (see test/fixtures/servers/lib/common.mjs).

import { Server, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio as serveModernStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { diag, envNumber, FIXTURE_VERSION, instrument, pagedToolsList, serveStdio, startFixture, text } from '../../test/fixtures/servers/lib/common.mjs';

startFixture('manyTools');

const count = envNumber('FIXTURE_TOOL_COUNT', 20000);
const pageSize = Math.max(1, envNumber('FIXTURE_PAGE_SIZE', 500));
const width = Math.max(5, String(count - 1).length);
const tools = Array.from({ length: count }, (_, i) => ({
  name: `tool_${String(i).padStart(width, '0')}`,
  description: `Tool number ${i} of a large server: looks up record ${i} by its identifier and returns its fields as text.`,
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'Identifier of the record.' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
  },
}));
const byName = new Map(tools.map((t) => [t.name, t]));

const MODERN = process.env.FIXTURE_MODERN === '1';
const TTL_MS = envNumber('FIXTURE_TTL_MS', 60_000);

function buildServer() {
  const server = new Server(
    { name: 'manyTools', version: FIXTURE_VERSION },
    { capabilities: { tools: {} }, ...(MODERN ? { cacheHints: { 'server/discover': { ttlMs: TTL_MS, cacheScope: 'public' }, 'tools/list': { ttlMs: TTL_MS, cacheScope: 'public' } } } : {}) },
  );
  server.setRequestHandler('tools/list', pagedToolsList(tools, pageSize));
  server.setRequestHandler('tools/call', (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return text(`${tool.name} ok`);
  });
  return server;
}

if (MODERN) {
  serveModernStdio(buildServer, { legacy: 'reject', transport: instrument(new StdioServerTransport()), onerror: (e) => diag(`manyTools: ${e?.stack ?? e}`) });
} else {
  await serveStdio(buildServer());
}
