'use strict';
/*
 * MCP Host offered to the editor's own MCP support (vscode.lm.registerMcpServerDefinitionProvider),
 * inside the extension host of a real VS Code 1.139.1. The editor's MCP client is the one under
 * test here: it connects to the gateway with the definition's Authorization header, lists the tools
 * in vscode.lm.tools and calls them through vscode.lm.invokeTool. Effects are read from the fixture's
 * log (did the server get the call), the audit file (did the router record it, and for whom) and the
 * output channel's log file.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');
const { hostApi, mark, outputChannelLog, waitFor, workspaceFolder } = require('../../extension/helpers');

/** The role's tools as the gateway exposes them. */
const ROLE_TOOLS = ['basic__add', 'basic__echo', 'basic__noop'];

/** The editor's tools that come from the gateway, by the exposed name they end with (the editor prefixes its own). */
function gatewayTools() {
  return vscode.lm.tools.filter((t) => (t.tags || []).includes('mcp') && /basic__|slow__/.test(t.name));
}

function exposedName(tool) {
  return /((?:basic|slow)__\w+)$/.exec(tool.name)[1];
}

/** The editor's MCP servers start lazily (on a chat request); a test starts them itself, waiting for their tools. */
async function startEditorServers() {
  await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
}

function userSettingsFile() {
  return path.join(process.env.MCP_HOST_TEST_TMP, 'user-data', 'User', 'settings.json');
}

describe('the gateway for the editor\'s own agent', function () {
  this.timeout(90000);
  let api;
  let host;

  before(async () => {
    ({ api, host } = await hostApi());
    await api.controller.whenRoleReady();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', undefined, vscode.ConfigurationTarget.Global);
  });

  it('is off until a person turns it on: the provider offers the editor nothing', async () => {
    assert.strictEqual(vscode.workspace.getConfiguration('mcpHost').get('gateway.enabled'), false);
    assert.deepStrictEqual(api.gateway.provideMcpServerDefinitions(), []);
    assert.strictEqual(api.gateway.status.kind, 'off');
    await startEditorServers();
    assert.deepStrictEqual(gatewayTools().map((t) => t.name), []);
  });

  it('the walkthrough\'s command turns it on: one HTTP definition on 127.0.0.1 whose bearer token is written to no settings file', async () => {
    await vscode.commands.executeCommand('mcpHost.enableGateway');
    await waitFor('the gateway listening', () => api.gateway.status.kind === 'listening', { timeout: 15000 });
    assert.strictEqual(vscode.workspace.getConfiguration('mcpHost').inspect('gateway.enabled').globalValue, true);
    const defs = api.gateway.provideMcpServerDefinitions();
    assert.strictEqual(defs.length, 1);
    const [def] = defs;
    assert.ok(def instanceof vscode.McpHttpServerDefinition);
    assert.strictEqual(def.label, 'MCP Host');
    assert.strictEqual(def.uri.scheme, 'http');
    assert.match(def.uri.authority, /^127\.0\.0\.1:\d+$/);
    const m = /^Bearer (\S{32,})$/.exec(def.headers.Authorization);
    assert.ok(m, `Authorization header: ${def.headers.Authorization}`);
    const token = m[1];
    for (const file of [userSettingsFile(), path.join(workspaceFolder(), '.vscode', 'settings.json')]) {
      assert.ok(!fs.readFileSync(file, 'utf8').includes(token), `the token is in ${file}`);
    }
    // No token, no access; the right one is let in.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } } };
    const post = (headers) =>
      fetch(def.uri.toString(true), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });
    assert.strictEqual((await post({})).status, 401);
    assert.strictEqual((await post({ authorization: 'Bearer not-the-token' })).status, 401);
  });

  it('the editor\'s MCP client lists exactly the role\'s tools in vscode.lm.tools (no out-of-role server or tool)', async () => {
    await waitFor(
      'the gateway\'s tools in vscode.lm.tools',
      async () => {
        await startEditorServers();
        return gatewayTools().length >= ROLE_TOOLS.length;
      },
      { timeout: 45000, interval: 1000, describe: () => JSON.stringify(vscode.lm.tools.map((t) => t.name)) },
    );
    assert.deepStrictEqual(gatewayTools().map(exposedName).sort(), ROLE_TOOLS);
    const snapshot = host.snapshot();
    assert.deepStrictEqual(
      snapshot.tools('basic').filter((t) => t.visible).map((t) => t.exposedName).sort(),
      ROLE_TOOLS,
      'the role view the host shows @mcp',
    );
  });

  it('vscode.lm.invokeTool on an auto-approved tool runs through the router: the server gets it, the audit names the editor as upstream client', async () => {
    const echo = gatewayTools().find((t) => exposedName(t) === 'basic__echo');
    const m = mark();
    const result = await vscode.lm.invokeTool(echo.name, { input: { text: 'from the editor agent' }, toolInvocationToken: undefined });
    const text = result.content.map((p) => p.value).join('');
    assert.match(text, /echo: from the editor agent/);
    const calls = m.since().fixture.filter((l) => l.event === 'call' && l.tool === 'echo');
    assert.strictEqual(calls.length, 1, JSON.stringify(m.since().fixture));
    assert.deepStrictEqual(calls[0].args, { text: 'from the editor agent' });
    const records = await waitFor('the audit record', () => {
      const r = m.since().audit.filter((a) => a.kind === 'call');
      return r.length ? r : undefined;
    });
    assert.strictEqual(records.length, 1);
    const [rec] = records;
    assert.strictEqual(rec.server, 'basic');
    assert.strictEqual(rec.tool, 'echo');
    assert.strictEqual(rec.role, 'gateway');
    assert.strictEqual(rec.outcome, 'ok');
    assert.strictEqual(rec.actor.kind, 'upstream');
    assert.strictEqual(rec.actor.transport, 'http');
    assert.ok(rec.actor.client && rec.actor.client !== 'unknown', `client: ${JSON.stringify(rec.actor)}`);
  });

  it('a tool that needs confirmation asks in MCP Host\'s dialog; unanswered (test mode refuses dialogs) it is denied before the server', async () => {
    const add = gatewayTools().find((t) => exposedName(t) === 'basic__add');
    const m = mark();
    const result = await vscode.lm.invokeTool(add.name, { input: { a: 2, b: 3 }, toolInvocationToken: undefined });
    const text = result.content.map((p) => p.value).join('');
    extLog('the editor got: %s', text);
    assert.deepStrictEqual(m.since().fixture.filter((l) => l.event === 'call'), []);
    const [rec, ...more] = await waitFor('the audit record', () => {
      const r = m.since().audit.filter((a) => a.kind === 'call');
      return r.length ? r : undefined;
    });
    assert.deepStrictEqual(more, []);
    assert.strictEqual(rec.tool, 'add');
    assert.strictEqual(rec.outcome, 'denied');
    assert.strictEqual(rec.confirmedBy, null);
    assert.strictEqual(rec.actor.kind, 'upstream');
    assert.match(text, /denied|not confirmed|declined/i);
  });

  it('the Servers view\'s gateway row lists the editor as a connected client; the output channel logged it', async () => {
    const status = api.gateway.status;
    assert.strictEqual(status.kind, 'listening');
    const editor = status.clients.find((c) => c.transport === 'http' && c.calls >= 1);
    assert.ok(editor, JSON.stringify(status.clients));
    await waitFor('the connect line in the output channel', () => new RegExp(`gateway: "${editor.name}".* \\(http\\) connected`).test(outputChannelLog()), { timeout: 10000 });
  });

  it('switching the role changes the definition\'s version and what the editor lists', async () => {
    const before = api.gateway.provideMcpServerDefinitions()[0].version;
    let fired = 0;
    const sub = api.gateway.onDidChangeMcpServerDefinitions(() => fired++);
    try {
      await api.controller.switchRole('narrow');
      await waitFor('onDidChangeMcpServerDefinitions', () => fired > 0, { timeout: 10000 });
    } finally {
      sub.dispose();
    }
    assert.notStrictEqual(api.gateway.provideMcpServerDefinitions()[0].version, before);
    await waitFor(
      'the narrow role\'s tools in vscode.lm.tools',
      async () => {
        await startEditorServers();
        return JSON.stringify(gatewayTools().map(exposedName).sort()) === JSON.stringify(['basic__noop']);
      },
      { timeout: 45000, interval: 1000, describe: () => JSON.stringify(gatewayTools().map((t) => t.name)) },
    );
    await api.controller.switchRole('gateway');
  });

  it('turning it off withdraws the definition and stops listening', async () => {
    const [def] = api.gateway.provideMcpServerDefinitions();
    await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', false, vscode.ConfigurationTarget.Global);
    await waitFor('the gateway off', () => api.gateway.status.kind === 'off', { timeout: 10000 });
    assert.deepStrictEqual(api.gateway.provideMcpServerDefinitions(), []);
    await assert.rejects(fetch(def.uri.toString(true), { method: 'POST', headers: def.headers, body: '{}' }));
  });
});

