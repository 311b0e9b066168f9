'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');
const h = require('../../extension/helpers');
const { descendants, commandLine } = require('../../lib/procfs');

const SERVERS = ['basic', 'slow', 'dynamic', 'paged', 'notools', 'catalog', 'everything'];
/** Configured for the roles "writer" and "budget" only: not wanted by the active role, so idle. */
const OTHER_SERVERS = ['files', 'crm', 'billing', 'support', 'devops'];

/** Live descendants of this extension host that are MCP servers of the test workspace. */
function serverProcesses() {
  return [...descendants(process.pid).keys()]
    .map((pid) => ({ pid, cmd: commandLine(pid) }))
    .filter((p) => /test\/fixtures\/servers\/|server-everything/.test(p.cmd));
}

describe('untrusted workspace (restricted mode)', () => {
  it('opens the workspace untrusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  it('activates MCP Host, which knows it is not trusted', async () => {
    const ext = await h.mcpHostExtension();
    assert.strictEqual(ext.isActive, true);
    const api = await h.hostApi();
    assert.ok(api, 'activate() returned no test API ({ controller } / { host })');
    assert.strictEqual(api.host.snapshot().trusted, false);
  });

  it('starts no server process: no child process, FIXTURE_LOG never written', async () => {
    // In a trusted run the fixtures answer initialize within about a second; give them three.
    await h.sleep(3000);
    const procs = serverProcesses();
    assert.deepStrictEqual(procs, [], `server processes running: ${JSON.stringify(procs)}`);
    assert.strictEqual(fs.existsSync(h.files.fixtureLog), false, `FIXTURE_LOG was written:\n${fs.existsSync(h.files.fixtureLog) ? fs.readFileSync(h.files.fixtureLog, 'utf8') : ''}`);
  });

  it('the tree\'s data says why: every configured server is "untrusted", no tool is offered', async () => {
    const { host } = await h.hostApi();
    const states = Object.fromEntries(host.snapshot().servers.map((s) => [s.name, s.state.kind]));
    extLog('    states: %j', states);
    // The workspace's servers are shown (read from .vscode/settings.json), never started.
    assert.deepStrictEqual(Object.keys(states), [...SERVERS, ...OTHER_SERVERS]);
    for (const s of SERVERS) assert.strictEqual(states[s], 'untrusted', `${s} is ${states[s]}`);
    for (const s of OTHER_SERVERS) assert.strictEqual(states[s], 'idle', `${s} is ${states[s]}`);
    assert.deepStrictEqual(host.snapshot().exposed, []);
  });

  it('asking to start or refresh does not start anything either', async () => {
    const { host } = await h.hostApi();
    await host.servers.startServer('basic');
    await vscode.commands.executeCommand('mcpHost.refreshAll');
    await vscode.commands.executeCommand('mcpHost.startServer', { kind: 'server', name: 'slow' });
    await h.sleep(1500);
    assert.strictEqual(host.snapshot().server('basic').state.kind, 'untrusted');
    assert.deepStrictEqual(serverProcesses(), []);
    assert.strictEqual(fs.existsSync(h.files.fixtureLog), false);
  });

  it('a tool call through the host is refused and reaches no server', async () => {
    const { host } = await h.hostApi();
    const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
    assert.notStrictEqual(r.outcome, 'ok');
    assert.strictEqual(fs.existsSync(h.files.fixtureLog), false);
  });
});
