#!/usr/bin/env node
'use strict';
/*
 * Imports suite: a workspace whose MCP servers are only in `.vscode/mcp.json` (VS Code format, with
 * an `inputs` secret) and `.mcp.json` (Claude Code format), no MCP Host settings at all, opened in a
 * real VS Code (code-server 1.139.1, no smoke-test driver) driven by Playwright:
 *
 *   - MCP Host asks for the input once (typed into its prompt here) and keeps it as a secret;
 *   - each server asks for consent (a modal, answered here) before it first starts; pinning is the
 *     default ("review") with the lockfile a team would have committed, written by `mcp-host lock`
 *     (dist/cli.js) before the workbench opens (the premise is a workspace without settings.json);
 *   - the tree shows both servers, connected, each with the file it comes from;
 *   - their tools work through @mcp (scripted model), with the same confirmation as any server;
 *   - `mcp-host check` (dist/cli.js) lists the same servers; editing `.mcp.json` hot-reloads;
 *   - MCP Host: Copy Imported Servers to Settings writes them into mcpHost.servers.
 *
 *   node test/integration/ui/imports.js [--screenshots DIR] [--artifacts DIR] [--headed] [--keep-tmp] [--verbose]
 *
 * Writes docs/screenshots/imported-servers.png (or into --screenshots DIR).
 * Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { cleanupAll } = require('../runner/cleanup');
const { openWorkbench } = require('../runner/workbench');
const { prepareWorkspace, REPO, SCRIPTED_MODEL } = require('../extension/run');
const ui = require('./lib');

/** Waits for MCP Host's prompt for `${input:id}` and answers it. */
async function answerInputPrompt(page, id, value) {
  const widget = page.locator('.quick-input-widget');
  await ui.waitFor(`the prompt for input "${id}"`, async () => (await widget.isVisible().catch(() => false)) && new RegExp(`input "${id}"`).test(await widget.innerText().catch(() => '')), { timeout: 30000 });
  const text = await widget.innerText();
  const box = widget.locator('input').first();
  assert.equal(await box.getAttribute('type'), 'password', 'a password input is typed into a password box');
  await box.fill(value);
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 10000 });
  return text;
}

/**
 * Answers what MCP Host asks at start-up, in whichever order it comes: the prompt for
 * `${input:inputId}` (typed `value`) and the consent dialog of each server in `servers` (Allow).
 * Returns the prompt's text and each dialog's text, and what was asked, in order.
 */
async function answerStartUp(page, { inputId, value, servers, timeout = 60000 }) {
  const widget = page.locator('.quick-input-widget');
  const consent = page.locator('.monaco-dialog-box', { hasText: /Allow the MCP server "/ }).first();
  const out = { prompt: undefined, consents: {}, order: [] };
  const deadline = Date.now() + timeout;
  while (out.prompt === undefined || servers.some((n) => !(n in out.consents))) {
    const next = await ui.waitFor(
      'the input prompt or a consent dialog',
      async () => {
        // A modal dialog is on top of everything: it is answered first.
        if ((await consent.count()) > 0) return 'consent';
        const shown = (await widget.isVisible().catch(() => false)) && new RegExp(`input "${inputId}"`).test(await widget.innerText().catch(() => ''));
        return shown ? 'input' : undefined;
      },
      { timeout: Math.max(1000, deadline - Date.now()), describe: () => `answered so far: ${out.order.join(', ') || 'nothing'}` },
    );
    if (next === 'input') {
      assert.equal(out.prompt, undefined, `the input "${inputId}" is asked for once`);
      out.prompt = await answerInputPrompt(page, inputId, value);
      out.order.push(`input:${inputId}`);
      continue;
    }
    const text = await consent.innerText();
    const name = /Allow the MCP server "([^"]+)"/.exec(text)[1];
    assert.ok(!(name in out.consents), `consent for "${name}" is asked once`);
    out.consents[name] = text;
    out.order.push(`consent:${name}`);
    await consent.locator('.monaco-button', { hasText: /^Allow$/ }).first().click();
    await ui.waitFor(`the dialog for "${name}" to close`, async () => (await consent.count()) === 0 || !(await consent.innerText().catch(() => '')).includes(`"${name}"`), { timeout: 10000 });
  }
  return out;
}

async function main() {
  const o = ui.parseSuiteOptions(process.argv.slice(2));
  const t0 = Date.now();
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  const ws = prepareWorkspace(path.join(__dirname, 'imports-workspace'), 'mcp-host-it-imports-');
  assert.deepEqual(fs.readdirSync(path.join(ws.workspace, '.vscode')), ['mcp.json'], 'the workspace has no settings.json');
  const f = {
    fixtureLog: ws.fixtureLog,
    basicLog: path.join(ws.root, 'basic-log.jsonl'),
    modelScript: path.join(ws.root, 'model-script.json'),
    modelLog: path.join(ws.root, 'model-log.jsonl'),
  };
  const env = { MCP_HOST_TEST_REPO: REPO, MCP_HOST_TEST_FIXTURE_LOG: f.fixtureLog, MCP_HOST_TEST_MODEL_SCRIPT: f.modelScript, MCP_HOST_TEST_MODEL_LOG: f.modelLog };
  // The CLI's consent answers go to a folder of this run, never to ~/.config/mcp-host.
  const cliEnv = { ...process.env, ...env, MCP_HOST_CONFIG_DIR: path.join(ws.root, 'cli-config') };
  // The reviewed lockfile a team would have committed (its paths are this checkout's, so it is made
  // here), with the secret the input of .vscode/mcp.json stands for given as the CLI takes secrets.
  const lockfile = ui.lockWorkspace(ws, { MCP_HOST_SECRET_FIXTURE_LOG: path.join(ws.root, 'lock-basic-log.jsonl') });
  assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(lockfile, 'utf8')).servers).sort(), ['basic', 'dyn']);
  assert.deepEqual(fs.readdirSync(path.join(ws.workspace, '.vscode')), ['mcp.json'], 'mcp-host lock wrote no settings.json');
  const wb = await openWorkbench({ folder: ws.workspace, extensions: [REPO, SCRIPTED_MODEL], env, headless: !o.headed, keepTmp: o.keepTmp });
  const { page } = wb;
  if (o.verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
  process.stderr.write(`[imports suite] workbench open (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  const mark = () => {
    const n = { basic: ui.readJsonl(f.basicLog).length, model: ui.readJsonl(f.modelLog).length };
    return () => ({ basic: ui.readJsonl(f.basicLog).slice(n.basic), model: ui.readJsonl(f.modelLog).slice(n.model) });
  };
  const settingsFile = path.join(ws.workspace, '.vscode', 'settings.json');

  let artifacts = o.artifacts;
  const onFailure = async (name) => {
    artifacts = artifacts || fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-imports-artifacts-'));
    await ui.screenshot(page, path.join(artifacts, `${ui.slug(name)}.png`));
  };

  let startUp;
  const tests = [
    {
      name: '${input:fixture-log} of .vscode/mcp.json is asked for once, in a password box, with its description',
      fn: async () => {
        // The consent dialogs of the servers come in between (answered too: see the next test).
        startUp = await answerStartUp(page, { inputId: 'fixture-log', value: f.basicLog, servers: ['basic', 'dyn'] });
        assert.match(startUp.prompt, /Where the basic server logs its calls/);
        assert.match(startUp.prompt, /\.vscode\/mcp\.json/);
      },
    },
    {
      name: 'each imported server asks for consent before it first starts, with its command; "basic" once its input is known',
      fn: async () => {
        assert.ok(startUp, 'the start-up questions were answered');
        assert.deepEqual(Object.keys(startUp.consents).sort(), ['basic', 'dyn'], startUp.order.join(', '));
        assert.match(startUp.consents.basic, /Allow the MCP server "basic" of this workspace to start\?/);
        assert.match(startUp.consents.basic, /command: node \S*\/test\/fixtures\/servers\/basic\.mjs/);
        assert.match(startUp.consents.basic, /environment variables set: FIXTURE_LOG/);
        assert.ok(!startUp.consents.basic.includes(f.basicLog), 'the secret typed in is not shown');
        assert.match(startUp.consents.dyn, /Allow the MCP server "dyn" of this workspace to start\?/);
        assert.match(startUp.consents.dyn, /command: node \S*\/test\/fixtures\/servers\/dynamic\.mjs/);
        // The command (and so the consent) of "basic" depends on its input: it is asked after the input.
        assert.ok(startUp.order.indexOf('consent:basic') > startUp.order.indexOf('input:fixture-log'), startUp.order.join(', '));
      },
    },
    {
      name: 'the tree shows the servers of both files, connected, each with its file',
      fn: async () => {
        await ui.openMcpHostView(page);
        await ui.widenSidebar(page, 560);
        await ui.waitForTree(
          page,
          'basic and dyn connected with their sources',
          (rows) =>
            rows.some((r) => r.label === 'basic' && /^connected · 9 tools · \.vscode\/mcp\.json$/.test(r.description)) &&
            rows.some((r) => r.label === 'dyn' && /^connected · 3 tools · \.mcp\.json$/.test(r.description)),
          45000,
        );
        await ui.expandRow(page, 'basic', 1);
        await ui.waitForTree(page, 'the tools of basic', (rows) => rows.filter((r) => r.level === 2 && r.icon === 'tools').length === 9);
        // The secret reached the process: the fixture logs to the file that was typed in.
        await ui.waitFor('the basic server to log its initialize', () => ui.readJsonl(f.basicLog).some((l) => l.event === 'initialize'));
        await ui.sleep(300);
        await ui.screenshot(page, path.join(o.screenshots, 'imported-servers.png'));
      },
    },
    {
      name: '@mcp calls a tool of an imported server after the same confirmation as any server',
      fn: async () => {
        for (let attempt = 1; ; attempt++) {
          ui.setScript(f.modelScript, [{ text: 'Echoing. ', toolCalls: [{ name: 'basic__echo', input: { text: `from .vscode/mcp.json ${attempt}` } }] }, { text: `Done ${attempt}.` }]);
          const since = mark();
          await ui.sendChat(page, '@mcp echo something');
          try {
            const box = await ui.waitForDialog(page, 15000);
            assert.match(await box.innerText(), /Allow the tool "echo" of MCP server "basic" to run\?/);
            await ui.clickDialogButton(page, 'Allow');
            const call = await ui.waitFor('the call at the server', () => since().basic.find((l) => l.event === 'call'));
            assert.deepEqual([call.tool, call.args], ['echo', { text: `from .vscode/mcp.json ${attempt}` }]);
            const reqs = await ui.waitFor('the second model request', () => (since().model.length >= 2 ? since().model : undefined));
            const results = (reqs[1].messages || []).flatMap((m) => m.parts || []).filter((p) => p.type === 'toolResult');
            assert.equal(results.pop().text, `echo: from .vscode/mcp.json ${attempt}`);
            await ui.waitForResponse(page, `Done ${attempt}.`);
            break;
          } catch (e) {
            // The first request after start-up can fail with "Language model unavailable".
            if (attempt >= 3 || since().model.length > 0) throw e;
          }
        }
      },
    },
    {
      name: '@mcp /servers names the file each server comes from',
      fn: async () => {
        await ui.sendChat(page, '@mcp /servers');
        // The answer streams in: wait for the whole of it (both servers), not its first line.
        const text = await ui.waitForResponse(page, /from .vscode\/mcp\.json[\s\S]*dyn[\s\S]*from .mcp\.json/);
        assert.match(text, /basic[\s\S]*from .vscode\/mcp\.json/);
      },
    },
    {
      name: 'mcp-host check lists the same servers with their files',
      fn: async () => {
        // --yes: the servers start without a question on the terminal (there is none here).
        const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'check', '--workspace', ws.workspace, '--yes'], {
          env: { ...cliEnv, MCP_HOST_SECRET_FIXTURE_LOG: path.join(ws.root, 'cli-basic-log.jsonl') },
          encoding: 'utf8',
          timeout: 60000,
        });
        assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
        assert.match(r.stdout, /^basic \(\.vscode\/mcp\.json\)\s+connected\s+9\/9/m);
        assert.match(r.stdout, /^dyn \(\.mcp\.json\)\s+connected\s+3\/3/m);
      },
    },
    {
      name: 'editing .mcp.json hot-reloads: a new server appears, a malformed file is reported with line and column',
      fn: async () => {
        const file = path.join(ws.workspace, '.mcp.json');
        const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
        doc.mcpServers.extra = { command: 'node', args: ['${MCP_HOST_TEST_REPO}/test/fixtures/servers/no-tools.mjs'] };
        fs.writeFileSync(file, JSON.stringify(doc, null, 2));
        // A new server of the file asks for consent before it first starts, like any other.
        const asked = await ui.allowServers(page, ['extra'], { timeout: 30000 });
        assert.match(asked.extra, /Allow the MCP server "extra" of this workspace to start\?/);
        assert.match(asked.extra, /command: node \S*\/test\/fixtures\/servers\/no-tools\.mjs/);
        await ui.openMcpHostView(page);
        await ui.collapseRow(page, 'basic', 1);
        await ui.waitForTree(page, 'extra from .mcp.json', (rows) => rows.some((r) => r.label === 'extra' && /· \.mcp\.json$/.test(r.description)), 30000);
        await ui.waitForTree(page, 'extra started once allowed', (rows) => rows.some((r) => r.label === 'extra' && /^connected · 0 tools · \.mcp\.json$/.test(r.description)), 30000);
        fs.writeFileSync(file, '{ "mcpServers": { "dyn": ');
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /\.mcp\.json:1:\d+/ });
        await toast.first().waitFor({ timeout: 20000 });
        // Nothing is imported from a malformed file: its servers leave the tree. Wait for that before
        // restoring the file, or a row not yet re-rendered would pass for "back" while the host still
        // has no server of the file (and the next test would copy only "basic").
        await ui.waitForTree(page, 'dyn and extra gone while the file is malformed', (rows) => !rows.some((r) => r.label === 'dyn' || r.label === 'extra'), 30000);
        fs.writeFileSync(file, JSON.stringify(doc, null, 2));
        await ui.waitForTree(
          page,
          'dyn and extra back',
          (rows) => ['dyn', 'extra'].every((name) => rows.some((r) => r.label === name && /^connected · \d+ tools · \.mcp\.json$/.test(r.description))),
          30000,
        );
      },
    },
    {
      name: 'Copy Imported Servers to Settings writes them into mcpHost.servers',
      fn: async () => {
        await ui.runCommand(page, 'MCP Host: Copy Imported Servers to Settings');
        const settings = await ui.waitFor('.vscode/settings.json with the servers', () => {
          if (!fs.existsSync(settingsFile)) return undefined;
          const s = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
          return s['mcpHost.servers'] && Object.keys(s['mcpHost.servers']).length === 3 ? s : undefined;
        });
        assert.deepEqual(Object.keys(settings['mcpHost.servers']), ['basic', 'dyn', 'extra']);
        assert.deepEqual(settings['mcpHost.servers'].basic.env, { FIXTURE_LOG: '${secret:fixture-log}' });
        await page.locator('.notifications-toasts .notification-toast', { hasText: /copied "basic", "dyn", "extra" into mcpHost\.servers/ }).first().waitFor({ timeout: 15000 });
        // Now the settings define them (the same servers: no clash is reported) and they stay connected.
        await ui.waitForTree(page, 'basic from the settings', (rows) => rows.some((r) => r.label === 'basic' && /^connected · 9 tools$/.test(r.description)), 30000);
      },
    },
  ];

  let result;
  try {
    result = await ui.runTests('UI: servers imported from .vscode/mcp.json and .mcp.json', tests, { onFailure });
  } finally {
    if (result && result.failed && artifacts) {
      for (const [k, p] of Object.entries(f)) if (fs.existsSync(p)) fs.copyFileSync(p, path.join(artifacts, `${k}${path.extname(p)}`));
      process.stderr.write(`[imports suite] failure artifacts: ${artifacts}\n`);
    }
    await wb.close();
    if (!o.keepTmp) ws.remove();
  }
  process.stderr.write(`[imports suite] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exitCode = result.failed ? 1 : 0;
}

main().catch(async (e) => {
  process.stderr.write(`[imports suite] fatal: ${(e && e.stack) || e}\n`);
  await cleanupAll();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
