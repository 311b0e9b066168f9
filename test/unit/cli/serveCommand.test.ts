/**
 * `mcp-host serve` with an SDK v2 client as the agent: over stdio (the client starts the CLI) and
 * over HTTP (token file, 401 without the token), with real fixture servers behind; and
 * `--print-config` for each agent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFixtureLog } from '../../fixtures/fixtureServers';
import { cliCommand, describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, startCli, tempDir, type Json } from './cliHarness';

const waitFor = async (what: string, cond: () => boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('mcp-host serve', function () {
  this.timeout(60_000);
  after(removeTempDirs);
  let clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    clients = [];
  });

  const workspace = () => {
    const logs = tempDir('mcp-host-serve-logs-');
    const log = (name: string) => path.join(logs, `${name}.jsonl`);
    const ws = makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic', { FIXTURE_LOG: log('basic') }), slow: fixtureServer('slow', { FIXTURE_LOG: log('slow') }) },
      'mcpHost.autoApprove': ['basic/echo', 'slow/*'],
      'mcpHost.roles': { dev: { tools: ['*/*'], exclude: ['basic/image'] } },
    });
    const events = (name: string): Json[] => (fs.existsSync(log(name)) ? readFixtureLog(log(name)) : []);
    return { ws, events, audit: path.join(logs, 'audit.jsonl') };
  };
  const text = (r: Json) => r.content.map((c: Json) => c.text).join('\n');

  it('over stdio: the role view, calls through the router audited with the agent as actor, confirmation by elicitation, cancellation', async () => {
    const { ws, events, audit } = workspace();
    const expected = parseJson(await runCli(['check', '--workspace', ws, '--role', 'dev', '--json']))
      .tools.filter((t: Json) => t.visible !== false)
      .map((t: Json) => t.name);
    const c = cliCommand(['serve', '--workspace', ws, '--role', 'dev', '--audit', audit]);
    const client = new Client({ name: 'cli-agent', version: '0.9' }, { capabilities: { elicitation: { form: {} } } });
    let answer: Json = { action: 'accept', content: { approve: true } };
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request: Json) => (questions.push(request.params.message), answer));
    await client.connect(new StdioClientTransport({ command: c.command, args: c.args, cwd: c.cwd, env: c.env, stderr: 'pipe' }));
    clients.push(client);

    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, expected);
    assert.ok(!names.some((n) => n.includes('image')), 'basic/image is outside the role');
    const name = (tool: string) => names.find((n) => n.endsWith(tool))!;

    assert.equal(text(await client.callTool({ name: name('echo'), arguments: { text: 'via gateway' } })), 'echo: via gateway');
    const outside = await client.callTool({ name: 'basic__image', arguments: {} });
    assert.equal(outside.isError, true);
    assert.match(text(outside), /not available/);

    assert.equal(text(await client.callTool({ name: name('add'), arguments: { a: 20, b: 22 } })), '42');
    assert.match(questions[0], /tool "add" of server "basic"/);
    answer = { action: 'decline' };
    const denied = await client.callTool({ name: name('add'), arguments: { a: 1, b: 2 } });
    assert.equal(denied.isError, true);
    assert.deepEqual(
      events('basic').filter((e) => e.event === 'call').map((e) => e.tool),
      ['echo', 'add'],
    );

    const abort = new AbortController();
    const slow = client.callTool({ name: name('sleep'), arguments: { ms: 30_000 } }, { signal: abort.signal });
    await waitFor('the call to reach slow', () => events('slow').some((e) => e.event === 'call'));
    abort.abort('stop');
    await assert.rejects(slow);
    await waitFor('slow to see notifications/cancelled', () => events('slow').some((e) => e.event === 'cancelled'));

    await client.close();
    const records = fs
      .readFileSync(audit, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.kind === 'call');
    assert.deepEqual(
      records.map((r) => [r.tool ?? r.name, r.outcome]),
      [['echo', 'ok'], ['basic__image', 'notFound'], ['add', 'ok'], ['add', 'denied'], ['sleep', 'cancelled']],
    );
    for (const r of records) assert.deepEqual(r.actor, { kind: 'upstream', client: 'cli-agent', version: '0.9', transport: 'stdio' });
  });

  it("over stdio: the servers' sampling, form and roots requests reach the agent whose call they serve (roots within the workspace)", async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': { asks: fixtureServer('asks') },
      'mcpHost.autoApprove': ['asks/*'],
      'mcpHost.sampling': { servers: ['asks'] },
    });
    const sub = path.join(ws, 'src');
    fs.mkdirSync(sub);
    const c = cliCommand(['serve', '--workspace', ws]);
    const client = new Client({ name: 'cli-agent', version: '0.9' }, { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
    const asked: string[] = [];
    client.setRequestHandler('sampling/createMessage', async (r: Json) => (asked.push('sampling'), { role: 'assistant', model: 'agent-model', content: { type: 'text', text: `re: ${r.params.messages[0].content.text}` } }));
    client.setRequestHandler('elicitation/create', async () => (asked.push('form'), { action: 'accept', content: { name: 'Lin' } }));
    client.setRequestHandler('roots/list', async () => (asked.push('roots'), { roots: [{ uri: pathToFileURL(sub).href, name: 'src' }, { uri: pathToFileURL(path.join(path.dirname(ws), 'elsewhere')).href, name: 'elsewhere' }] }));
    await client.connect(new StdioClientTransport({ command: c.command, args: c.args, cwd: c.cwd, env: c.env, stderr: 'pipe' }));
    clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    const name = (tool: string) => names.find((n) => n.endsWith(tool))!;
    const json = (r: Json) => JSON.parse(text(r));
    assert.equal(json(await client.callTool({ name: name('sample'), arguments: { prompt: 'hi' } })).content.text, 're: hi');
    assert.equal(json(await client.callTool({ name: name('ask_form'), arguments: {} })).content.name, 'Lin');
    assert.deepEqual(json(await client.callTool({ name: name('roots'), arguments: {} })).roots, [{ uri: pathToFileURL(sub).href, name: 'src' }], 'a folder outside the workspace is not given');
    assert.deepEqual(asked, ['sampling', 'form', 'roots']);
  });

  it('over HTTP: prints the URL, writes the token to a 0600 file, refuses requests without it', async () => {
    const { ws } = workspace();
    const tokenFile = path.join(tempDir(), 'token');
    const { child, result } = startCli(['serve', '--http', '--workspace', ws, '--role', 'dev', '--token-file', tokenFile]);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor('the URL', () => /token: in/.test(out), 30_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1];
      assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600);
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      assert.ok(!out.includes(token), 'the token is not printed when it is written to a file');
      const res = await fetch(url, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
      assert.equal(res.status, 401);
      const client = new Client({ name: 'http-agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      clients.push(client);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.equal(text(await client.callTool({ name: names.find((n) => n.endsWith('echo'))!, arguments: { text: 'h' } })), 'echo: h');
    } finally {
      child.kill('SIGTERM');
    }
    const r = await result;
    assert.equal(r.code, 143, describeRun(r));
  });

  it('--print-config prints the one governed entry for each agent', async () => {
    const { ws } = workspace();
    const claude = parseJson(await runCli(['serve', '--print-config', 'claude-code', '--role', 'dev', '--workspace', ws]));
    assert.deepEqual(claude, { mcpServers: { 'mcp-host': { type: 'stdio', command: 'mcp-host', args: ['serve', '--stdio', '--role', 'dev'] } } });
    const vscode = parseJson(await runCli(['serve', '--print-config', 'vscode', '--role', 'dev', '--workspace', ws]));
    assert.deepEqual(vscode.servers['mcp-host'].args, ['serve', '--stdio', '--workspace', '${workspaceFolder}', '--role', 'dev']);
    const copilot = parseJson(await runCli(['serve', '--print-config', 'copilot-cli', '--workspace', ws]));
    assert.deepEqual(copilot.mcpServers['mcp-host'], { type: 'local', command: 'mcp-host', args: ['serve', '--stdio', '--workspace', ws], tools: ['*'] });
    const bad = await runCli(['serve', '--print-config', 'emacs', '--workspace', ws]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--print-config expects one of claude-code, vscode, copilot-cli/);
    const unknownRole = await runCli(['serve', '--print-config', 'vscode', '--role', 'nope', '--workspace', ws]);
    assert.equal(unknownRole.code, 2, describeRun(unknownRole));
    const port = await runCli(['serve', '--port', '80', '--workspace', ws]);
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--port needs --http/);
  });
});
