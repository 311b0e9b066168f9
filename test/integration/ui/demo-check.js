#!/usr/bin/env node
'use strict';
/*
 * Checks `npm run demo` end to end, as a user would run it:
 *   1. starts `node scripts/demo.js` in its own process group (like a terminal's foreground job)
 *   2. opens the printed URL in headless chromium, opens the MCP Host view, waits for the demo's
 *      three servers to connect; with --scripted-model also asks @mcp a question in the Chat view
 *   3. writes a screenshot (default docs/screenshots/demo.png)
 *   4. sends Ctrl-C (SIGINT to the group) and checks that every process the demo started
 *      (code-server, extension host, MCP servers) is gone and its tmp tree removed
 *
 *   node test/integration/ui/demo-check.js [--scripted-model] [--screenshot FILE] [--no-build]
 *
 * Last line: "N passed, N failed".
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');
const { descendants, isAlive, commandLine } = require('../lib/procfs');
const { spawn } = require('child_process');
const { cleanupAll, installSignalHandlers, registerCleanup } = require('../runner/cleanup');
const { makeTmpDirs } = require('../runner/tmpTree');
const { launchBrowser } = require('../runner/workbench');
const ui = require('./lib');

const REPO = path.resolve(__dirname, '..', '..', '..');

function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      'scripted-model': { type: 'boolean', default: false },
      screenshot: { type: 'string', default: path.join(REPO, 'docs', 'screenshots', 'demo.png') },
      'no-build': { type: 'boolean', default: false },
    },
  });
  return { scriptedModel: values['scripted-model'], screenshot: path.resolve(values.screenshot), build: !values['no-build'] };
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  installSignalHandlers();
  const t0 = Date.now();
  // A profile of its own (removed at the end): the check starts as a first run, and the
  // developer's demo profile (consent, layout) is left alone.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-demo-check-profile-'));
  registerCleanup('demo profile', async () => fs.rmSync(profile, { recursive: true, force: true }), () => fs.rmSync(profile, { recursive: true, force: true }));
  const env = { ...process.env, MCP_HOST_DEMO_PROFILE: profile };
  if (o.scriptedModel) env.MCP_HOST_DEMO_SCRIPTED_MODEL = '1';
  else delete env.MCP_HOST_DEMO_SCRIPTED_MODEL;
  const demo = spawn(process.execPath, [path.join(REPO, 'scripts', 'demo.js'), ...(o.build ? [] : ['--no-build'])], {
    cwd: REPO,
    env,
    detached: true, // its own process group, so "Ctrl-C" below reaches exactly what a terminal would signal
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  demo.stdout.on('data', (d) => (out += d));
  demo.stderr.on('data', (d) => (err += d));
  const demoExit = new Promise((r) => demo.on('exit', (code, signal) => r({ code, signal })));
  registerCleanup('demo', async () => {
    try {
      process.kill(-demo.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  });

  const results = [];
  const check = async (name, fn) => {
    const s = Date.now();
    try {
      await fn();
      results.push(true);
      process.stdout.write(`    ✔ ${name} (${Date.now() - s} ms)\n`);
    } catch (e) {
      results.push(false);
      process.stdout.write(`    ✗ ${name} (${Date.now() - s} ms)\n${String((e && e.stack) || e).split('\n').map((l) => `       ${l}`).join('\n')}\n`);
    }
  };

  process.stdout.write(`\n  npm run demo${o.scriptedModel ? ' (MCP_HOST_DEMO_SCRIPTED_MODEL=1)' : ''}\n`);
  let url;
  let tmpRoot;
  await check('builds, starts code-server on 127.0.0.1 and prints the URL', async () => {
    url = await ui.waitFor('the URL line', () => (/^\s*Open (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out) || [])[1], {
      timeout: 240000,
      describe: () => `stdout: ${out}\nstderr: ${err}`,
    });
  });
  if (!url) throw new Error('the demo did not start');

  let seen;
  await check('the workbench opens on demo/ with the MCP Host view: three servers connected', async () => {
    const tmp = makeTmpDirs({ prefix: 'mcp-host-it-democheck-' });
    const browser = await launchBrowser({ tmp });
    const { page } = browser;
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    // A fresh profile: each server asks once before it first starts (its lockfile is committed in demo/).
    await ui.allowServers(page, ['everything', 'memory', 'files'], { timeout: 120000 });
    await ui.openMcpHostView(page);
    const servers = await ui.waitForTree(page, 'everything, memory and files connected', (rs) => ['everything', 'memory', 'files'].every((s) => rs.some((r) => r.label === s && /^connected/.test(r.description))), 60000);
    // demo/mcp-host.lock.json is committed: every tool the servers list is the reviewed one (a stale lockfile shows "N quarantined").
    for (const s of ['everything', 'memory', 'files']) assert.doesNotMatch(servers.find((r) => r.label === s).description, /quarantined/, `${s}: the demo's lockfile is stale (mcp-host lock --workspace demo)`);
    await ui.expandRow(page, 'files', 1);
    const rows = await ui.waitForTree(page, 'the tools of files', (rs) => rs.some((r) => r.label === 'read_text_file' && r.level === 2));
    const s = await ui.statusItem(page);
    assert.match(s.text, /MCP: support$/);
    assert.match(rows.find((r) => r.label === 'read_text_file' && r.level === 2).description, /^auto/);
    if (o.scriptedModel) {
      await ui.sendChat(page, '@mcp what is in the demo files?');
      try {
        await ui.waitForResponse(page, 'The folder holds', 20000);
      } catch {
        // The first request after start-up can meet "Language model unavailable": once more.
        await ui.sendChat(page, '@mcp what is in the demo files?');
        await ui.waitForResponse(page, 'The folder holds', 30000);
      }
    }
    await ui.widenSidebar(page, 520);
    await ui.screenshot(page, o.screenshot);
    process.stdout.write(`      screenshot: ${path.relative(REPO, o.screenshot)}\n`);
    seen = descendants(demo.pid);
    tmpRoot = [...seen.keys()].map(commandLine).map((c) => (/--user-data-dir (\S+)\/user-data/.exec(c) || [])[1]).find(Boolean);
    await browser.close();
  });

  await check('Ctrl-C stops the demo and leaves nothing running', async () => {
    const servers = [...seen.keys()].filter((p) => /server-(everything|memory|filesystem)/.test(commandLine(p)));
    assert.strictEqual(servers.length, 3, `expected 3 MCP server processes, saw: ${[...seen.keys()].map((p) => `${p} ${commandLine(p)}`).join('\n')}`);
    process.kill(-demo.pid, 'SIGINT');
    const exit = await Promise.race([demoExit, ui.sleep(20000).then(() => null)]);
    assert.ok(exit, 'the demo did not exit within 20 s of Ctrl-C');
    await ui.waitFor('every process of the demo to end', () => [...seen].every(([p, st]) => !isAlive(p, st)), {
      timeout: 10000,
      describe: () => [...seen].filter(([p, st]) => isAlive(p, st)).map(([p]) => `${p} ${commandLine(p)}`).join('\n'),
    });
    assert.ok(tmpRoot, 'could not tell the demo\'s tmp folder');
    assert.strictEqual(fs.existsSync(tmpRoot), false, `${tmpRoot} is still there`);
  });

  await cleanupAll();
  const passed = results.filter(Boolean).length;
  const failed = results.length - passed;
  process.stderr.write(`[demo-check] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch(async (e) => {
  process.stderr.write(`[demo-check] fatal: ${(e && e.stack) || e}\n`);
  await cleanupAll();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
