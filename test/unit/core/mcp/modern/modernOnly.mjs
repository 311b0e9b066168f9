// A stdio MCP server that speaks only protocol revision 2026-07-28 (SDK v2's server, `legacy:
// 'reject'`: an `initialize` gets the unsupported-protocol-version error). One tool, `echo`.
import process from 'node:process';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function build() {
  const server = new McpServer({ name: 'modern-only', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  return server;
}

process.stdin.on('end', () => process.exit(0));
void serveStdio(build, { legacy: 'reject', transport: new StdioServerTransport() });
