#!/usr/bin/env node
'use strict';
/*
 * Gateway suite: MCP Host offered to the editor's own MCP support (mcpHost.gateway.enabled,
 * vscode.lm.registerMcpServerDefinitionProvider), in a real VS Code 1.139.1 (code-server):
 *   part 1  mocha in the extension host (./suite, smoke-test driver): the definition (127.0.0.1,
 *           bearer token in no settings file, 401 without it), the editor's MCP client listing the
 *           role's tools in vscode.lm.tools, vscode.lm.invokeTool through the router (fixture log,
 *           audit actor "upstream"), role switches, turning it off
 *   part 2  Playwright on a workbench WITHOUT the test driver (real modal dialogs), MCP Host installed
 *           as a person has it with the setting on in the user settings, plus ./invoker (a test-only
 *           extension that calls a tool through vscode.lm.invokeTool as the editor's agent does): a tool
 *           that needs confirmation shows MCP Host's own dialog, naming the editor as the asker; Allow
 *           runs it, Cancel denies it before the server; the Servers view lists the editor as a client
 *
 *   node test/integration/gateway/run.js [--grep PATTERN] [--verbose] [--artifacts DIR] [--keep-tmp] [--headed]
 *
 * Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { openWorkbench } = require('../runner/workbench');
const { runSuite, runTwoParts, prepareWorkspace, REPO } = require('../extension/run');
const ui = require('../ui/lib');

const TEMPLATE = path.join(__dirname, 'workspace');
const INVOKER = path.join(__dirname, 'invoker');
/** MCP Host's confirmation (src/vscode/confirmationMessage.ts); any other dialog is the editor's own. */
const HOST_QUESTION = /Allow the tool "add" of MCP server "basic" to run\?/;

/** Calls basic__add through the invoker's command; answers the editor's own question with its confirm button, MCP Host's with `answer`. */
async function invokeAdd(page, f, input, answer) {
  fs.writeFileSync(f.request, JSON.stringify({ tool: 'basic__add', input }));
  const results = ui.readJsonl(f.result).length;
  const audits = ui.readJsonl(f.audit).length;
  await ui.runCommand(page, 'Gateway Test: Invoke the Requested MCP Tool');
  const dialogs = { editor: [], host: undefined };
  while (dialogs.host === undefined) {
    const box = await ui.waitForDialog(page, 60000);
    const text = await box.innerText();
    if (HOST_QUESTION.test(text)) {
      dialogs.host = text;
      if (f.screenshot) await ui.screenshot(page, f.screenshot);
      await ui.clickDialogButton(page, answer);
    } else {
      dialogs.editor.push(text);
      await box.locator('.monaco-button').filter({ hasNotText: /^Cancel$/ }).first().click();
      // MCP Host's question may take its place at once.
      await ui.waitFor("the editor's dialog to close", async () => (await box.count()) === 0 || (await box.innerText().catch(() => '')) !== text, { timeout: 10000 });
    }
  }
  await ui.waitFor('the invoker\'s result', () => ui.readJsonl(f.result).length > results, { timeout: 30000 });
  await ui.waitFor('the audit record', () => ui.readJsonl(f.audit).slice(audits).some((r) => r.kind === 'call'), { timeout: 10000 });
  return { dialogs, result: ui.readJsonl(f.result).at(-1), audit: ui.readJsonl(f.audit).slice(audits).filter((r) => r.kind === 'call') };
}

async function domPart(o) {
  const ws = prepareWorkspace(TEMPLATE);
  const f = {
    fixtureLog: ws.fixtureLog,
    request: path.join(ws.root, 'invoke-request.json'),
    result: path.join(ws.root, 'invoke-result.jsonl'),
    audit: path.join(ws.workspace, '.mcp-host', 'audit.jsonl'),
    screenshot: o.artifacts && path.join(o.artifacts, 'gateway-confirmation.png'),
  };
  const wb = await openWorkbench({
    folder: ws.workspace,
    extensions: [REPO, INVOKER],
    settings: { 'mcpHost.gateway.enabled': true },
    env: { MCP_HOST_TEST_REPO: REPO, MCP_HOST_TEST_FIXTURE_LOG: f.fixtureLog, MCP_HOST_TEST_INVOKE_REQUEST: f.request, MCP_HOST_TEST_INVOKE_RESULT: f.result },
    headless: !o.headed,
    keepTmp: o.keepTmp,
  });
  const { page } = wb;
  const tests = [
    {
      name: 'with the setting on, the Servers view shows the gateway once the role\'s server is allowed',
      fn: async () => {
        await ui.allowServers(page, ['basic']);
        await ui.openMcpHostView(page);
        await ui.waitForTree(page, 'the gateway row', (rows) => rows.some((r) => r.label === 'Gateway' && r.level === 1 && /client/.test(r.description)), 30000);
      },
    },
    {
      name: 'a tool that needs confirmation, called by the editor\'s agent: MCP Host\'s own dialog names the tool, the server and the editor; Allow runs it',
      fn: async () => {
        const calls = ui.readJsonl(f.fixtureLog).filter((l) => l.event === 'call').length;
        const { dialogs, result, audit } = await invokeAdd(page, f, { a: 2, b: 3 }, 'Allow');
        process.stderr.write(`[gateway suite] the editor's own dialogs before MCP Host's: ${JSON.stringify(dialogs.editor)}\n`);
        assert.match(dialogs.host, /Asked by upstream .+ \(http\)/);
        assert.match(dialogs.host, /Role: gateway/);
        assert.ok(!dialogs.editor.some((t) => HOST_QUESTION.test(t)));
        assert.ok(!result.error, result.error);
        assert.match(result.text, /5/);
        const added = ui.readJsonl(f.fixtureLog).filter((l) => l.event === 'call').slice(calls);
        assert.deepStrictEqual(added.map((l) => [l.tool, l.args]), [['add', { a: 2, b: 3 }]]);
        assert.strictEqual(audit.length, 1);
        assert.strictEqual(audit[0].outcome, 'ok');
        assert.strictEqual(audit[0].confirmedBy, 'user');
        assert.strictEqual(audit[0].actor.kind, 'upstream');
        assert.strictEqual(audit[0].actor.transport, 'http');
      },
    },
    {
      name: 'Cancel in MCP Host\'s dialog denies the call: the server never gets it, the audit says denied for the editor',
      fn: async () => {
        const calls = ui.readJsonl(f.fixtureLog).filter((l) => l.event === 'call').length;
        const { audit } = await invokeAdd(page, { ...f, screenshot: undefined }, { a: 40, b: 2 }, 'Cancel');
        assert.deepStrictEqual(ui.readJsonl(f.fixtureLog).filter((l) => l.event === 'call').slice(calls), []);
        assert.strictEqual(audit.length, 1);
        assert.strictEqual(audit[0].outcome, 'denied');
        assert.strictEqual(audit[0].actor.kind, 'upstream');
      },
    },
    {
      name: 'the gateway row lists the editor as a connected client, with its calls',
      fn: async () => {
        await ui.expandRow(page, 'Gateway', 1);
        const rows = await ui.waitForTree(page, 'a client under the gateway', (rs) => rs.some((r) => r.level === 2 && /^http · since .* · \d+ calls?$/.test(r.description || '')), 20000);
        const gateway = rows.find((r) => r.label === 'Gateway' && r.level === 1);
        assert.match(gateway.description, /^1 client connected$/);
      },
    },
  ];
  return ui.runWorkbenchTests("confirmations of the editor's agent through the gateway (Playwright)", tests, {
    page,
    suite: 'gateway',
    artifacts: o.artifacts,
    finish: async () => {
      await wb.close();
      if (!o.keepTmp) ws.remove();
    },
  });
}

runTwoParts({
  suite: 'gateway',
  host: (o) => runSuite({ ...o, tests: path.join(__dirname, 'suite', 'index.js'), template: TEMPLATE }),
  hostLabel: 'extension host',
  dom: domPart,
  domLabel: 'workbench dialogs',
});
