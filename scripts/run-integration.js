#!/usr/bin/env node
'use strict';
/*
 * Runs every in-editor test suite of MCP Host in sequence, each inside a real VS Code
 * (code-server 1.139.1 + headless chromium; see test/integration/README.md):
 *
 *   1. extension host  test/integration/extension/run.js  mocha in the extension host, scripted model
 *   2. untrusted       test/integration/untrusted/run.js  restricted mode: nothing starts, the tree says why
 *   3. UI              test/integration/ui/run.js         Playwright: tree, status bar, modal confirmations
 *   4. UI requests     test/integration/ui-requests/run.js  Playwright: servers that ask (elicitation, sampling, roots)
 *   5. imports         test/integration/ui/imports.js     Playwright: servers of .vscode/mcp.json and .mcp.json only
 *   6. walkthrough     test/integration/ui/walkthrough.js Playwright: the first-run walkthrough and the empty view
 *   7. gateway         test/integration/gateway/run.js    MCP Host as an MCP server of the editor's own agent
 *   8. apps            test/integration/apps/run.js       Playwright: MCP App views (fixture app, basic-vanillajs, system-monitor, pdf)
 *
 *   node scripts/run-integration.js [--only extension,untrusted,ui,ui-requests,imports,walkthrough,gateway,apps] [--no-build] [--update-screenshots] [--verbose]
 *
 * Builds the extension first (npm run build) when dist/extension.js is missing or older than src/.
 * The UI suite's screenshots go to a tmp folder, or to docs/screenshots with --update-screenshots.
 * Prints each suite's counts and wall time, then "N passed, N failed"; exits 1 if anything failed.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { parseArgs } = require('util');

const REPO = path.resolve(__dirname, '..');
const SUITE_TIMEOUT_MS = 8 * 60 * 1000;

const SUITES = [
  { id: 'extension', title: 'extension host', script: 'test/integration/extension/run.js' },
  { id: 'untrusted', title: 'untrusted workspace', script: 'test/integration/untrusted/run.js' },
  { id: 'ui', title: 'UI (Playwright)', script: 'test/integration/ui/run.js', screenshots: true },
  { id: 'ui-requests', title: 'UI: servers that ask', script: 'test/integration/ui-requests/run.js' },
  { id: 'imports', title: 'imported .vscode/mcp.json and .mcp.json (Playwright)', script: 'test/integration/ui/imports.js', screenshots: true },
  { id: 'walkthrough', title: 'first-run walkthrough (Playwright)', script: 'test/integration/ui/walkthrough.js', screenshots: true },
  { id: 'gateway', title: "gateway for the editor's own agent", script: 'test/integration/gateway/run.js' },
  { id: 'apps', title: 'MCP App views (Playwright)', script: 'test/integration/apps/run.js', screenshots: true },
];

function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      only: { type: 'string' },
      'no-build': { type: 'boolean' },
      'update-screenshots': { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const only = values.only === undefined ? null : values.only.split(',').map((s) => s.trim()).filter(Boolean);
  if (only) for (const id of only) if (!SUITES.some((s) => s.id === id)) throw new Error(`unknown suite "${id}" (${SUITES.map((x) => x.id).join(', ')})`);
  return { only, build: !values['no-build'], updateScreenshots: !!values['update-screenshots'], verbose: !!values.verbose, help: !!values.help };
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function ensureBuilt() {
  const bundle = path.join(REPO, 'dist', 'extension.js');
  let reason = '';
  if (!fs.existsSync(bundle)) reason = 'dist/extension.js is missing';
  else if (newestMtime(path.join(REPO, 'src')) > fs.statSync(bundle).mtimeMs) reason = 'src/ is newer than dist/extension.js';
  if (!reason) return;
  process.stderr.write(`[integration] ${reason}: npm run build\n`);
  const t = Date.now();
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status})`);
  process.stderr.write(`[integration] built in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}

let current = null;
let interrupted = false;

/** Runs one suite script; resolves { passed, failed, code, ms }. Its output is passed through. */
function runSuite(suite, args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [path.join(REPO, suite.script), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    current = child;
    let last = null;
    let buf = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines) {
        const m = /^(\d+) passed, (\d+) failed$/.exec(l.trim());
        if (m) last = { passed: Number(m[1]), failed: Number(m[2]) };
      }
    });
    const timer = setTimeout(() => {
      process.stderr.write(`[integration] ${suite.title}: no result after ${SUITE_TIMEOUT_MS / 60000} min, stopping it\n`);
      child.kill('SIGTERM');
    }, SUITE_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      current = null;
      const m = /^(\d+) passed, (\d+) failed$/.exec(buf.trim());
      if (m) last = { passed: Number(m[1]), failed: Number(m[2]) };
      const r = last || { passed: 0, failed: 1 };
      // A non-zero exit without a counted failure (crash, timeout) still fails the suite.
      if ((code !== 0 || signal) && r.failed === 0) r.failed = 1;
      resolve({ ...r, code: code === null ? 1 : code, ms: Date.now() - t0 });
    });
  });
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  if (o.help) {
    const src = fs.readFileSync(__filename, 'utf8');
    process.stdout.write(src.slice(src.indexOf('/*') + 2, src.indexOf('*/')).replace(/^ \* ?/gm, '').trim() + '\n');
    return;
  }
  process.on('SIGINT', () => {
    interrupted = true; // the suites (same process group) get the SIGINT too and clean up; we wait for them
  });
  process.on('SIGTERM', () => {
    interrupted = true;
    if (current) current.kill('SIGTERM');
  });

  const t0 = Date.now();
  if (o.build) ensureBuilt();
  const suites = SUITES.filter((s) => !o.only || o.only.includes(s.id));
  let shotsDir = null;
  const results = [];
  for (const s of suites) {
    if (interrupted) break;
    const args = [];
    if (o.verbose) args.push('--verbose');
    if (s.screenshots) {
      if (o.updateScreenshots) args.push('--screenshots', path.join(REPO, 'docs', 'screenshots'));
      else {
        shotsDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-screenshots-'));
        args.push('--screenshots', shotsDir);
      }
    }
    process.stderr.write(`\n[integration] === ${s.title} (${s.script}) ===\n`);
    const r = await runSuite(s, args);
    results.push({ suite: s, ...r });
    process.stderr.write(`[integration] ${s.title}: ${r.passed} passed, ${r.failed} failed in ${(r.ms / 1000).toFixed(1)} s\n`);
  }
  if (shotsDir) fs.rmSync(shotsDir, { recursive: true, force: true });

  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0) + (interrupted ? 1 : 0);
  process.stdout.write('\nIntegration suites\n');
  for (const r of results) {
    process.stdout.write(`  ${r.failed ? '✗' : '✔'} ${r.suite.title.padEnd(22)} ${String(r.passed).padStart(3)} passed, ${r.failed} failed  ${(r.ms / 1000).toFixed(1).padStart(6)} s\n`);
  }
  process.stdout.write(`  total wall time ${((Date.now() - t0) / 1000).toFixed(1)} s${interrupted ? ' (interrupted)' : ''}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`[integration] fatal: ${(e && e.stack) || e}\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
