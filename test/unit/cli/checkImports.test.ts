/** `mcp-host check` on a workspace whose servers are only in `.vscode/mcp.json` and `.mcp.json`. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixturePath } from '../../fixtures/fixtureServers';
import { describeRun, parseJson, removeTempDirs, runCli, tempDir, type Json } from './cliHarness';

describe('mcp-host check with imported MCP configuration files', function () {
  this.timeout(40_000);
  after(removeTempDirs);

  /** No .vscode/settings.json: a VS Code mcp.json with an input secret, and a .mcp.json. */
  function importOnlyWorkspace(): string {
    const dir = tempDir('mcp-host-import-ws-');
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(
      path.join(dir, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'fixture-log', description: 'Log file', password: true }],
        servers: { basic: { type: 'stdio', command: process.execPath, args: [fixturePath('basic')], env: { FIXTURE_LOG: '${input:fixture-log}' } } },
      }),
    );
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { dyn: { command: process.execPath, args: [fixturePath('dynamic'), '${EXTRA_ARG:-}'] } } }));
    return dir;
  }

  it('lists every imported server with its file; ${input:ID} is answered by MCP_HOST_SECRET_<ID>', async () => {
    const ws = importOnlyWorkspace();
    const log = path.join(ws, 'basic.jsonl');
    // Imported servers are pinned like any other: review them once (the lockfile), then check.
    const locked = await runCli(['lock', '--workspace', ws, '--yes'], { env: { MCP_HOST_SECRET_FIXTURE_LOG: log } });
    assert.equal(locked.code, 0, describeRun(locked));
    const r = await runCli(['check', '--workspace', ws], { env: { MCP_HOST_SECRET_FIXTURE_LOG: log } });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^basic \(\.vscode\/mcp\.json\)\s+connected\s+9\/9\s+basic 1\.0\.0/m);
    assert.match(r.stdout, /^dyn \(\.mcp\.json\)\s+connected\s+3\/3\s+/m);
    assert.match(r.stdout, /in parentheses: the file a server is imported from/);
    assert.ok(fs.readFileSync(log, 'utf8').includes('"event":"initialize"'), 'the secret named the log file');

    const json = parseJson(await runCli(['check', '--workspace', ws, '--json'], { env: { MCP_HOST_SECRET_FIXTURE_LOG: log } }));
    assert.deepEqual(
      json.servers.map((s: Json) => [s.name, s.state, s.source]),
      [
        ['basic', 'connected', '.vscode/mcp.json'],
        ['dyn', 'connected', '.mcp.json'],
      ],
    );
  });

  it('without the secret the server fails with the reason; a malformed file is a problem with file:line:column', async () => {
    const ws = importOnlyWorkspace();
    fs.writeFileSync(path.join(ws, '.mcp.json'), '{ "mcpServers": { "dyn": { "command": "node" ');
    const r = await runCli(['check', '--workspace', ws, '--json']);
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    assert.deepEqual(doc.servers.map((s: Json) => [s.name, s.state]), [['basic', 'error']]);
    assert.match(doc.servers[0].error, /secret "fixture-log" is not set/);
    assert.deepEqual(
      doc.problems.map((p: Json) => [p.severity, p.location, p.message]),
      [['error', { file: '.mcp.json', line: 1, column: 46 }, 'close brace expected; nothing is imported from this file']],
    );
    const human = await runCli(['check', '--workspace', ws]);
    assert.match(human.stderr, /^mcp-host error: \.mcp\.json:1:\d+: \w[\w ]+ expected; nothing is imported from this file$/m);
  });

  it('a folder with neither settings nor imported files is still bad usage (exit 2)', async () => {
    const r = await runCli(['check', '--workspace', tempDir('mcp-host-empty-')]);
    assert.equal(r.code, 2, describeRun(r));
    assert.match(r.stderr, /no \.vscode\/settings\.json in .* \(nor any file of mcpHost\.import: \.vscode\/mcp\.json, \.mcp\.json\)/);
  });
});
