'use strict';
const assert = require('assert');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');
const h = require('../helpers');

describe('start-up in a real VS Code', () => {
  it('opens the copied test workspace, trusted', () => {
    assert.strictEqual(h.workspaceFolder(), process.env.MCP_HOST_TEST_WORKSPACE);
    assert.strictEqual(vscode.workspace.isTrusted, true);
    assert.strictEqual(vscode.workspace.getConfiguration('mcpHost').get('activeRole'), 'full');
  });

  it('activates MCP Host and its chat participant', async () => {
    const ext = await h.mcpHostExtension();
    assert.strictEqual(ext.isActive, true);
    extLog('    %s %s, exports: %s', ext.id, ext.packageJSON.version, ext.exports === undefined ? 'undefined' : Object.keys(ext.exports).join(', '));
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['mcpHost.selectRole', 'mcpHost.refreshAll', 'mcpHost.openAuditLog', 'mcpHost.callTool']) {
      assert.ok(commands.includes(id), `command ${id} is not registered`);
    }
  });

  it('starts the stdio servers of the role (each fixture sees initialize)', async () => {
    const inits = await h.waitFor(
      'initialize at basic, slow, dynamic, paged and notools',
      () => {
        const lines = h.readJsonl(h.files.fixtureLog).filter((l) => l.event === 'initialize');
        return new Set(lines.map((l) => l.pid)).size >= 5 ? lines : undefined;
      },
      { timeout: 30000, describe: () => JSON.stringify(h.readJsonl(h.files.fixtureLog)) },
    );
    assert.strictEqual(inits[0].clientInfo && typeof inits[0].clientInfo.name, 'string');
  });

  it('offers the role\'s tools to the model on the first @mcp request, with model-safe unique names', async () => {
    // The first request after start-up can meet "Language model unavailable": retry a few times.
    let run;
    for (let attempt = 1; ; attempt++) {
      try {
        run = await h.chatRun({ query: '@mcp which tools do you have?', turns: [{ text: 'I have tools.' }], timeout: attempt < 3 ? 10000 : 30000 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        extLog('    (attempt %d: %s; retrying)', attempt, e.message.split('\n')[0]);
      }
    }
    const names = run.model[0].toolNames;
    extLog('    %d tools offered: %s', names.length, names.join(' '));
    for (const n of ['basic__echo', 'basic__add', 'basic__fail', 'basic__noop', 'slow__sleep', 'slow__quick', 'dynamic__alpha', 'dynamic__beta', 'dynamic__control', 'everything__echo', 'everything__get-sum']) {
      assert.ok(names.includes(n), `${n} not offered; offered: ${names.join(', ')}`);
    }
    // tools/list pages are followed (7 tools in pages of 3).
    assert.deepStrictEqual(names.filter((n) => n.startsWith('paged__')), ['01', '02', '03', '04', '05', '06', '07'].map((i) => `paged__tool_${i}`));
    assert.ok(!names.some((n) => n.startsWith('notools__')));
    for (const n of names) assert.match(n, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.strictEqual(new Set(names).size, names.length, 'duplicate tool names offered');
    // The tool definitions carry the servers' input schemas.
    const echo = run.model[0].tools.find((t) => t.name === 'basic__echo');
    assert.deepStrictEqual(Object.keys(echo.inputSchema.properties || {}), ['text']);
    // The user's prompt reached the model (after the participant's preamble).
    const userTexts = run.model[0].messages.filter((m) => m.role === 'user').flatMap((m) => m.parts.map((p) => p.text));
    assert.ok(userTexts.includes('which tools do you have?'), JSON.stringify(userTexts));
  });

  it('never sends tools/list to a server without the tools capability', async () => {
    // no-tools.mjs logs every request it receives.
    const lines = await h.waitFor('the notools server\'s requests', () => {
      const all = h.readJsonl(h.files.fixtureLog);
      const init = all.find((l) => l.event === 'request' && l.method === 'initialize');
      return init ? all.filter((l) => l.pid === init.pid && l.event === 'request') : undefined;
    });
    const methods = lines.map((l) => l.method);
    assert.ok(methods.includes('initialize'), JSON.stringify(methods));
    assert.ok(!methods.includes('tools/list'), `tools/list was sent: ${JSON.stringify(methods)}`);
  });
});
