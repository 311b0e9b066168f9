// Bench server: the floor of a second process hop. A bare SDK v2 stdio server that forwards
// tools/list and tools/call to one stdio server it starts (argv: its command line), through a bare
// SDK v2 client: the same serving entry as `mcp-host serve --stdio` (serveStdio) and the same two
// JSON parses and stringifies per message, but no router, policy, pins, audit or logging. The
// gateway row compares `mcp-host serve` with it to tell the cost of the hop from the host's own.

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'sdk-proxy', version: '0.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));

serveStdio(
  () => {
    const server = new Server({ name: 'sdk-proxy', version: '0.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', (request) => client.listTools(request.params));
    server.setRequestHandler('tools/call', (request, ctx) => client.callTool(request.params, { signal: ctx.mcpReq.signal }));
    return server;
  },
  { transport: new StdioServerTransport() },
);
process.stdin.once('end', () => void client.close().finally(() => process.exit(0)));
