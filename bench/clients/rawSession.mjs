// The raw-SDK side of the sustained-session row: the same JSON-lines loop as `mcp-host session`
// (one request per stdin line, answered on stdout as it finishes, requests run concurrently), with
// the SDK's Client over its StdioClientTransport doing the call. No routing, policy or audit.
//   node rawSession.mjs '<json: {"command": "...", "args": [...], "env": {...}}>'
// Requests: {"id":1,"op":"servers"} (answered once connected), {"id":2,"op":"call","name":"noop","args":{}}.
// Answers carry what `mcp-host session` answers for a call: name, outcome, durationMs, content, modelText.
import * as readline from 'node:readline';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

const spec = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: spec.command,
  args: spec.args,
  env: { ...getDefaultEnvironment(), ...spec.env },
  stderr: 'pipe',
});
transport.stderr?.on('data', () => undefined);
const client = new Client({ name: 'bench-raw-session', version: '0.0.0' }, { capabilities: {} });
const ready = client.connect(transport).then(() => client.listTools());

const emit = (value) => process.stdout.write(JSON.stringify(value) + '\n');

async function handle(req) {
  try {
    await ready;
    if (req.op === 'servers') return { id: req.id, op: 'servers', pid: transport.pid };
    if (req.op !== 'call') throw new Error(`unknown op ${req.op}`);
    const started = performance.now();
    const r = await client.callTool({ name: req.name, arguments: req.args ?? {} });
    const content = r.content ?? [];
    const modelText = content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    return {
      id: req.id,
      op: 'call',
      name: req.name,
      outcome: r.isError ? 'error' : 'ok',
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      content,
      modelText,
    };
  } catch (e) {
    return { id: req.id, error: e instanceof Error ? e.message : String(e) };
  }
}

const inFlight = new Set();
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const work = handle(JSON.parse(line)).then(emit);
  inFlight.add(work);
  work.finally(() => inFlight.delete(work));
});
rl.once('close', async () => {
  await ready.catch(() => undefined);
  while (inFlight.size) await Promise.all(inFlight);
  await client.close();
  process.exit(0);
});
