import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';
import { loadHostSettings } from '../../../../src/core/sources/loadHostSettings';
import { fixturePath, readFixtureLog } from '../../../fixtures/fixtureServers';
import { mapSecrets, RecordingConfirmer, serverView, useTestEnv, waitFor } from '../helpers';

describe('loadHostSettings: mcpHost.* plus the servers of mcpHost.import', () => {
  const env = useTestEnv();
  const write = (rel: string, value: unknown) => {
    const file = path.join(env.dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return file;
  };
  const load = (raw: Record<string, unknown>, vars: Record<string, string> = {}) => loadHostSettings(raw, { workspaceFolder: env.dir, env: vars, homeDir: '/h' });

  it('mcpHost.servers wins a name clash (reported, unless it is the same server, as after a copy); imported servers keep their file', () => {
    write('.vscode/mcp.json', { servers: { same: { type: 'stdio', command: 'node', cwd: '${workspaceFolder}' }, clash: { command: 'imported' }, own: { type: 'http', url: 'https://x.example.com/mcp' } } });
    const r = load({ servers: { clash: { command: 'configured' }, same: { command: 'node', cwd: '${workspaceFolder}' } } });
    assert.deepEqual(
      r.settings.servers.map((s) => [s.name, s.type === 'stdio' ? s.command : s.url, s.source]),
      [
        ['clash', 'configured', undefined],
        ['same', 'node', undefined],
        ['own', 'https://x.example.com/mcp', '.vscode/mcp.json'],
      ],
    );
    assert.deepEqual(r.problems.map(formatProblem), ['.vscode/mcp.json:8:5: server "clash" is also defined in mcpHost.servers, which wins; the one in .vscode/mcp.json is not used']);
  });

  it('roles and patterns may name imported servers; a problem parseSettings finds in one points into its file', () => {
    write('.mcp.json', '{\n  "mcpServers": {\n    "db": { "command": "node", "args": ["db.js"] },\n    "web": { "type": "http", "url": "https://${HOST:-localhost}:99999/mcp" }\n  }\n}');
    const r = load({ roles: { ops: { servers: ['db'], tools: ['db/*'] } }, autoApprove: ['db/query'] });
    assert.deepEqual(r.settings.roles.map((x) => [x.name, x.servers]), [['ops', ['db']]]);
    assert.deepEqual(r.settings.servers.map((s) => s.name), ['db']);
    assert.deepEqual(
      r.problems.map((p) => [p.location?.file, p.location?.line, p.setting]),
      [['.mcp.json', 4, 'mcpHost.servers.web.url']],
    );
  });

  it('mcpHost.import picks the files; a bad value falls back to the default list', () => {
    write('.vscode/mcp.json', { servers: { a: { command: 'a' } } });
    write('tools/mcp.json', { mcpServers: { b: { command: 'b' } } });
    assert.deepEqual(load({ import: ['tools/mcp.json'] }).settings.servers.map((s) => s.name), ['b']);
    assert.deepEqual(load({ import: [] }).settings.servers, []);
    const bad = load({ import: 'tools/mcp.json' });
    assert.deepEqual(bad.settings.servers.map((s) => s.name), ['a']);
    assert.deepEqual(bad.problems.map(formatProblem), ['mcpHost.import: expected an array of file paths, got string "tools/mcp.json"; using the default [".vscode/mcp.json",".mcp.json"]']);
  });

  it('imported servers run like configured ones: ${input:ID} is a secret, envFile and env reach the process, .mcp.json defaults apply', async () => {
    const basicLog = env.file('basic.jsonl');
    const envFileLog = env.file('envfile.jsonl');
    const dynLog = env.file('dyn.jsonl');
    write('.env.basic', 'FIXTURE_LOG=/nonexistent/overridden-by-env.jsonl\n');
    write('.env.second', `# a dotenv file\nFIXTURE_LOG="${envFileLog}"\n`);
    write('.vscode/mcp.json', {
      inputs: [{ type: 'promptString', id: 'log-file', description: 'Where basic logs', password: true }],
      servers: {
        basic: { type: 'stdio', command: process.execPath, args: [fixturePath('basic')], env: { FIXTURE_LOG: '${input:log-file}' }, envFile: '${workspaceFolder}/.env.basic' },
        second: { command: process.execPath, args: [fixturePath('basic')], envFile: '.env.second' },
      },
    });
    write('.mcp.json', { mcpServers: { dyn: { command: '${NODE_FOR_TEST:-' + process.execPath + '}', args: [fixturePath('dynamic')], env: { FIXTURE_LOG: '${DYN_LOG}' } } } });
    const loaded = load({ autoApprove: ['basic/echo', 'dyn/*'], pinning: 'off' }, { DYN_LOG: dynLog });
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.imported.inputs.map((i) => [i.id, i.description, i.password]), [['log-file', 'Where basic logs', true]]);
    const confirmer = new RecordingConfirmer();
    const host = await env.started({ settings: loaded.settings, workspaceFolder: env.dir, env: { DYN_LOG: dynLog }, secrets: mapSecrets({ 'log-file': basicLog }), confirmer });
    for (const name of ['basic', 'second', 'dyn']) assert.equal(serverView(host, name)?.state.kind, 'connected', name);
    assert.deepEqual(host.snapshot().servers.map((s) => [s.name, s.settings.source]), [['basic', '.vscode/mcp.json'], ['second', '.vscode/mcp.json'], ['dyn', '.mcp.json']]);

    const r = await host.call({ name: 'basic__echo', args: { text: 'hi' } });
    assert.deepEqual([r.outcome, r.confirmedBy, r.modelText], ['ok', 'policy', 'echo: hi']);
    await waitFor('the call in the log named by the input secret', () => fs.existsSync(basicLog) && readFixtureLog(basicLog).some((l) => l.event === 'call'));
    assert.ok(readFixtureLog(envFileLog).some((l) => l.event === 'initialize'), 'envFile gave "second" its FIXTURE_LOG');
    assert.ok(readFixtureLog(dynLog).some((l) => l.event === 'initialize'), '${DYN_LOG} reached "dyn"');
    // The same policy as any server: not auto-approved → asked.
    const asked = await host.call({ name: 'basic__add', args: { a: 1, b: 2 } });
    assert.equal(asked.confirmedBy, 'user');
    assert.equal(confirmer.requests.length, 1);
  });
});
