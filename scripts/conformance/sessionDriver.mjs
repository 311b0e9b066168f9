#!/usr/bin/env node
// A client for the conformance suite's scenarios with `mcp-host session` as the MCP client:
//
//   node scripts/conformance/sessionDriver.mjs <server-url>
//
// It writes a throw-away workspace whose settings name the scenario's server
// ({"mcpHost.servers": {"conformance": {"type": "http", "url": <server-url>}}}), starts
// `mcp-host session --workspace <it> --yes` (MCP_HOST_CLI: the command, default
// `node --import tsx <repo>/src/cli/main.ts`) and drives it over JSON lines, as any driver would:
// wait until the server has connected, list the tools, make the calls the scenario asks for (see
// `callsFor`), and answer every server question the session reports:
//   - an `elicitation` event (form) is accepted with the form as offered: its `content` is the
//     form's defaults (SEP-1034), sent back unchanged; a URL elicitation is declined;
//   - a `sampling` event is accepted with a fixed text.
// Exit 0 when every call was answered with outcome ok, 1 otherwise (the reason on stderr). The
// session's stderr is passed through; its JSON lines are echoed to stderr with MCP_HOST_DRIVER_VERBOSE=1.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = 'conformance';
const verbose = process.env.MCP_HOST_DRIVER_VERBOSE === '1';

function fail(message) {
  process.stderr.write(`sessionDriver: ${message}\n`);
  process.exitCode = 1;
}

/** Arguments that satisfy a tool's input schema: 1, 2, … for numbers, "test" for strings, true for booleans. */
export function argumentsFor(schema) {
  const args = {};
  let n = 0;
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (!(schema.required ?? []).includes(name) && prop?.default !== undefined) continue;
    const type = Array.isArray(prop?.type) ? prop.type[0] : prop?.type;
    if (Array.isArray(prop?.enum)) args[name] = prop.enum[0];
    else if (type === 'number' || type === 'integer') args[name] = ++n;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = {};
    else args[name] = 'test';
  }
  return args;
}

/**
 * The calls to make, from the session's tool list (each with `tool`, the server's own name, and
 * `inputSchema` as the host presents it), as the scenario's client requirements say:
 * - the scenario names them (MCP_CONFORMANCE_CONTEXT `toolCalls`, e.g. http-custom-headers: values
 *   chosen to exercise each header encoding): exactly those, with those arguments;
 * - json-schema-2020-12-preservation: the focal tool's inputSchema, as the host presents it, passed
 *   back verbatim to `json_schema_echo` (the scenario compares it with what the server sent);
 * - json-schema-ref-no-deref: none (its server answers tools/list only; the check is that listing
 *   never fetches the schema's network $ref);
 * - any other: every tool, with arguments made from its input schema.
 */
export function callsFor(scenario, context, tools) {
  const byTool = new Map(tools.map((t) => [t.tool, t]));
  if (Array.isArray(context.toolCalls)) {
    return context.toolCalls.map((c) => ({ name: byTool.get(c.name)?.name ?? `${SERVER}__${c.name}`, args: c.arguments ?? {} }));
  }
  if (scenario === 'json-schema-2020-12-preservation') {
    const focal = byTool.get('json_schema_2020_12_tool');
    const echo = byTool.get('json_schema_echo');
    return focal && echo ? [{ name: echo.name, args: { schema: focal.inputSchema } }] : [];
  }
  if (scenario === 'json-schema-ref-no-deref') return [];
  return tools.map((t) => ({ name: t.name, args: argumentsFor(t.inputSchema) }));
}

async function main() {
  const url = process.argv[process.argv.length - 1];
  if (!url || !/^https?:\/\//.test(url)) throw new Error('usage: sessionDriver.mjs <server-url>');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-conformance-ws-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(
    path.join(dir, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpHost.servers': { [SERVER]: { type: 'http', url } }, 'mcpHost.sampling': { servers: [SERVER] }, 'mcpHost.pinning': 'off' }, null, 2),
  );
  const cli = (process.env.MCP_HOST_CLI ?? `node --import ${pathToFileURL(path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href} ${path.join(REPO, 'src', 'cli', 'main.ts')}`)
    .trim()
    .split(/\s+/);
  const child = spawn(cli[0], [...cli.slice(1), 'session', '--workspace', dir, '--yes'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));

  const waiters = new Map();
  let connected;
  const ready = new Promise((resolve, reject) => (connected = { resolve, reject }));
  const send = (line) => {
    if (verbose) process.stderr.write(`driver → ${JSON.stringify(line)}\n`);
    child.stdin.write(JSON.stringify(line) + '\n');
  };
  let nextId = 1;
  const request = (op) => {
    const id = nextId++;
    send({ id, ...op });
    return new Promise((resolve) => waiters.set(id, resolve));
  };

  readline.createInterface({ input: child.stdout }).on('line', (text) => {
    if (verbose) process.stderr.write(`session → ${text}\n`);
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      return fail(`not JSON on the session's stdout: ${text}`);
    }
    if (line.event === 'serverState' && line.server === SERVER) {
      if (line.state === 'connected') connected.resolve();
      else if (line.state === 'error') connected.reject(new Error(`the server failed to connect: ${line.error}`));
    } else if (line.event === 'elicitation') {
      // Accept the form as offered: the defaults the session filled in, unchanged.
      if (line.mode === 'form') void request({ op: 'elicitation', request: line.request, action: 'accept', content: line.content });
      else void request({ op: 'elicitation', request: line.request, action: 'decline' });
    } else if (line.event === 'sampling') {
      void request({ op: 'sampling', request: line.request, action: 'accept', text: 'A reply from the conformance driver.', model: 'conformance-driver' });
    } else if ('id' in line && waiters.has(line.id)) {
      const resolve = waiters.get(line.id);
      waiters.delete(line.id);
      resolve(line);
    }
  });

  try {
    await ready;
    const tools = await request({ op: 'tools' });
    if (tools.error) throw new Error(`tools: ${tools.error}`);
    const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
    for (const call of callsFor(process.env.MCP_CONFORMANCE_SCENARIO ?? '', context, tools.tools)) {
      const answer = await request({ op: 'call', name: call.name, args: call.args });
      if (answer.error || answer.outcome !== 'ok') fail(`${call.name}: ${answer.error ?? `${answer.outcome}: ${answer.modelText}`}`);
      else process.stderr.write(`sessionDriver: ${call.name} → ok: ${answer.modelText.slice(0, 200)}\n`);
    }
  } finally {
    child.stdin.end();
    const { code, signal } = await exited;
    fs.rmSync(dir, { recursive: true, force: true });
    if (code !== 0) fail(`the session exited with ${code ?? signal}`);
  }
}

main().catch((e) => fail(e instanceof Error ? e.message : String(e)));
