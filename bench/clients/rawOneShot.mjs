// The raw-SDK side of the one-shot call row: what `mcp-host call NAME` does, done with the SDK
// alone: connect (initialize), one tools/call by the server's own tool name (no tools/list),
// print the result's text, close, exit.
//   node rawOneShot.mjs '<json: {"command": "...", "args": [...], "env": {...}}>' TOOL [auto | list]
// With `auto`, the client negotiates the revision (SDK v2's versionNegotiation 'auto': a 2026-07-28
// server is spoken to in 2026-07-28); without it, it opens with the 2025 handshake (the SDK's default).
// With `list`, it first reads tools/list page by page up to the page that lists TOOL (the SDK's
// listTools, one page per request), as a client that checks the tool's definition must.
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

const spec = JSON.parse(process.argv[2]);
const tool = process.argv[3];
const mode = process.argv[4];
const negotiate = mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {};
const transport = new StdioClientTransport({
  command: spec.command,
  args: spec.args,
  env: { ...getDefaultEnvironment(), ...spec.env },
  stderr: 'pipe',
});
transport.stderr?.on('data', () => undefined);
const client = new Client({ name: 'bench-raw-one-shot', version: '0.0.0' }, { capabilities: {}, ...negotiate });
await client.connect(transport);
if (mode === 'list') {
  let cursor;
  for (;;) {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    if (page.tools.some((t) => t.name === tool)) break;
    cursor = page.nextCursor;
    if (!cursor) throw new Error(`${tool} is not listed`);
  }
}
const r = await client.callTool({ name: tool, arguments: {} });
process.stdout.write((r.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n') + '\n');
await client.close();
process.exitCode = r.isError ? 1 : 0;
