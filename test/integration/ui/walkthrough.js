#!/usr/bin/env node
'use strict';
/*
 * Walkthrough suite: MCP Host installed for the first time (fresh user data) in a real VS Code
 * (code-server 1.139.1, no smoke-test driver), on a folder with nothing configured. Playwright checks
 * that the "Get Started with MCP Host" walkthrough opens by itself, that the empty Servers view
 * offers the same first action, and that its button adds the filesystem reference server, which asks
 * for consent (a modal, answered "Allow" here) before it first starts.
 *
 *   node test/integration/ui/walkthrough.js [--screenshots DIR] [--artifacts DIR] [--headed] [--keep-tmp] [--verbose]
 *
 * Writes docs/screenshots/walkthrough.png and welcome-view.png (or into --screenshots DIR).
 * Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { cleanupAll } = require('../runner/cleanup');
const { openWorkbench } = require('../runner/workbench');
const { prepareWorkspace, REPO } = require('../extension/run');
const ui = require('./lib');

/** The version "Add the Filesystem Server" pins: the one the repository installs and tests. */
const FILESYSTEM_VERSION = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).devDependencies['@modelcontextprotocol/server-filesystem'];

/** Whether some frame of the page (the walkthrough's media webview) shows `text`. */
async function mediaShows(page, text) {
  for (const frame of page.frames()) {
    const found = await frame
      .evaluate((t) => !!globalThis.document.body && globalThis.document.body.innerText.includes(t), text)
      .catch(() => false);
    if (found) return true;
  }
  return false;
}

async function main() {
  const o = ui.parseSuiteOptions(process.argv.slice(2));
  const t0 = Date.now();
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  const ws = prepareWorkspace(path.join(__dirname, 'empty-workspace'), 'mcp-host-it-walkthrough-');
  const wb = await openWorkbench({
    folder: ws.workspace,
    extensions: [REPO],
    env: { MCP_HOST_TEST_REPO: REPO },
    // The other suites turn this off; a person who just installed the extension has it on.
    settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true },
    headless: !o.headed,
    keepTmp: o.keepTmp,
  });
  const { page } = wb;
  if (o.verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
  process.stderr.write(`[walkthrough suite] workbench open (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);

  let artifacts = o.artifacts;
  const onFailure = async (name) => {
    artifacts = artifacts || fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-walkthrough-artifacts-'));
    await ui.screenshot(page, path.join(artifacts, `${ui.slug(name)}.png`));
  };
  const walkthrough = page.locator('.gettingStartedContainer');
  const settingsFile = path.join(ws.workspace, '.vscode', 'settings.json');

  const tests = [
    {
      name: 'on first run in a folder with nothing configured, the walkthrough opens by itself',
      fn: async () => {
        await walkthrough.waitFor({ state: 'visible', timeout: 45000 });
        await ui.waitFor('the MCP Host walkthrough', async () => /Get Started with MCP Host/.test(await walkthrough.innerText().catch(() => '')), { timeout: 20000 });
        const text = await walkthrough.innerText();
        for (const step of ['Add an MCP server', 'Review its tools', 'Pick a role', 'Ask @mcp', 'See the audit']) assert.ok(text.includes(step), `step "${step}" in:\n${text}`);
        assert.match(text, /Add the Filesystem Server/);
        // The step's markdown media (media/walkthrough/add-server.md) renders in a webview frame of its own.
        await ui.waitFor('the step\'s media to render', () => mediaShows(page, 'server-filesystem'), { timeout: 30000 });
        await ui.screenshot(page, path.join(o.screenshots, 'walkthrough.png'));
      },
    },
    {
      name: 'the empty Servers view offers the same first step',
      fn: async () => {
        await ui.openMcpHostView(page);
        const welcome = page.locator('.part.sidebar .welcome-view-content');
        await welcome.waitFor({ timeout: 15000 });
        const text = await welcome.innerText();
        assert.match(text, /No MCP servers are configured yet/);
        assert.match(text, /\.vscode\/mcp\.json/);
        for (const label of ['Add the Filesystem Server', 'Open Settings', 'Get Started']) {
          assert.equal(await welcome.locator('.monaco-button', { hasText: label }).count(), 1, `button "${label}"`);
        }
        await ui.waitFor('the step\'s media to render', () => mediaShows(page, 'server-filesystem'), { timeout: 30000 });
        await ui.screenshot(page, path.join(o.screenshots, 'welcome-view.png'));
      },
    },
    {
      name: '"Add the Filesystem Server" writes the reference server for the workspace into the settings; the tree shows it',
      fn: async () => {
        await page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Add the Filesystem Server' }).click();
        const settings = await ui.waitFor('the server in .vscode/settings.json', () => {
          if (!fs.existsSync(settingsFile)) return undefined;
          const s = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
          return s['mcpHost.servers'] && s['mcpHost.servers'].filesystem ? s : undefined;
        });
        assert.deepEqual(settings['mcpHost.servers'].filesystem, { command: 'npx', args: ['-y', `@modelcontextprotocol/server-filesystem@${FILESYSTEM_VERSION}`, '${workspaceFolder}'], roots: ['${workspaceFolder}'] });
        // Before it first starts, the new server asks for consent, showing the command with the folder resolved.
        const row = (rows) => rows.find((r) => r.label === 'filesystem' && r.level === 1);
        const asked = await ui.allowServers(page, ['filesystem'], {
          onDialog: async () => {
            await ui.waitForTree(page, 'the filesystem server in the tree, waiting for consent', (rows) => row(rows) && /^waiting for your consent to start$/.test(row(rows).description));
          },
        });
        assert.match(asked.filesystem, /Allow the MCP server "filesystem" of this workspace to start\?/);
        const folders = [ws.workspace, fs.realpathSync(ws.workspace)].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
        assert.match(asked.filesystem, new RegExp(`command: npx -y @modelcontextprotocol/server-filesystem@${FILESYSTEM_VERSION.replace(/\./g, '\\.')} (${folders.join('|')})\\s`));
        // …and the roots it will be given: the same folder, not more.
        assert.match(asked.filesystem, new RegExp(`roots \\(folders it is given\\): (${folders.join('|')})\\s`));
        // Allowed: it is no longer waiting, and not refused (whether npx then connects is not this suite's concern).
        const rows = await ui.waitForTree(page, 'the filesystem server past its consent', (rs) => row(rs) && !/waiting for your consent/.test(row(rs).description));
        assert.doesNotMatch(row(rows).description, /not allowed to start/);
      },
    },
    {
      name: '"Add the Filesystem Server" again adds no duplicate and leaves .vscode/settings.json as it was',
      fn: async () => {
        const before = fs.readFileSync(settingsFile, 'utf8');
        await ui.runCommand(page, 'MCP Host: Add the Filesystem Reference Server');
        await page.locator('.notifications-toasts .notification-toast', { hasText: /server "filesystem" already runs @modelcontextprotocol\/server-filesystem; nothing was added/ }).first().waitFor({ timeout: 15000 });
        assert.strictEqual(fs.readFileSync(settingsFile, 'utf8'), before);
        await ui.dismissNotifications(page);
      },
    },
    {
      name: 'without a language model, the "Ask @mcp" step\'s /tools answers, so do /servers; a question says how to get a model',
      fn: async () => {
        // No model is installed here: MCP Host's stand-in is what the Chat view picks.
        await ui.openChat(page, { waitForModel: false });
        const input = page.locator('.interactive-input-part').first();
        await ui.waitFor('the Chat view to pick the stand-in model', async () => /No language model \(MCP Host\)/.test(await input.innerText().catch(() => '')), { timeout: 30000 });
        // The walkthrough's step "Ask @mcp" and its button, which sends "@mcp /tools".
        await walkthrough.getByText('Ask @mcp', { exact: true }).first().click();
        await walkthrough.locator('.monaco-button', { hasText: 'Ask @mcp /tools' }).first().click();
        const tools = await ui.waitForResponse(page, /Tools of _?no role/, 60000);
        assert.doesNotMatch(tools, /Language model unavailable/);
        await ui.sendChat(page, '@mcp /servers', { waitForModel: false });
        // The answer streams in: its heading shows before the list, so wait for the server's line.
        const servers = await ui.waitForResponse(page, /Servers \(role:[\s\S]*filesystem/, 30000);
        assert.match(servers, /filesystem/);
        await ui.sendChat(page, '@mcp what is in this folder?', { waitForModel: false });
        await ui.waitForResponse(page, /No language model is installed.*install a chat model provider/s, 30000);
      },
    },
  ];

  let result;
  try {
    result = await ui.runTests('UI: first-run walkthrough', tests, { onFailure });
  } finally {
    if (result && result.failed && artifacts) process.stderr.write(`[walkthrough suite] failure artifacts: ${artifacts}\n`);
    await wb.close();
    if (!o.keepTmp) ws.remove();
  }
  process.stderr.write(`[walkthrough suite] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exitCode = result.failed ? 1 : 0;
}

main().catch(async (e) => {
  process.stderr.write(`[walkthrough suite] fatal: ${(e && e.stack) || e}\n`);
  await cleanupAll();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
