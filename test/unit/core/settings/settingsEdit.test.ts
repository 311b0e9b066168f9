import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { withSettingSet } from '../../../../src/core/settings/settingsEdit';

const SERVER = { command: 'npx', args: ['-y', 'pkg@1.0.0'] };

describe('withSettingSet: one setting changed, the rest of the file as it was', () => {
  it('adds a server under mcpHost.servers, keeping comments, order, other keys and their formatting byte for byte', () => {
    const text = [
      '// Team settings',
      '{',
      '    "editor.tabSize": 4, // ours',
      '    "mcpHost.servers": {',
      '        // the knowledge graph',
      '        "memory": { "command": "node", "args": ["m.js"] }',
      '    },',
      '    "mcpHost.activeRole": "support"',
      '}',
      '',
    ].join('\n');
    const out = withSettingSet(text, ['mcpHost.servers', 'filesystem'], SERVER);
    assert.deepEqual(parse(out)['mcpHost.servers'], { memory: { command: 'node', args: ['m.js'] }, filesystem: SERVER });
    // Every line of the original is still there, in order, unchanged.
    const lines = out.split('\n');
    let at = 0;
    for (const line of text.split('\n').filter((l) => l !== '')) {
      const i = lines.indexOf(line.endsWith('}') && line.startsWith('        "memory"') ? line + ',' : line, at);
      assert.ok(i >= at, `line kept: ${line}\n---\n${out}`);
      at = i;
    }
    assert.match(out, /\n {8}"filesystem": \{\n {12}"command": "npx",/, 'indented like the file (4 spaces)');
  });

  it('creates the key when absent, keeps tabs and CRLF line ends', () => {
    const text = '{\r\n\t"editor.tabSize": 4\r\n}\r\n';
    const out = withSettingSet(text, ['mcpHost.servers', 'filesystem'], SERVER);
    assert.deepEqual(parse(out), { 'editor.tabSize': 4, 'mcpHost.servers': { filesystem: SERVER } });
    assert.ok(!/[^\r]\n/.test(out), 'only CRLF line ends');
    assert.match(out, /\r\n\t"mcpHost.servers": \{\r\n\t\t"filesystem"/);
    assert.ok(out.startsWith('{\r\n\t"editor.tabSize": 4,\r\n'));
  });

  it('an empty file becomes an object with the setting', () => {
    assert.deepEqual(parse(withSettingSet('', ['mcpHost.servers', 'filesystem'], SERVER)), { 'mcpHost.servers': { filesystem: SERVER } });
  });

  it('refuses text that does not parse, naming line and column, and a file that is not an object', () => {
    assert.throws(() => withSettingSet('{\n  "a": 1\n  "b": 2\n}', ['x'], 1), /does not parse at line 3, column 3: comma expected/);
    assert.throws(() => withSettingSet('[1]', ['x'], 1), /does not hold a JSON object/);
  });
});
