import * as assert from 'node:assert/strict';
import { dotMcpVariables, mapDotMcpJson } from '../../../../src/core/sources/dotMcpJson';
import { JsoncDocument } from '../../../../src/core/sources/jsoncDocument';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

const ENV = { API_KEY: 'k-123', EMPTY: '', HOST: 'mcp.example.com' };

function map(text: string, env: Record<string, string> = ENV) {
  const parsed = JsoncDocument.parse('.mcp.json', text);
  if ('error' in parsed) throw new Error(parsed.error.message);
  const r = mapDotMcpJson(parsed.doc, '.mcp.json', { workspaceFolder: '/work/p', env, homeDir: '/h' });
  return { ...r, byName: Object.fromEntries(r.servers.map((s) => [s.name, s.definition])), text: r.problems.map(formatProblem) };
}

describe('dotMcpJson: the .mcp.json mcpServers format mapped to mcpHost.servers', () => {
  it('${VAR} becomes ${env:VAR}; ${VAR:-default} is the variable when set and not empty, else the default; $VAR stays literal', () => {
    const t = dotMcpVariables(ENV);
    assert.deepEqual(t('Bearer ${API_KEY}'), { value: 'Bearer ${env:API_KEY}' });
    assert.deepEqual(t('https://${HOST:-localhost}/mcp'), { value: 'https://${env:HOST}/mcp' });
    assert.deepEqual(t('${PORT:-8080}'), { value: '8080' });
    assert.deepEqual(t('${EMPTY:-fallback}'), { value: 'fallback' });
    assert.deepEqual(t('${EMPTY}'), { value: '${env:EMPTY}' });
    assert.deepEqual(t('cost: $5, $API_KEY'), { value: 'cost: $5, $API_KEY' });
    assert.match((t('${MISSING}') as { error: string }).error, /environment variable "MISSING" is not set and \$\{MISSING\} has no default/);
    assert.match((t('${A:-${B}}') as { error: string }).error, /the default of \$\{A:-\$\{B\} uses a variable/);
    assert.match((t('${env:API_KEY}') as { error: string }).error, /not a variable MCP Host can expand/);
  });

  it('maps stdio and remote servers; type-less url is http; disabled keeps the server but does not start it', () => {
    const r = map(`{
  "mcpServers": {
    "db": { "command": "npx", "args": ["-y", "db-mcp", "--key", "\${API_KEY}"], "env": { "DB_URL": "\${DB_URL:-postgres://localhost/dev}" } },
    "remote": { "type": "http", "url": "https://\${HOST}/mcp", "headers": { "X-Key": "\${API_KEY}" } },
    "legacy": { "type": "sse", "url": "https://legacy.example.com/sse" },
    "typeless": { "url": "https://example.com/mcp" },
    "off": { "command": "node", "args": ["x.js"], "disabled": true }
  }
}`);
    assert.deepEqual(r.text, []);
    assert.deepEqual(r.byName, {
      db: { type: 'stdio', command: 'npx', args: ['-y', 'db-mcp', '--key', '${env:API_KEY}'], env: { DB_URL: 'postgres://localhost/dev' }, cwd: '${workspaceFolder}' },
      remote: { type: 'http', url: 'https://${env:HOST}/mcp', headers: { 'X-Key': '${env:API_KEY}' } },
      legacy: { type: 'sse', url: 'https://legacy.example.com/sse' },
      typeless: { type: 'http', url: 'https://example.com/mcp' },
      off: { type: 'stdio', command: 'node', args: ['x.js'], cwd: '${workspaceFolder}', enabled: false },
    });
  });

  it('reports Claude-only keys as ignored and unusable servers at their place', () => {
    const r = map(`{
  "mcpServers": {
    "helper": { "type": "http", "url": "https://x.example.com", "headersHelper": "get-token.sh", "timeout": 5000 },
    "unset": { "command": "node", "env": { "TOKEN": "\${NOT_SET}" } },
    "numbers": { "command": "node", "env": { "PORT": 8080 } }
  },
  "other": true
}`);
    assert.deepEqual(Object.keys(r.byName), ['helper']);
    assert.deepEqual(r.text, [
      '.mcp.json:7:3: other: unknown key (this format has "mcpServers"); ignored',
      '.mcp.json:3:65: mcpServers.helper.headersHelper: not used by MCP Host; ignored',
      '.mcp.json:3:98: mcpServers.helper.timeout: not used by MCP Host; ignored',
      '.mcp.json:4:44: mcpServers.unset.env.TOKEN: environment variable "NOT_SET" is not set and ${NOT_SET} has no default (${NOT_SET:-default}); server "unset" is not imported',
      '.mcp.json:5:46: mcpServers.numbers.env.PORT: expected a string, got number 8080; server "numbers" is not imported',
    ]);
  });
});
