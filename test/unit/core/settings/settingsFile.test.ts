import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { SettingsFileError, readWorkspaceSettings } from '../../../../src/core/settings/settingsFile';

describe('readWorkspaceSettings', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-settings-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function write(text: string): string {
    fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
    const file = path.join(dir, '.vscode', 'settings.json');
    fs.writeFileSync(file, text);
    return file;
  }

  function expectFileError(fn: () => unknown, pattern: RegExp): SettingsFileError {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof SettingsFileError, `expected a SettingsFileError, got ${String(e)}`);
      assert.match(e.message, pattern);
      return e;
    }
    assert.fail('expected a SettingsFileError');
  }

  it('reads JSONC with comments and trailing commas, keeping only mcpHost.* keys', () => {
    const file = write(`// workspace settings
{
  "editor.tabSize": 2, /* not ours */
  "mcpHost.servers": {
    // the order matters
    "orders": { "command": "node", "args": ["orders.js",], },
    "kb": { "type": "http", "url": "https://kb.example.com/mcp" },
  },
  "mcpHost.activeRole": "support",
  "mcpHost.audit.path": "audit.jsonl",
  "mcpHostile": true,
}
`);
    const { raw, problems, file: f } = readWorkspaceSettings(dir);
    assert.equal(f, file);
    assert.deepEqual(problems, []);
    assert.deepEqual(Object.keys(raw).sort(), ['activeRole', 'audit.path', 'servers']);
    assert.equal(raw.activeRole, 'support');
    assert.deepEqual(Object.keys(raw.servers as object), ['orders', 'kb']);

    const parsed = parseSettings(raw);
    assert.deepEqual(
      parsed.problems.map((p) => p.setting),
      ['mcpHost.activeRole'],
      'only the unknown role is a problem',
    );
    assert.equal(parsed.settings.auditPath, 'audit.jsonl');
  });

  it('reports a syntax error as file:line:col', () => {
    const file = write('{\n  "mcpHost.timeoutMs": 100\n  "mcpHost.maxToolRounds": 3\n}\n');
    const e = expectFileError(() => readWorkspaceSettings(dir), /comma expected$/);
    assert.equal(e.message, `${file}:3:3: comma expected`);
    assert.equal(e.file, file);
  });

  it('reports the position of a bad value', () => {
    const file = write('{\n  "mcpHost.servers": {\n    "a": { "command": nope }\n  }\n}');
    const e = expectFileError(() => readWorkspaceSettings(dir), /invalid symbol|value expected/);
    assert.ok(e.message.startsWith(`${file}:3:23: `), e.message);
  });

  it('throws when the file is missing', () => {
    expectFileError(() => readWorkspaceSettings(dir), new RegExp(`^no \\.vscode/settings\\.json in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });

  it('throws when the top level is not an object', () => {
    write('[1, 2]');
    expectFileError(() => readWorkspaceSettings(dir), /expected an object at the top level, got an array/);
  });

  it('accepts an empty file or one with only comments', () => {
    write('  // nothing yet\n');
    assert.deepEqual(readWorkspaceSettings(dir).raw, {});
    write('');
    assert.deepEqual(readWorkspaceSettings(dir).raw, {});
  });

  it('flattens the nested "mcpHost": { … } form', () => {
    write(`{
  "mcpHost": {
    "servers": { "a": { "command": "a" } },
    "roles": { "r": { "servers": ["a"] } },
    "audit": { "path": "x.jsonl" },
  },
}`);
    const { raw, problems } = readWorkspaceSettings(dir);
    assert.deepEqual(problems, []);
    const parsed = parseSettings(raw);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.settings.servers.map((s) => s.name),
      ['a'],
    );
    assert.equal(parsed.settings.roles[0].name, 'r');
    assert.equal(parsed.settings.auditPath, 'x.jsonl');
  });

  it('prefers the flat key when a key is given both ways, with a warning', () => {
    write(`{
  "mcpHost": { "timeoutMs": 1000, "maxToolRounds": 4 },
  "mcpHost.timeoutMs": 2000
}`);
    const { raw, problems } = readWorkspaceSettings(dir);
    assert.equal(raw.timeoutMs, 2000);
    assert.equal(raw.maxToolRounds, 4);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].severity, 'warning');
    assert.equal(problems[0].setting, 'mcpHost.timeoutMs');
  });

  it('reports a nested mcpHost that is not an object', () => {
    write('{ "mcpHost": 3, "mcpHost.timeoutMs": 5 }');
    const { raw, problems } = readWorkspaceSettings(dir);
    assert.deepEqual(raw, { timeoutMs: 5 });
    assert.equal(problems[0].setting, 'mcpHost');
    assert.match(problems[0].message, /expected an object/);
  });
});
