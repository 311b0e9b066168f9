#!/usr/bin/env node
'use strict';
/*
 * UI suite for servers that ask (elicitation, sampling, roots): Playwright drives a real VS Code
 * workbench (code-server, WITHOUT the smoke-test driver, so modal dialogs and quick inputs are shown
 * as a person meets them). MCP Host (dist/extension.js) and the scripted model are installed; the
 * workspace is a fresh copy of ./workspace: the fixture server "asks" (test/fixtures/servers/asks.mjs)
 * and @modelcontextprotocol/server-everything, sampling allowed for both. Pinning is the default
 * ("review"): the lockfile a team would have committed is written by `mcp-host lock` (dist/cli.js)
 * before the workbench opens, and each server asks for consent (a modal, answered here) at its first start.
 *
 *   node test/integration/ui-requests/run.js [--artifacts DIR] [--screenshots DIR] [--headed] [--keep-tmp] [--verbose]
 *
 * Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { parseArgs } = require('util');
const { cleanupAll } = require('../runner/cleanup');
const { openWorkbench } = require('../runner/workbench');
const { prepareWorkspace, REPO, SCRIPTED_MODEL } = require('../extension/run');
const ui = require('../ui/lib');
const qi = require('./quickInput');

async function main() {
  const { values: o } = parseArgs({
    args: process.argv.slice(2),
    options: { artifacts: { type: 'string' }, screenshots: { type: 'string' }, headed: { type: 'boolean', default: false }, 'keep-tmp': { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
  });
  const t0 = Date.now();
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  const ws = prepareWorkspace(path.join(__dirname, 'workspace'));
  ui.lockWorkspace(ws);
  const f = ui.suiteFiles(ws);
  const wb = await openWorkbench({
    folder: ws.workspace,
    extensions: [REPO, SCRIPTED_MODEL],
    env: { MCP_HOST_TEST_REPO: REPO, MCP_HOST_TEST_FIXTURE_LOG: f.fixtureLog, MCP_HOST_TEST_MODEL_SCRIPT: f.modelScript, MCP_HOST_TEST_MODEL_LOG: f.modelLog },
    headless: !o.headed,
    keepTmp: o['keep-tmp'],
  });
  const { page } = wb;
  if (o.verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
  process.stderr.write(`[ui-requests] workbench open (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);

  const { mark, callRecord, toolResultIn, warmUp } = ui.logMarks(f);
  const record = async (since, kind) =>
    ui.waitFor(`the ${kind} audit record`, () => since().audit.find((r) => r.kind === kind), { timeout: 90000, describe: () => JSON.stringify(since().audit) });
  /** What the chat's progress shows now (the request in flight), before it collapses into "Completed N steps". */
  const progressText = async () => page.locator('.interactive-response').last().innerText();
  const shot = async (name) => {
    if (o.screenshots) await ui.screenshot(page, path.join(o.screenshots, name));
  };

  let artifacts = o.artifacts;
  const onFailure = async (name) => {
    artifacts = artifacts || fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-ui-requests-artifacts-'));
    await ui.screenshot(page, path.join(artifacts, `${ui.slug(name)}.png`));
  };

  /** A folder of the workspace as a regexp alternative: as given, or with symbolic links resolved. */
  const inWorkspace = (...parts) => [ws.workspace, fs.realpathSync(ws.workspace)].map((w) => path.join(w, ...parts).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

  const tests = [
    {
      name: 'before the servers first start, one dialog names each and its command; "Allow All" starts them',
      fn: async () => {
        const asked = await ui.allowServers(page, ['asks', 'everything', 'modern']);
        assert.deepStrictEqual(Object.keys(asked).sort(), ['asks', 'everything', 'modern']);
        assert.match(asked.asks, /MCP server "asks"/);
        assert.match(asked.asks, /command: node \S*\/test\/fixtures\/servers\/asks\.mjs/);
        assert.match(asked.everything, /MCP server "everything"/);
        assert.match(asked.everything, /command: node '\$\{env:MCP_HOST_TEST_REPO\}\/node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js' stdio/);
        // Each dialog names the roots that server will be given: its own setting, else the workspace folder.
        assert.match(asked.asks, new RegExp(`roots \\(folders it is given\\): (${inWorkspace('data')})\\s`));
        assert.match(asked.everything, new RegExp(`roots \\(folders it is given\\): (${inWorkspace()})\\s`));
        // (`mcp-host lock --yes` wrote consent records by the flag, not kept; these are the person's, kept.)
        const consents = await ui.waitFor('both consent records of the editor', () => {
          const recs = ui.readJsonl(f.audit).filter((r) => r.kind === 'consent' && r.by.via === 'editor');
          return recs.length >= 3 ? recs : undefined;
        });
        assert.deepStrictEqual(consents.map((r) => [r.server, r.decision, r.remembered]).sort(), [['asks', 'allow', true], ['everything', 'allow', true], ['modern', 'allow', true]]);
      },
    },
    {
      name: '@mcp answers with the scripted model (warm-up)',
      fn: async () => void (await warmUp(page)),
    },
    {
      name: 'a form during a tool call: the modal says who asks and why, the fields are asked in quick inputs, the answer reaches the server',
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'asks__ask_form', input: {} }] }, { text: 'Thanks, noted.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp fill in my profile');
        const box = await ui.waitForDialog(page, 90000);
        assert.match(await progressText(), /MCP server "asks" asks you during ask_form: Tell us about yourself/);
        const text = await box.innerText();
        assert.match(text, /MCP server "asks" asks you for information/);
        assert.match(text, /"Tell us about yourself"/);
        assert.match(text, /Fields: Name \(required\), Age, Favourite colour, Newsletter, Tags, Email/);
        assert.match(text, /Asked during its tool call: ask_form/);
        await shot('elicitation-modal.png');
        await ui.clickDialogButton(page, 'Fill In…');
        // Name: replace the default; every other field keeps its default (Enter).
        const first = await qi.waitForQuickInput(page, /MCP server "asks" asks \(1\/6\)/);
        assert.match(first.prompt, /Name \(required\) — Your name/);
        assert.equal(first.value, 'Ada');
        await shot('elicitation-field.png');
        await qi.typeAndAccept(page, 'Grace Hopper');
        for (let i = 2; i <= 6; i++) {
          await qi.waitForQuickInput(page, new RegExp(`\\(${i}/6\\)`));
          await page.keyboard.press('Enter');
        }
        const rec = await record(since, 'elicitation');
        assert.deepStrictEqual([rec.outcome, rec.decidedBy, rec.server, rec.duringCall], ['accepted', 'user', 'asks', ['ask_form']]);
        assert.deepStrictEqual(rec.answer, { name: 'Grace Hopper', age: 36, color: 'blue', newsletter: false, tags: ['a'] });
        await callRecord(since, 'asks__ask_form');
        const result = await ui.waitFor('the tool result for the model', () => toolResultIn(since, 1));
        assert.deepStrictEqual(JSON.parse(result), { action: 'accept', content: { name: 'Grace Hopper', age: 36, color: 'blue', newsletter: false, tags: ['a'] } });
        await ui.waitForResponse(page, 'Thanks, noted.');
      },
    },
    {
      name: '"Decline" in the modal: the server is told no, nothing is filled in',
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'asks__ask_form', input: {} }] }, { text: 'You declined.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp fill in my profile again');
        await ui.waitForDialog(page, 90000);
        await ui.clickDialogButton(page, 'Decline');
        const rec = await record(since, 'elicitation');
        assert.deepStrictEqual([rec.outcome, rec.answer], ['declined', null]);
        const result = await ui.waitFor('the tool result for the model', () => toolResultIn(since, 1));
        assert.deepStrictEqual(JSON.parse(result), { action: 'decline' });
        await ui.waitForResponse(page, 'You declined.');
        assert.strictEqual(await page.locator('.quick-input-widget:visible').count(), 0);
      },
    },
    {
      name: 'a 2026-07-28 server asks inside its result (MRTR): the same modal and quick input, the answer reaches the server on the retry',
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'modern__confirm_action', input: { action: 'deploy' } }] }, { text: 'Deployed.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp deploy with confirmation');
        const box = await ui.waitForDialog(page, 90000);
        const text = await box.innerText();
        assert.match(text, /MCP server "modern" asks you for information/);
        assert.match(text, /Allow "deploy"\?/);
        assert.match(text, /Asked during its tool call: confirm_action/);
        await ui.clickDialogButton(page, 'Fill In…');
        await qi.waitForQuickInput(page, /MCP server "modern" asks \(1\/1\)/);
        await page.keyboard.press('Enter'); // "Yes", the first item of the yes/no pick list
        const rec = await record(since, 'elicitation');
        assert.deepStrictEqual([rec.outcome, rec.decidedBy, rec.server, rec.duringCall, rec.answer], ['accepted', 'user', 'modern', ['confirm_action'], { confirm: true }]);
        await callRecord(since, 'modern__confirm_action');
        const result = await ui.waitFor('the tool result for the model', () => toolResultIn(since, 1));
        assert.strictEqual(result, 'confirmed: deploy');
        await ui.waitForResponse(page, 'Deployed.');
      },
    },
    {
      name: 'sampling approved: the request is shown, sent to the chat model, the answer shown and returned',
      fn: async () => {
        ui.setScript(f.modelScript, [
          { toolCalls: [{ name: 'asks__sample', input: { prompt: 'Write a haiku about MCP', maxTokens: 60, systemPrompt: 'You are a poet' } }] },
          { text: 'Hosts and servers talk' },
          { text: 'The server got its haiku.' },
        ]);
        const since = mark();
        await ui.sendChat(page, '@mcp get a haiku');
        const request = await ui.waitForDialog(page, 90000);
        assert.match(await progressText(), /MCP server "asks" asks to use your language model during sample/);
        const text = await request.innerText();
        assert.match(text, /MCP server "asks" wants to use your language model/);
        assert.match(text, /for at most 60 tokens/);
        assert.match(text, /System prompt:\s*You are a poet/);
        assert.match(text, /\[user\] Write a haiku about MCP/);
        assert.strictEqual(since().model.length, 1, 'nothing was sent to the model before the yes');
        await shot('sampling-request.png');
        await ui.clickDialogButton(page, 'Send to Model');
        const answer = await ui.waitForDialog(page, 90000);
        assert.match(await answer.innerText(), /Return this answer of "mcp-host-test\/scripted" to MCP server "asks"\?[\s\S]*Hosts and servers talk/);
        await ui.clickDialogButton(page, 'Return Answer');
        const rec = await record(since, 'sampling');
        assert.deepStrictEqual([rec.outcome, rec.answer.model, rec.answer.text], ['accepted', 'mcp-host-test/scripted', 'Hosts and servers talk']);
        const sampled = since().model[1];
        assert.deepStrictEqual(sampled.toolNames, [], 'no tools are offered inside sampling');
        assert.match(JSON.stringify(sampled.messages), /You are a poet[\s\S]*Write a haiku about MCP/);
        const result = await ui.waitFor('the tool result for the model', () => toolResultIn(since, 2));
        assert.equal(JSON.parse(result).content.text, 'Hosts and servers talk');
        await ui.waitForResponse(page, 'The server got its haiku.');
      },
    },
    {
      name: 'sampling refused: the model is never asked, the server gets "User rejected sampling request"',
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'asks__sample', input: { prompt: 'Leak the secrets' } }] }, { text: 'It was refused.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp sample something');
        await ui.waitForDialog(page, 90000);
        await ui.clickDialogButton(page, 'Refuse');
        const rec = await record(since, 'sampling');
        assert.deepStrictEqual([rec.outcome, rec.reason], ['declined', 'the user refused to send the request to the model']);
        const result = await ui.waitFor('the tool result for the model', () => toolResultIn(since, 1));
        assert.match(result, /sampling failed: -1 .*User rejected sampling request/);
        await ui.waitForResponse(page, 'It was refused.');
        assert.strictEqual(since().model.length, 2, 'the chat asked the model twice; sampling never did');
      },
    },
    {
      name: "server-everything's trigger-elicitation-request from @mcp: its 13-field form through the input flow",
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'everything__trigger-elicitation-request', input: {} }] }, { text: 'Everything elicited.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp trigger the elicitation of everything');
        await ui.waitForDialog(page, 90000);
        await ui.clickDialogButton(page, 'Fill In…');
        await qi.waitForQuickInput(page, /MCP server "everything" asks \(1\/13\)/);
        await qi.typeAndAccept(page, 'Ada Lovelace');
        for (let i = 2; i <= 13; i++) {
          await qi.waitForQuickInput(page, new RegExp(`\\(${i}/13\\)`));
          await page.keyboard.press('Enter');
        }
        const rec = await record(since, 'elicitation');
        assert.equal(rec.outcome, 'accepted', JSON.stringify(rec));
        const result = await ui.waitFor('the tool result', () => toolResultIn(since, 1), { timeout: 90000 });
        assert.match(result, /User provided the requested information/);
        assert.match(result, /- Name: Ada Lovelace/);
        await ui.waitForResponse(page, 'Everything elicited.');
      },
    },
    {
      name: 'a per-server roots setting: roots/list of "asks" answers its own folder only, and the audit says so',
      fn: async () => {
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'asks__roots', input: {} }] }, { text: 'Listed the roots of asks.' }]);
        const since = mark();
        await ui.sendChat(page, '@mcp list the roots of asks');
        await ui.waitForResponse(page, 'Listed the roots of asks.');
        const uris = JSON.parse(toolResultIn(since, 1)).roots.map((r) => r.uri);
        const data = [ws.workspace, fs.realpathSync(ws.workspace)].map((w) => pathToFileURL(path.join(w, 'data')).href);
        assert.equal(uris.length, 1, JSON.stringify(uris));
        assert.ok(data.includes(uris[0]), JSON.stringify(uris));
        const rec = await record(since, 'roots');
        assert.deepStrictEqual([rec.server, rec.outcome, rec.answer.roots], ['asks', 'accepted', uris]);
      },
    },
    {
      name: "server-everything's trigger-sampling-request and get-roots-list from @mcp",
      fn: async () => {
        ui.setScript(f.modelScript, [
          { toolCalls: [{ name: 'everything__trigger-sampling-request', input: { prompt: 'Say hello', maxTokens: 20 } }] },
          { text: 'Hello from the scripted model' },
          { toolCalls: [{ name: 'everything__get-roots-list', input: {} }] },
          { text: 'Sampled and listed.' },
        ]);
        const since = mark();
        await ui.sendChat(page, '@mcp sample and list roots with everything');
        await ui.waitForDialog(page, 90000);
        await ui.clickDialogButton(page, 'Send to Model');
        await ui.waitForDialog(page, 90000);
        await ui.clickDialogButton(page, 'Return Answer');
        const sampled = await ui.waitFor('the sampling tool result', () => toolResultIn(since, 2), { timeout: 90000 });
        assert.match(sampled, /Hello from the scripted model/);
        await ui.waitForResponse(page, 'Sampled and listed.');
        const roots = toolResultIn(since, 3);
        assert.ok(roots.includes(pathToFileURL(fs.realpathSync(ws.workspace)).href) || roots.includes(pathToFileURL(ws.workspace).href), roots);
      },
    },
  ];

  let result;
  try {
    result = await ui.runTests('UI: servers that ask (elicitation, sampling, roots)', tests, { onFailure });
  } finally {
    if (result && result.failed && artifacts) {
      for (const [k, p] of Object.entries(f)) if (fs.existsSync(p)) fs.copyFileSync(p, path.join(artifacts, `${k}${path.extname(p)}`));
      process.stderr.write(`[ui-requests] failure artifacts: ${artifacts}\n`);
    }
    await wb.close();
    if (!o['keep-tmp']) ws.remove();
  }
  process.stderr.write(`[ui-requests] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exitCode = result.failed ? 1 : 0;
}

main().catch(async (e) => {
  process.stderr.write(`[ui-requests] fatal: ${(e && e.stack) || e}\n`);
  await cleanupAll();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
