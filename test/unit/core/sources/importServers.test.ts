import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';
import { importServers } from '../../../../src/core/sources/importServers';

describe('importServers: existing MCP configuration files, in list order', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-import-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const run = (files: string[]) => importServers(files, { workspaceFolder: dir, env: { TOKEN: 't' }, homeDir: '/h' });

  it('tells the format by its content, keeps file order, and the first file wins a name clash (reported)', () => {
    write('.vscode/mcp.json', '{ "servers": { "shared": { "command": "a" }, "vs": { "command": "b" } } }');
    write('.mcp.json', '{\n  "mcpServers": {\n    "shared": { "command": "c" },\n    "claude": { "url": "https://x.example.com/mcp" }\n  }\n}');
    write('.cursor/mcp.json', '{ "mcpServers": { "cursor": { "command": "d", "env": { "T": "${TOKEN}" } } } }');
    const r = run(['.vscode/mcp.json', '.mcp.json', '.cursor/mcp.json']);
    assert.deepEqual(
      r.servers.map((s) => [s.name, s.source]),
      [
        ['shared', '.vscode/mcp.json'],
        ['vs', '.vscode/mcp.json'],
        ['claude', '.mcp.json'],
        ['cursor', '.cursor/mcp.json'],
      ],
    );
    assert.deepEqual(r.servers[0].definition.command, 'a');
    assert.deepEqual(r.servers[3].definition.env, { T: '${env:TOKEN}' });
    assert.deepEqual(r.problems.map(formatProblem), ['.mcp.json:3:5: server "shared" is also defined in .vscode/mcp.json, which comes first in mcpHost.import; this one is not used']);
    assert.deepEqual(r.found, ['.vscode/mcp.json', '.mcp.json', '.cursor/mcp.json']);
    assert.deepEqual(r.files, [path.join(dir, '.vscode/mcp.json'), path.join(dir, '.mcp.json'), path.join(dir, '.cursor/mcp.json')]);
  });

  it('a missing file is skipped quietly but still watched; an empty file imports nothing', () => {
    write('.mcp.json', '');
    const r = run(['.vscode/mcp.json', '.mcp.json']);
    assert.deepEqual([r.servers, r.problems, r.found], [[], [], ['.mcp.json']]);
    assert.equal(r.files.length, 2);
  });

  it('a malformed file is a problem with its file, line and column, never a throw; the other files still load', () => {
    write('.vscode/mcp.json', '{\n  "servers": {\n    "a": { "command": "node", }\n    "b": {}\n  }\n}');
    write('.mcp.json', '{ "mcpServers": { "ok": { "command": "node" } } }');
    const r = run(['.vscode/mcp.json', '.mcp.json']);
    assert.deepEqual(r.servers.map((s) => s.name), ['ok']);
    assert.deepEqual(r.problems.map((p) => [p.severity, formatProblem(p)]), [['error', '.vscode/mcp.json:4:5: comma expected; nothing is imported from this file']]);
  });

  it('a file that is not an object of servers, or a directory, is reported', () => {
    write('.vscode/mcp.json', '[1, 2]');
    fs.mkdirSync(path.join(dir, 'folder.json'));
    write('other.json', '{ "name": "x" }');
    const r = run(['.vscode/mcp.json', 'folder.json', 'other.json']);
    assert.deepEqual(r.servers, []);
    const text = r.problems.map(formatProblem);
    assert.equal(text[0], '.vscode/mcp.json:1:1: expected an object with "servers" (VS Code) or "mcpServers" (.mcp.json), got an array; nothing is imported');
    assert.match(text[1], /^folder\.json:1:1: cannot read: EISDIR/);
    assert.deepEqual(text.slice(2), ['other.json:1:1: neither "servers" (VS Code) nor "mcpServers" (.mcp.json) is defined; nothing is imported']);
  });

  it('an absolute path outside the workspace is shown as is; relative paths need a workspace folder', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-import-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'mcp.json'), '{ "mcpServers": { "far": { "command": "node" } } }');
      const r = run([path.join(outside, 'mcp.json')]);
      assert.deepEqual(r.servers.map((s) => [s.name, s.source]), [['far', path.join(outside, 'mcp.json')]]);
      const none = importServers(['.mcp.json'], { env: {}, homeDir: '/h' });
      assert.deepEqual([none.servers, none.files], [[], []]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
