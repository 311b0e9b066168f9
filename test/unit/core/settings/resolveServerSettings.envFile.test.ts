import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { envSecretResolver, resolveServerSettings, resolveStrings } from '../../../../src/core/settings/resolveServerSettings';

describe('resolveServerSettings: envFile', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-envfile-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const server = (envFile: string, env: Record<string, string> = {}): StdioServerSettings => ({ name: 's', type: 'stdio', enabled: true, connectTimeoutMs: 1000, command: 'node', args: [], env, envFile });
  const ctx = (workspaceFolder?: string) => ({ workspaceFolder, env: { SUB: 'sub' }, secrets: envSecretResolver({ MCP_HOST_SECRET_TOKEN: 'tok' }) });

  it('reads a dotenv file (relative to the workspace folder, variables substituted); env wins over it', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', '.env'), '# comment\nA=from-file\nB="quoted value"\nexport C=3\n');
    const r = await resolveServerSettings(server('${env:SUB}/.env', { A: 'from-env', D: '${secret:TOKEN}' }), ctx(dir));
    assert.ok(r.ok);
    assert.deepEqual((r.server as StdioServerSettings).env, { A: 'from-env', B: 'quoted value', C: '3', D: 'tok' });
  });

  it('a missing file or a relative path without a folder fails that server with the setting path', async () => {
    const missing = await resolveServerSettings(server('nope.env'), ctx(dir));
    assert.ok(!missing.ok);
    assert.match(missing.error, /envFile ".*nope\.env" cannot be read: ENOENT.*\(mcpHost\.servers\.s\.envFile\)/);
    const noFolder = await resolveServerSettings(server('.env'), ctx());
    assert.ok(!noFolder.ok);
    assert.match(noFolder.error, /a relative envFile needs an open workspace folder/);
  });

  it('resolveStrings resolves a few values like a server\'s and never shows a secret in an error', async () => {
    const ok = await resolveStrings({ Authorization: 'Bearer ${secret:TOKEN}' }, ['telemetry', 'headers'], ctx(dir));
    assert.deepEqual(ok, { ok: true, values: { Authorization: 'Bearer tok' }, secretValues: ['tok'] });
    const bad = await resolveStrings({ X: '${secret:MISSING}' }, ['telemetry', 'headers'], ctx(dir));
    assert.deepEqual(bad, { ok: false, error: 'secret "MISSING" is not set (mcpHost.telemetry.headers.X)' });
  });
});
