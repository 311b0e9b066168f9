import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { RemoteServerSettings, ServerSettings, StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import {
  type ResolvedServer,
  type ResolvedSettings,
  type SecretResolver,
  type VariableContext,
  envSecretResolver,
  resolveServerSettings,
} from '../../../../src/core/settings/resolveServerSettings';

const WS = path.resolve('/work/space');
const TOKEN = 'tok-3f9a1c77e2b4d0aa';

function secrets(values: Record<string, string>): SecretResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async get(name) {
      asked.push(name);
      return values[name];
    },
  };
}

function ctx(over: Partial<VariableContext> = {}): VariableContext {
  return {
    workspaceFolder: WS,
    env: { HOME: '/home/u', DB_URL: 'postgres://db/orders', EMPTY: '' },
    secrets: secrets({ KB_TOKEN: TOKEN }),
    ...over,
  };
}

function server(name: string, def: Record<string, unknown>): ServerSettings {
  const { settings, problems } = parseSettings({ servers: { [name]: def } });
  assert.deepEqual(problems, []);
  return settings.servers[0];
}

function ok(r: ResolvedServer): ResolvedSettings {
  if (!r.ok) assert.fail(`expected success, got: ${r.error}`);
  return r;
}

function failed(r: ResolvedServer): { error: string; setting?: string } {
  if (r.ok) assert.fail('expected a failure');
  return r;
}

describe('resolveServerSettings', () => {
  it('resolves ${workspaceFolder} in command, args and cwd', async () => {
    const s = server('orders', {
      command: '${workspaceFolder}/bin/server',
      args: ['--root', '${workspaceFolder}', 'x${workspaceFolder}y'],
      cwd: '${workspaceFolder}/servers',
    });
    const r = ok(await resolveServerSettings(s, ctx()));
    const st = r.server as StdioServerSettings;
    assert.equal(st.command, `${WS}/bin/server`);
    assert.deepEqual(st.args, ['--root', WS, `x${WS}y`]);
    assert.equal(st.cwd, `${WS}/servers`);
    assert.deepEqual(r.secretValues, []);
    assert.equal((s as StdioServerSettings).command, '${workspaceFolder}/bin/server', 'the input is not modified');
  });

  it('resolves ${env:NAME} in args and env values (an empty value is allowed)', async () => {
    const s = server('orders', { command: 'node', args: ['${env:HOME}/x'], env: { DATABASE_URL: '${env:DB_URL}', E: '[${env:EMPTY}]' } });
    const st = ok(await resolveServerSettings(s, ctx())).server as StdioServerSettings;
    assert.deepEqual(st.args, ['/home/u/x']);
    assert.deepEqual(st.env, { DATABASE_URL: 'postgres://db/orders', E: '[]' });
  });

  it('resolves ${secret:NAME} in headers and returns the secret values', async () => {
    const sec = secrets({ KB_TOKEN: TOKEN });
    const s = server('kb', {
      type: 'http',
      url: 'https://kb.example.com/mcp',
      headers: { Authorization: 'Bearer ${secret:KB_TOKEN}', 'X-Again': '${secret:KB_TOKEN}' },
    });
    const r = ok(await resolveServerSettings(s, ctx({ secrets: sec })));
    const remote = r.server as RemoteServerSettings;
    assert.deepEqual(remote.headers, { Authorization: `Bearer ${TOKEN}`, 'X-Again': TOKEN });
    assert.deepEqual(r.secretValues, [TOKEN]);
    assert.deepEqual(sec.asked, ['KB_TOKEN'], 'each secret is read once');
  });

  it('resolves variables in the url and checks it afterwards', async () => {
    const s = server('kb', { type: 'sse', url: '${env:BASE}/sse' });
    const good = ok(await resolveServerSettings(s, ctx({ env: { BASE: 'http://127.0.0.1:9000' } })));
    assert.equal((good.server as RemoteServerSettings).url, 'http://127.0.0.1:9000/sse');

    const bad = failed(await resolveServerSettings(s, ctx({ env: { BASE: 'localhost:9000' } })));
    assert.equal(bad.setting, 'mcpHost.servers.kb.url');
    assert.match(bad.error, /http:\/\/ or https:\/\/ URL after substituting variables, got "\$\{env:BASE\}\/sse"/);
    assert.ok(!bad.error.includes('localhost:9000'), 'the value of ${env:BASE} is not shown');
  });

  it('keeps each ${env:NAME} of command, args, cwd and url as written in `shown`, with its value in `shownVariables` only', async () => {
    const stdio = server('db', { command: '${env:HOME}/bin/db', args: ['--key=${ env:DB_URL }', '${workspaceFolder}/x'], cwd: '${env:HOME}', env: { T: '${env:EMPTY}' } });
    const r = ok(await resolveServerSettings(stdio, ctx()));
    const run = r.server as StdioServerSettings;
    const shown = r.shown as StdioServerSettings;
    assert.deepEqual([run.command, run.args, run.cwd], ['/home/u/bin/db', ['--key=postgres://db/orders', `${WS}/x`], '/home/u']);
    assert.deepEqual([shown.command, shown.args, shown.cwd], ['${env:HOME}/bin/db', ['--key=${env:DB_URL}', `${WS}/x`], '${env:HOME}']);
    assert.deepEqual(r.shownVariables, { HOME: '/home/u', DB_URL: 'postgres://db/orders' }, 'env values of the env block are not part of the identity');

    const relative = ok(await resolveServerSettings(server('rel', { command: 'node', cwd: 'sub/${env:EMPTY}' }), ctx()));
    assert.equal((relative.shown as StdioServerSettings).cwd, path.join(WS, 'sub/${env:EMPTY}'));

    const remote = ok(await resolveServerSettings(server('kb', { type: 'http', url: 'http://127.0.0.1/mcp?key=${env:DB_URL}' }), ctx()));
    assert.equal((remote.shown as RemoteServerSettings).url, 'http://127.0.0.1/mcp?key=${env:DB_URL}');
    assert.deepEqual(remote.shownVariables, { DB_URL: 'postgres://db/orders' });
  });

  it('does not show a url that carries a secret when it is invalid', async () => {
    const s = server('kb', { type: 'http', url: 'kb.example.com/?key=${secret:KB_TOKEN}' });
    const bad = failed(await resolveServerSettings(s, ctx()));
    assert.equal(bad.setting, 'mcpHost.servers.kb.url');
    assert.ok(!bad.error.includes(TOKEN), bad.error);
    assert.ok(!bad.error.includes('kb.example.com'), bad.error);
  });

  it('fails on an unknown variable, naming the setting and the variable', async () => {
    for (const [value, fragment] of [
      ['${foo}', 'unknown variable "${foo}"'],
      ['${workspaceRoot}/x', 'unknown variable "${workspaceRoot}"'],
      ['${config:a.b}', 'unknown variable "${config:a.b}"'],
      ['${env:}', 'variable "${env:}" needs a name'],
      ['${secret:}', 'variable "${secret:}" needs a name'],
    ]) {
      const r = failed(await resolveServerSettings(server('orders', { command: 'node', args: ['ok', value] }), ctx()));
      assert.equal(r.setting, 'mcpHost.servers.orders.args[1]', value);
      assert.ok(r.error.includes(fragment), `${r.error} should contain ${fragment}`);
      assert.ok(r.error.includes('(mcpHost.servers.orders.args[1])'), r.error);
    }
  });

  it('fails when an environment variable is not set', async () => {
    const r = failed(await resolveServerSettings(server('orders', { command: 'node', env: { X: '${env:NOPE_NOT_SET}' } }), ctx()));
    assert.equal(r.setting, 'mcpHost.servers.orders.env.X');
    assert.equal(r.error, 'environment variable "NOPE_NOT_SET" is not set (mcpHost.servers.orders.env.X)');
  });

  it('fails on a missing secret without ever showing a secret value', async () => {
    const s = server('kb', {
      type: 'http',
      url: 'https://kb.example.com/mcp?t=${secret:KB_TOKEN}',
      headers: { Authorization: 'Bearer ${secret:KB_TOKEN}', 'X-Other': '${secret:OTHER}' },
    });
    const r = failed(await resolveServerSettings(s, ctx()));
    assert.equal(r.setting, 'mcpHost.servers.kb.headers.X-Other');
    assert.equal(r.error, 'secret "OTHER" is not set (mcpHost.servers.kb.headers.X-Other)');
    assert.ok(!r.error.includes(TOKEN));
    assert.ok(!JSON.stringify(r).includes(TOKEN));
  });

  it('redacts secret values even from the error of a failing secret store', async () => {
    const store: SecretResolver = {
      async get(name) {
        if (name === 'GOOD') return TOKEN;
        throw new Error(`store broke while holding ${TOKEN}`);
      },
    };
    const s = server('kb', { type: 'http', url: 'https://x/mcp', headers: { A: '${secret:GOOD}', B: '${secret:BAD}' } });
    const r = failed(await resolveServerSettings(s, ctx({ secrets: store })));
    assert.match(r.error, /secret "BAD" could not be read/);
    assert.ok(!r.error.includes(TOKEN), r.error);
    assert.ok(r.error.includes('[secret]'));
  });

  it('reports every problem of the server, the first one as the setting', async () => {
    const s = server('orders', { command: '${nope}', args: ['${env:ALSO_NOT_SET}'] });
    const r = failed(await resolveServerSettings(s, ctx()));
    assert.equal(r.setting, 'mcpHost.servers.orders.command');
    assert.match(r.error, /unknown variable "\$\{nope\}".*; environment variable "ALSO_NOT_SET" is not set/);
  });

  it('fails on ${workspaceFolder} without an open folder', async () => {
    const r = failed(await resolveServerSettings(server('orders', { command: '${workspaceFolder}/s' }), ctx({ workspaceFolder: undefined })));
    assert.equal(r.setting, 'mcpHost.servers.orders.command');
    assert.match(r.error, /no workspace folder is open/);
  });

  it('roots: variables resolved, a relative folder against the workspace folder; false and unset kept; bad input named at its path', async () => {
    const s = server('files', { command: 'node', roots: ['${workspaceFolder}/files', 'docs', '/srv/shared/'] });
    assert.deepEqual(ok(await resolveServerSettings(s, ctx())).server.roots, [path.join(WS, 'files'), path.join(WS, 'docs'), '/srv/shared/']);
    assert.equal(ok(await resolveServerSettings(server('off', { command: 'node', roots: false }), ctx())).server.roots, false);
    assert.equal(ok(await resolveServerSettings(server('dflt', { command: 'node' }), ctx())).server.roots, undefined);

    const r = failed(await resolveServerSettings(s, ctx({ workspaceFolder: undefined })));
    assert.equal(r.setting, 'mcpHost.servers.files.roots[0]');
    assert.match(r.error, /no workspace folder is open \(mcpHost\.servers\.files\.roots\[0\]\); a relative root needs an open workspace folder to resolve against \(mcpHost\.servers\.files\.roots\[1\]\)/);

    const { problems } = parseSettings({ servers: { a: { command: 'node', roots: 'files' }, b: { command: 'node', roots: ['ok', ''] }, c: { command: 'node', roots: true } } });
    assert.deepEqual(
      problems.map((p) => [p.setting, p.message]),
      [
        ['mcpHost.servers.a.roots', 'expected false or an array of folders, got string "files"; server "a" is not loaded'],
        ['mcpHost.servers.b.roots[1]', 'expected a non-empty string, got string ""; server "b" is not loaded'],
        ['mcpHost.servers.c.roots', 'expected false or an array of folders, got boolean true; server "c" is not loaded'],
      ],
    );
  });

  it('resolves a relative cwd against the workspace folder, and fails without one', async () => {
    const s = server('shipping', { command: 'node', cwd: 'servers/shipping' });
    const st = ok(await resolveServerSettings(s, ctx())).server as StdioServerSettings;
    assert.equal(st.cwd, path.join(WS, 'servers', 'shipping'));

    const abs = ok(await resolveServerSettings(server('s', { command: 'node', cwd: '/opt/s' }), ctx())).server as StdioServerSettings;
    assert.equal(abs.cwd, '/opt/s');

    const r = failed(await resolveServerSettings(s, ctx({ workspaceFolder: undefined })));
    assert.equal(r.setting, 'mcpHost.servers.shipping.cwd');
    assert.match(r.error, /relative cwd needs an open workspace folder/);
  });

  it('leaves strings without variables (and "$" alone) untouched', async () => {
    const s = server('x', { command: 'sh', args: ['-c', 'echo $HOME ${ and $${env:HOME}'] });
    const st = ok(await resolveServerSettings(s, ctx())).server as StdioServerSettings;
    assert.deepEqual(st.args, ['-c', 'echo $HOME ${ and $/home/u']);
  });
});

describe('envSecretResolver', () => {
  it('reads MCP_HOST_SECRET_<NAME>, then the upper-cased name', async () => {
    const r = envSecretResolver({ MCP_HOST_SECRET_KB_TOKEN: 'a', MCP_HOST_SECRET_GITHUB_TOKEN: 'b', MCP_HOST_SECRET_EMPTY: '' });
    assert.equal(await r.get('KB_TOKEN'), 'a');
    assert.equal(await r.get('github-token'), 'b');
    assert.equal(await r.get('EMPTY'), undefined);
    assert.equal(await r.get('MISSING'), undefined);
  });

  it('feeds resolveServerSettings', async () => {
    const s = server('kb', { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer ${secret:KB_TOKEN}' } });
    const r = ok(await resolveServerSettings(s, { env: {}, secrets: envSecretResolver({ MCP_HOST_SECRET_KB_TOKEN: TOKEN }) }));
    assert.equal((r.server as RemoteServerSettings).headers.Authorization, `Bearer ${TOKEN}`);
  });
});
