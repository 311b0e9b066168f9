'use strict';
/*
 * Playwright helpers for driving the VS Code workbench (code-server, no smoke-test driver) as a
 * person would: the MCP Host view, the status bar, the Chat view and modal dialogs; plus a tiny
 * sequential test harness that prints mocha-like lines and the closing "N passed, N failed".
 * Used by the Playwright suites (ui/run.js, ui/imports.js, ui/walkthrough.js, ui-requests/run.js), test/integration/untrusted/run.js and the demo check;
 * parseSuiteOptions and lockWorkspace are their shared set-up.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { parseArgs } = require('util');

const REPO = path.resolve(__dirname, '..', '..', '..');

const VIEW_CONTAINER_LABEL = 'MCP Host';
const SERVERS_PANE = '.pane-header[aria-label="Servers Section"]';
const STATUS_ITEM = '[id="mcp-host-dev.mcp-host.mcpHost.role"]';

// ------------------------------------------------------------------------------------------------
// Suite set-up

/** The options of a Playwright suite: --screenshots DIR (default docs/screenshots), --artifacts DIR, --headed, --keep-tmp, --verbose. */
function parseSuiteOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      screenshots: { type: 'string', default: path.join(REPO, 'docs', 'screenshots') },
      artifacts: { type: 'string' },
      headed: { type: 'boolean', default: false },
      'keep-tmp': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  return {
    screenshots: path.resolve(values.screenshots),
    artifacts: values.artifacts === undefined ? undefined : path.resolve(values.artifacts),
    headed: values.headed,
    keepTmp: values['keep-tmp'],
    verbose: values.verbose,
  };
}

/**
 * The reviewed lockfile a team would have committed (its paths are this checkout's, so it is made
 * here): `mcp-host lock --yes` (dist/cli.js) on a workspace of prepareWorkspace, with a CLI config
 * folder of the run's own and the fixture servers logging aside. `env`: what the servers need
 * besides (secrets as MCP_HOST_SECRET_*). Returns the lockfile's path.
 */
function lockWorkspace(ws, env = {}) {
  execFileSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'lock', '--workspace', ws.workspace, '--yes'], {
    env: {
      ...process.env,
      MCP_HOST_TEST_REPO: REPO,
      MCP_HOST_TEST_FIXTURE_LOG: path.join(ws.root, 'lock-fixture-log.jsonl'),
      MCP_HOST_CONFIG_DIR: path.join(ws.root, 'cli-config'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return path.join(ws.workspace, 'mcp-host.lock.json');
}

// ------------------------------------------------------------------------------------------------
// Files

const { sleep, readJsonl, waitFor } = require('../lib/wait');

/** The files a chat suite reads back: the fixtures' log, the scripted model's script and log, the audit. */
function suiteFiles(ws) {
  return {
    fixtureLog: ws.fixtureLog,
    modelScript: path.join(ws.root, 'model-script.json'),
    modelLog: path.join(ws.root, 'model-log.jsonl'),
    audit: path.join(ws.workspace, '.mcp-host', 'audit.jsonl'),
  };
}

/**
 * Reading those files from a mark on: `mark()` gives `since()`, what the model log, the audit and the
 * fixtures' log gained after it; `callRecord(since, name)` waits for the audit record of a call;
 * `toolResultIn(since, n)` is the last tool result in the model's request number `n` since the mark.
 */
function logMarks(f) {
  const mark = () => {
    const n = { model: readJsonl(f.modelLog).length, audit: readJsonl(f.audit).length, fixture: readJsonl(f.fixtureLog).length };
    return () => ({ model: readJsonl(f.modelLog).slice(n.model), audit: readJsonl(f.audit).slice(n.audit), fixture: readJsonl(f.fixtureLog).slice(n.fixture) });
  };
  const callRecord = (since, name) =>
    waitFor(`the audit record of ${name}`, () => since().audit.find((r) => r.kind === 'call' && r.name === name), { timeout: 60000, describe: () => JSON.stringify(since().audit) });
  const toolResultIn = (since, n) => {
    const req = since().model[n];
    const results = req ? req.messages.flatMap((m) => m.parts || []).filter((p) => p.type === 'toolResult') : [];
    return results.length ? results[results.length - 1].text : undefined;
  };
  /**
   * `@mcp hello` until the scripted model answers (the first request after the workbench starts can
   * fail with "Language model unavailable" while the model registers), at most three times.
   * Returns that model request.
   */
  const warmUp = async (page) => {
    for (let attempt = 1; ; attempt++) {
      setScript(f.modelScript, [{ text: `Ready, attempt ${attempt}.` }]);
      const since = mark();
      await sendChat(page, '@mcp hello');
      try {
        await waitFor('a model request', () => since().model.length >= 1, { timeout: 15000 });
        await waitForResponse(page, `Ready, attempt ${attempt}.`);
        return since().model[0];
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  };
  return { mark, callRecord, toolResultIn, warmUp };
}

/** Writes a sequential script (the Nth model request after this write gets turns[N]). */
function setScript(file, turns) {
  fs.writeFileSync(file, JSON.stringify({ select: 'sequential', turns, nonce: crypto.randomBytes(6).toString('hex') }, null, 1));
}

// ------------------------------------------------------------------------------------------------
// The MCP Host view

/** Shows the MCP Host view container (clicking its activity bar icon only when it is not shown: a click would hide it). */
async function openMcpHostView(page) {
  const title = page.locator('.part.sidebar .composite.title .title-label');
  const shown = async () => (await page.locator('.part.sidebar').isVisible().catch(() => false)) && /MCP Host/i.test(await title.innerText().catch(() => ''));
  if (await shown()) return;
  await page.locator(`.activitybar .action-item .action-label[aria-label="${VIEW_CONTAINER_LABEL}"]`).first().click();
  await waitFor('the MCP Host view', shown, { timeout: 15000 });
  // The pane header is hidden while Servers is the container's only view: wait for its rows' list instead.
  await page.locator(`${SERVERS_PANE}, .part.sidebar .monaco-list`).first().waitFor({ state: 'attached', timeout: 15000 });
}

/** Drags the side bar's sash so the view is `width` px wide (descriptions in the tree are then readable). */
async function widenSidebar(page, width = 560) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  await sidebarWidth(page, width);
}

/** Drags the side bar's sash so the view is exactly `width` px wide (wider or narrower); returns the width reached. */
async function sidebarWidth(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('the side bar is not shown');
  if (Math.round(box.width) === width) return width;
  const x = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + (width - box.width) / 2, y, { steps: 5 });
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
  // Away from the sash, so it is not drawn highlighted.
  await page.mouse.move(box.x + width + 200, box.y + box.height - 20);
  await page.waitForTimeout(400);
  return Math.round((await page.locator('.part.sidebar').boundingBox()).width);
}

/**
 * For each row: whether the start of its description up to `upTo(row)` characters is inside the
 * row's visible label (not cut off by the side bar's edge).
 */
async function descriptionStartsVisible(page, rows) {
  return treeRows(page).evaluateAll(
    (els, wanted) =>
      els
        .map((r) => {
          const label = (r.querySelector('.label-name') || {}).textContent || '';
          const want = wanted.find((w) => w.label === label && w.level === Number(r.getAttribute('aria-level')));
          const d = r.querySelector('.label-description');
          const text = d && r.ownerDocument.createTreeWalker(d, 4 /* NodeFilter.SHOW_TEXT */).nextNode();
          if (!want || !text) return undefined;
          const range = r.ownerDocument.createRange();
          range.setStart(text, 0);
          range.setEnd(text, Math.min(want.chars, text.length));
          const shown = (r.querySelector('.monaco-icon-label-container') || r).getBoundingClientRect();
          const end = range.getBoundingClientRect().right;
          return { label, start: text.textContent.slice(0, want.chars), visible: end <= shown.right + 0.5, end: Math.round(end), edge: Math.round(shown.right) };
        })
        .filter(Boolean),
    rows,
  );
}

/** The tree rows of the primary side bar (the Servers view once openMcpHostView ran). */
function treeRows(page) {
  return page.locator('.part.sidebar .monaco-list-row');
}

/** Rows as { label, description, level, icon (the codicon's name), expanded, aria }. */
async function readTree(page) {
  return treeRows(page).evaluateAll((rows) =>
    rows.map((r) => ({
      label: (r.querySelector('.label-name') || {}).textContent || '',
      description: (r.querySelector('.label-description') || {}).textContent || '',
      level: Number(r.getAttribute('aria-level')),
      icon: (/codicon-([\w~-]+)/.exec((r.querySelector('.custom-view-tree-node-item-icon') || {}).className || '') || [])[1] || '',
      expanded: r.getAttribute('aria-expanded'),
      aria: r.getAttribute('aria-label') || '',
    })),
  );
}

/** The row whose label is exactly `label` (optionally at `level`). */
function treeRow(page, label, level) {
  const rows = treeRows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });
  return level ? rows.and(page.locator(`[aria-level="${level}"]`)) : rows;
}

/** Expands a collapsible row by its twistie (clicking the label of a tool row would run its command). */
async function expandRow(page, label, level) {
  const row = treeRow(page, label, level).first();
  await row.waitFor({ timeout: 15000 });
  if ((await row.getAttribute('aria-expanded')) === 'false') {
    await row.locator('.monaco-tl-twistie').click();
    await waitFor(`"${label}" to expand`, async () => (await row.getAttribute('aria-expanded')) === 'true', { timeout: 5000 });
  }
  return row;
}

async function collapseRow(page, label, level) {
  const row = treeRow(page, label, level).first();
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
}

/** Polls the tree until `pred(rows)` is true; returns the rows. */
async function waitForTree(page, what, pred, timeout = 20000) {
  let rows = [];
  return waitFor(
    what,
    async () => {
      rows = await readTree(page);
      return pred(rows) ? rows : undefined;
    },
    { timeout, describe: () => JSON.stringify(rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label} | ${r.description}`), null, 1) },
  );
}

// ------------------------------------------------------------------------------------------------
// Status bar

async function statusItem(page) {
  const item = page.locator(STATUS_ITEM);
  await item.waitFor({ timeout: 15000 });
  return { text: (await item.innerText()).trim(), aria: (await item.getAttribute('aria-label')) || '' };
}

// ------------------------------------------------------------------------------------------------
// Chat view

/**
 * Opens the Chat view through the command palette and (unless waitForModel is false) waits until
 * it has picked the scripted model.
 */
async function openChat(page, { waitForModel = true } = {}) {
  const input = page.locator('.interactive-input-part').first();
  // The command can be lost to a dialog opening at that moment: it is run again, at most three times.
  for (let attempt = 1; !(await input.isVisible().catch(() => false)); attempt++) {
    await runCommand(page, 'Chat: Open Chat');
    try {
      await input.waitFor({ timeout: 10000 });
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
  if (!waitForModel) return;
  const deadline = Date.now() + 30000;
  while (!/Scripted Test/.test(await input.innerText().catch(() => '')) && Date.now() < deadline) await page.waitForTimeout(250);
}

/** Runs a command through the command palette (F1), picking the first match. */
async function runCommand(page, title) {
  const box = page.locator('.quick-input-widget input');
  // A dialog that opens at that moment (a server's consent, say) makes the palette inert and then
  // closes it: the palette is opened again, at most three times.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      await box.waitFor({ timeout: 10000 });
      await box.fill(`>${title}`, { timeout: 10000 });
      await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10000 });
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  await page.keyboard.press('Enter');
}

/**
 * Clears notification toasts (code-server's "Your application running on port … is available",
 * say) that could cover the chat input and take the click meant for it.
 */
async function dismissNotifications(page) {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  if (!(await toasts.count())) return;
  await runCommand(page, 'Notifications: Clear All Notifications');
  await toasts.first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
}

/**
 * The Chat view's input without its white space: a long input wraps over lines, which the rendered
 * text shows as line breaks where a space (or nothing) was typed.
 */
async function chatInputText(page) {
  const t = await page.locator('.interactive-input-part .monaco-editor .view-lines').first().innerText().catch(() => '');
  return t.replace(/[\s\u00a0]+/g, '');
}

/**
 * Types `text` into the Chat view's input and sends it (after clearing notifications that could cover it).
 * Keys typed while the view re-renders (a long answer still settling) can land elsewhere: the input is
 * read back and typed again until it holds `text`, at most three times; an Enter that did not send is
 * pressed once more.
 */
async function sendChat(page, text, opts = {}) {
  await openChat(page, opts);
  await dismissNotifications(page);
  const editor = page.locator('.interactive-input-part .monaco-editor textarea').first();
  const want = text.replace(/\s+/g, '');
  const suggest = page.locator('.interactive-input-part .suggest-widget.visible, .editor-widget.suggest-widget.visible');
  for (let attempt = 1; ; attempt++) {
    await editor.click({ force: true });
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
    // A completion list (e.g. for "/tools") would take the Enter: close it first.
    await page.waitForTimeout(200);
    if (await suggest.count()) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(100);
    }
    const got = await chatInputText(page);
    if (got === want) break;
    if (attempt >= 3) throw new Error(`the chat input holds ${JSON.stringify(got)} after typing ${JSON.stringify(text)} three times`);
    process.stderr.write(`[ui] the chat input held ${JSON.stringify(got)} after typing ${JSON.stringify(text)}: typing it again\n`);
  }
  await page.keyboard.press('Enter');
  const sent = () => waitFor('the chat input to be sent (emptied)', async () => (await chatInputText(page)) !== want, { timeout: 5000 });
  try {
    await sent();
  } catch {
    process.stderr.write(`[ui] Enter did not send ${JSON.stringify(text)}: pressing it again\n`);
    await editor.click({ force: true });
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await sent();
  }
}

/** Waits until a chat response containing `text` (string or RegExp) is shown; returns its text. */
async function waitForResponse(page, text, timeout = 30000) {
  const loc = page.locator('.interactive-response', { hasText: text }).last();
  await loc.waitFor({ timeout });
  return loc.innerText();
}

// ------------------------------------------------------------------------------------------------
// Dialogs

async function waitForDialog(page, timeout = 20000) {
  const box = page.locator('.monaco-dialog-box');
  await box.waitFor({ timeout });
  return box;
}

async function clickDialogButton(page, label) {
  const box = page.locator('.monaco-dialog-box');
  const before = await box.innerText();
  await box.locator('.monaco-button', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }).first().click();
  // Closed, or already replaced by the next dialog (sampling's answer can follow its request at once).
  await waitFor(`the dialog to close after "${label}"`, async () => (await box.count()) === 0 || (await box.innerText().catch(() => '')) !== before, { timeout: 10000 });
}

/**
 * Answers MCP Host's consent dialogs until each server in `names` has been asked: a dialog about one
 * server with "Allow" (or, for a server the lockfile has no entry for, "Allow and Approve Its
 * Tools"), a dialog about several servers waiting at once with "Allow All". `onDialog(name, box)`
 * runs before each answer (with the first server of a dialog about several). Returns each dialog's
 * text by server name (a dialog about several under each of its servers).
 */
async function allowServers(page, names, { timeout = 60000, onDialog } = {}) {
  const texts = {};
  const deadline = Date.now() + timeout;
  const box = page.locator('.monaco-dialog-box', { hasText: /MCP server "/ }).first();
  while (names.some((n) => !(n in texts))) {
    await box.waitFor({ timeout: Math.max(1000, deadline - Date.now()) });
    const text = await box.innerText();
    const asked = [...new Set([...text.matchAll(/MCP server "([^"]+)"/g)].map((m) => m[1]))];
    for (const name of asked) texts[name] = text;
    if (onDialog) await onDialog(asked[0], box);
    await box.locator('.monaco-button', { hasText: /^(Allow All|Allow|Allow and Approve Its Tools)$/ }).first().click();
    // The next dialog may follow at once: wait until this one is gone or replaced.
    await waitFor(`the dialog for ${asked.map((n) => `"${n}"`).join(', ')} to close`, async () => (await box.count()) === 0 || (await box.innerText().catch(() => '')) !== text, { timeout: 10000 });
  }
  return texts;
}

// ------------------------------------------------------------------------------------------------
// Webviews

/** The content frame of the webview panel whose tab title is `title` (VS Code nests it in two iframes). */
function webviewFrame(page, title) {
  return page.frameLocator(`iframe.webview.ready[title="${title}"], iframe.webview.ready`).last().frameLocator('iframe#active-frame');
}

// ------------------------------------------------------------------------------------------------
// A tiny sequential test harness

/**
 * @param {string} title
 * @param {{ name: string, fn: () => Promise<void> }[]} tests
 * @param {{ onFailure?: (name: string, err: any) => Promise<void>, out?: NodeJS.WritableStream }} [o]
 */
async function runTests(title, tests, o = {}) {
  const out = o.out || process.stdout;
  const t0 = Date.now();
  let passed = 0;
  let failed = 0;
  const failures = [];
  out.write(`\n  ${title}\n`);
  for (const t of tests) {
    const s = Date.now();
    try {
      await t.fn();
      passed++;
      out.write(`    ✔ ${t.name} (${Date.now() - s} ms)\n`);
    } catch (e) {
      failed++;
      failures.push({ name: t.name, err: e });
      out.write(`    ✗ ${failures.length}) ${t.name} (${Date.now() - s} ms)\n`);
      if (o.onFailure) await o.onFailure(t.name, e).catch(() => {});
    }
  }
  out.write(`\n  ${passed} passing (${Date.now() - t0} ms)\n`);
  if (failed) out.write(`  ${failed} failing\n`);
  failures.forEach((f, i) => {
    out.write(`\n  ${i + 1}) ${f.name}\n`);
    const stack = (f.err && f.err.stack) || String(f.err);
    out.write(stack.split('\n').map((l) => `     ${l}`).join('\n') + '\n');
  });
  return { passed, failed };
}

/**
 * runTests on a workbench page: a failing test's screenshot goes to `artifacts` (or a tmp folder
 * named after `suite`), and `finish` (closing the workbench, removing the workspace) runs whatever happened.
 */
async function runWorkbenchTests(title, tests, { page, suite, artifacts, finish }) {
  try {
    return await runTests(title, tests, {
      onFailure: async (name) => {
        const file = path.join(artifacts || path.join(os.tmpdir(), `mcp-host-${suite}-artifacts`), `${slug(name)}.png`);
        await screenshot(page, file);
        process.stderr.write(`[${suite} suite] screenshot: ${file}\n`);
      },
    });
  } finally {
    await finish();
  }
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

/** Screenshot into a folder (created), returning the path. */
async function screenshot(page, file, opts = {}) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, ...opts });
  return file;
}

module.exports = {
  suiteFiles,
  logMarks,
  dismissNotifications,
  parseSuiteOptions,
  lockWorkspace,
  readJsonl,
  sleep,
  waitFor,
  setScript,
  openMcpHostView,
  widenSidebar,
  sidebarWidth,
  descriptionStartsVisible,
  treeRows,
  readTree,
  treeRow,
  expandRow,
  collapseRow,
  waitForTree,
  statusItem,
  openChat,
  runCommand,
  sendChat,
  waitForResponse,
  waitForDialog,
  clickDialogButton,
  allowServers,
  webviewFrame,
  runTests,
  runWorkbenchTests,
  slug,
  screenshot,
};
