import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { JsoncDocument } from '../../../../src/core/sources/jsoncDocument';
import { mapVscodeMcpJson } from '../../../../src/core/sources/vscodeMcpJson';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

const CTX = { workspaceFolder: '/work/project', env: {}, homeDir: '/home/ada' };

function map(text: string, ctx = CTX) {
  const parsed = JsoncDocument.parse('.vscode/mcp.json', text);
  if ('error' in parsed) throw new Error(parsed.error.message);
  const r = mapVscodeMcpJson(parsed.doc, '.vscode/mcp.json', ctx);
  return { ...r, byName: Object.fromEntries(r.servers.map((s) => [s.name, s.definition])), text: r.problems.map(formatProblem) };
}

describe('vscodeMcpJson: VS Code mcp.json mapped to mcpHost.servers', () => {
  it('maps stdio, http and sse servers with inputs, envFile, cwd and the resolver variables', () => {
    const r = map(`{
  // comments and trailing commas, like VS Code accepts
  "inputs": [
    { "type": "promptString", "id": "github-token", "description": "GitHub token", "password": true },
    { "type": "pickString", "id": "region", "description": "Region", "options": ["eu", "us"], "default": "eu" },
  ],
  "servers": {
    "github": {
      "type": "http",
      "url": "https://api.example.com/mcp",
      "headers": { "Authorization": "Bearer \${input:github-token}" }
    },
    "events": { "type": "sse", "url": "http://127.0.0.1:3001/sse" },
    "files": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}", "\${userHome}\${/}notes"],
      "env": { "REGION": "\${input:region}", "PORT": 8080, "HOME_NAME": "\${workspaceFolderBasename}", "PATH_SEP": "\${pathSeparator}" },
      "envFile": "\${workspaceFolder}/.env",
    },
    "tools": { "type": "stdio", "command": "uvx", "args": ["tools-server"], "cwd": "sub" },
  },
}`);
    assert.deepEqual(r.text, []);
    assert.deepEqual(r.byName.github, { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${secret:github-token}' } });
    assert.deepEqual(r.byName.events, { type: 'sse', url: 'http://127.0.0.1:3001/sse' });
    assert.deepEqual(r.byName.files, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}', `/home/ada${path.sep}notes`],
      env: { REGION: '${secret:region}', PORT: '8080', HOME_NAME: 'project', PATH_SEP: path.sep },
      envFile: '${workspaceFolder}/.env',
      // VS Code starts a workspace's servers in the workspace folder.
      cwd: '${workspaceFolder}',
    });
    assert.deepEqual(r.byName.tools, { type: 'stdio', command: 'uvx', args: ['tools-server'], cwd: 'sub' });
    assert.deepEqual(
      r.inputs.map((i) => [i.id, i.password, i.description, i.options, i.default]),
      [
        ['github-token', true, 'GitHub token', undefined, undefined],
        ['region', false, 'Region', ['eu', 'us'], 'eu'],
      ],
    );
    assert.deepEqual(r.servers.map((s) => [s.name, s.location.line]), [['github', 8], ['events', 13], ['files', 14], ['tools', 20]]);
  });

  it('ignores dev with a warning, reports sandbox as unsupported, drops null env values with a warning', () => {
    const r = map(`{
  "servers": {
    "dev": { "command": "node", "args": ["server.js"], "dev": { "watch": "src/**/*.ts", "debug": { "type": "node" } }, "env": { "A": null, "B": "b" } },
    "boxed": { "command": "node", "sandboxEnabled": true, "gallery": "https://example.com", "version": "1.0.0" }
  }
}`);
    assert.deepEqual(Object.keys(r.byName), ['dev', 'boxed']);
    assert.deepEqual(r.byName.dev.env, { B: 'b' });
    assert.deepEqual(r.text, [
      '.vscode/mcp.json:3:56: servers.dev.dev: development mode ("dev": watch and debug) is not supported by MCP Host and is ignored; the server runs normally',
      '.vscode/mcp.json:3:129: servers.dev.env.A: null (remove the variable) is not supported by MCP Host; "A" is left as inherited',
      '.vscode/mcp.json:4:35: servers.boxed.sandboxEnabled: sandboxing is not supported by MCP Host: this server would run without a sandbox',
    ]);
    assert.ok(r.problems.every((p) => p.severity === 'warning'));
  });

  it('a server it cannot map is not imported, with the exact place; the others are', () => {
    const r = map(`{
  "inputs": [{ "type": "command", "id": "picked", "command": "ext.pick" }],
  "servers": {
    "undeclared": { "command": "node", "args": ["\${input:nope}"] },
    "fromCommand": { "command": "node", "env": { "X": "\${input:picked}" } },
    "config": { "command": "\${config:python.path}" },
    "noCommand": { "args": [] },
    "badType": { "type": "websocket", "url": "ws://x" },
    "with/slash": { "command": "node" },
    "ok": { "command": "node" }
  }
}`);
    assert.deepEqual(Object.keys(r.byName), ['ok']);
    assert.deepEqual(r.text, [
      '.vscode/mcp.json:4:49: servers.undeclared.args[0]: ${input:nope} names no input declared under "inputs"; server "undeclared" is not imported',
      '.vscode/mcp.json:5:50: servers.fromCommand.env.X: input "picked" runs a command, which MCP Host cannot do; server "fromCommand" is not imported',
      '.vscode/mcp.json:6:17: servers.config.command: variable ${config:python.path} is not supported by MCP Host (supported: ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome}, ${pathSeparator}, ${env:NAME}, ${input:ID}); server "config" is not imported',
      '.vscode/mcp.json:7:5: servers.noCommand.command: missing: "command" (a non-empty string); server "noCommand" is not imported',
      '.vscode/mcp.json:8:18: servers.badType.type: expected "stdio", "http" or "sse", got string "websocket"; server "badType" is not imported',
      '.vscode/mcp.json:9:5: servers["with/slash"]: MCP Host cannot use a server name with "/" (tool patterns are "server/tool"); server "with/slash" is not imported',
    ]);
    assert.ok(r.problems.every((p) => p.severity === 'error'));
    assert.deepEqual(r.problems.map((p) => p.server), ['undeclared', 'fromCommand', 'config', 'noCommand', 'badType', 'with/slash']);
  });

  it('a url without type is http; without an open folder nothing defaults to ${workspaceFolder}', () => {
    const r = map('{ "servers": { "remote": { "url": "https://example.com/mcp" }, "local": { "command": "node" } } }', { env: {}, homeDir: '/h' } as typeof CTX);
    assert.deepEqual(r.byName, { remote: { type: 'http', url: 'https://example.com/mcp' }, local: { type: 'stdio', command: 'node' } });
  });
});
