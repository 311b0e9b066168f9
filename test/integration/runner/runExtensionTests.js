#!/usr/bin/env node
// @ts-check
'use strict';
/*
 * Runs VS Code extension tests inside a real VS Code (code-server 4.139.1 = VS Code 1.139.1, a real
 * Node extension host) driven by headless Debian chromium through playwright-core. How and why it
 * works this way: test/integration/README.md.
 *
 * CLI (plain Node CommonJS, runs on Node 20):
 *   node test/integration/runner/runExtensionTests.js \
 *     --extension <dir> --tests <test index.js> --workspace <dir> \
 *     [--extra-extension <dir>]... [--timeout SECONDS (300)] [--trust|--no-trust] \
 *     [--grep <mocha grep>] [--env KEY=VALUE]... [--settings <settings.json to merge>] \
 *     [--artifacts <dir>] [--keep-tmp] [--verbose] [--headed]
 *
 *   --extra-extension  more development extensions (e.g. test/integration/scripted-model)
 *   --no-trust         workspace trust enabled and the folder untrusted (restricted mode);
 *                      default --trust: the trust feature is off, everything trusted
 *   --grep             mocha grep, passed to the extension host as MCP_HOST_TEST_GREP
 *   --env K=V          extra env for code-server and so the extension host (MCP_HOST_TEST_*
 *                      variables of this process pass through anyway)
 *   --artifacts DIR    keep code-server.log, the window's logs, model-log.jsonl and, on failure,
 *                      a screenshot of the workbench
 *   --verbose          also print the workbench console and code-server output (stderr)
 *   --headed           visible browser (needs a display, e.g. xvfb-run)
 *
 * The extension host gets MCP_HOST_TEST_TRUST (1/0), MCP_HOST_TEST_TMP, MCP_HOST_TEST_WORKSPACE,
 * MCP_HOST_TEST_MODEL_SCRIPT and MCP_HOST_TEST_MODEL_LOG (files in the tmp tree unless set).
 *
 * Exit code: the one the workbench hands to codeAutomationExit (0 = all tests passed), or 1 on
 * timeout / startup failure. Last line: "N passed, N failed".
 *
 * The pieces live beside this file, for Playwright UI tests and demo scripts to reuse:
 *   codeServer.js  installing (ensure.sh) and starting code-server in its own process group
 *   tmpTree.js     the throwaway /tmp/mcp-host-it-* tree and the user settings
 *   payload.js     what the workbench loads: payload URIs, or extension folders installed by symlink
 *   workbench.js   chromium through playwright-core; openWorkbench() for UI tests and demos
 *   results.js     codeAutomationLog/Exit, the [ext-test] console lines, counts and artifacts
 *   cleanup.js     every started process and folder is registered there and torn down at the end,
 *                  on SIGINT/SIGTERM/SIGHUP and (synchronously, best effort) on process exit
 */
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');
const { cleanupAll, installSignalHandlers } = require('./cleanup');
const { ensureCache, startCodeServer } = require('./codeServer');
const { log } = require('./log');
const { developmentExtensionPaths, workbenchUrl } = require('./payload');
const { countResults, createConsoleSink, saveServerArtifacts, saveWorkbenchArtifacts, watchTestRun } = require('./results');
const { makeTmpDirs, writeUserSettings } = require('./tmpTree');
const { launchBrowser } = require('./workbench');

/**
 * Runs one extension test suite. Returns { code, passed, failed, pending, timedOut, durationMs }.
 * @param {object} o
 * @param {string} o.extension             main extension folder (package.json)
 * @param {string[]} [o.extraExtensions]   more extension folders loaded as development extensions
 * @param {string} o.tests                 test module (index.js exporting run())
 * @param {string} o.workspace             folder to open
 * @param {number} [o.timeoutSec]
 * @param {boolean} [o.trust]
 * @param {Record<string,string>} [o.env]  env for code-server / extension host
 * @param {Record<string,any>} [o.settings] extra user settings
 * @param {string} [o.artifacts]           folder to copy logs/screenshot into
 * @param {boolean} [o.keepTmp]
 * @param {boolean} [o.verbose]
 * @param {boolean} [o.headless]
 */
async function runExtensionTests(o) {
  const t0 = Date.now();
  installSignalHandlers();
  const trust = o.trust !== false;
  const timeoutMs = (o.timeoutSec || 300) * 1000;
  const cache = ensureCache();
  const tmp = makeTmpDirs({ keep: !!o.keepTmp });
  writeUserSettings(tmp.userData, { trust, extra: o.settings || {} });

  const env = {
    MCP_HOST_TEST_TRUST: trust ? '1' : '0',
    MCP_HOST_TEST_TMP: tmp.root,
    MCP_HOST_TEST_WORKSPACE: path.resolve(o.workspace),
    MCP_HOST_TEST_MODEL_SCRIPT: process.env.MCP_HOST_TEST_MODEL_SCRIPT || path.join(tmp.root, 'model-script.json'),
    MCP_HOST_TEST_MODEL_LOG: process.env.MCP_HOST_TEST_MODEL_LOG || path.join(tmp.root, 'model-log.jsonl'),
    ...(o.env || {}),
  };
  const extensionPaths = developmentExtensionPaths(tmp, [o.extension, ...(o.extraExtensions || [])]);
  const testsPath = path.resolve(o.tests);
  if (!fs.existsSync(testsPath)) throw new Error(`tests module not found: ${testsPath}`);

  const sink = createConsoleSink({ verbose: !!o.verbose });
  let result = { code: 1, timedOut: false };
  let server;
  let browser;
  let watch;
  try {
    // Start both at once (about 1-2 s saved); each registers its own cleanup.
    const serverP = startCodeServer({ cache, tmp, trust, env });
    const browserP = launchBrowser({ tmp, headless: o.headless !== false });
    serverP.catch(() => {});
    browserP.catch(() => {});
    server = await serverP;
    log(`code-server ${cache.CODE_SERVER_VERSION} on ${server.baseUrl} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    browser = await browserP;
    const { page } = browser;

    watch = await watchTestRun(page, { sink, server, timeoutMs, verbose: !!o.verbose });

    const url = workbenchUrl({
      baseUrl: server.baseUrl,
      authority: server.authority,
      folder: o.workspace,
      extensionDevelopmentPaths: extensionPaths,
      extensionTestsPath: testsPath,
    });
    if (o.verbose) log(`opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    log(`workbench loading (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    sink.onFirstLine = () => log(`tests started (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    result = await watch.finished;
    if (result.timedOut) log(`TIMEOUT after ${timeoutMs / 1000} s`);
    if (o.artifacts) await saveWorkbenchArtifacts(o.artifacts, page, result.code, watch.windowLogs());
  } catch (e) {
    log(`ERROR: ${e && /** @type {any} */ (e).stack || e}`);
    result = { code: 1, timedOut: false };
  } finally {
    if (watch) watch.stop();
    if (o.artifacts && server) saveServerArtifacts(o.artifacts, server, tmp.root);
    if (result.code !== 0 && server && !sink.state.summary) {
      const tail = server.output().split('\n').slice(-30).join('\n');
      log(`code-server output (tail):\n${tail}`);
    }
    await cleanupAll();
  }

  return { ...countResults(sink.state, result), timedOut: result.timedOut, durationMs: Date.now() - t0 };
}

// ------------------------------------------------------------------------------------------------
// CLI

/** The options of runExtensionTests() from the command line; null for --help. */
function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      extension: { type: 'string' },
      'extra-extension': { type: 'string', multiple: true, default: [] },
      tests: { type: 'string' },
      workspace: { type: 'string' },
      timeout: { type: 'string', default: '300' },
      trust: { type: 'boolean' },
      'no-trust': { type: 'boolean' },
      grep: { type: 'string' },
      env: { type: 'string', multiple: true, default: [] },
      settings: { type: 'string' },
      artifacts: { type: 'string' },
      'keep-tmp': { type: 'boolean' },
      verbose: { type: 'boolean' },
      headed: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  for (const k of ['extension', 'tests', 'workspace']) if (!values[k]) throw new Error(`--${k} is required`);
  if (values.trust && values['no-trust']) throw new Error('--trust and --no-trust exclude each other');
  /** @type {Record<string, string>} */
  const env = {};
  for (const kv of values.env) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new Error(`--env expects KEY=VALUE, got ${kv}`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  if (values.grep !== undefined) env.MCP_HOST_TEST_GREP = values.grep;
  const timeoutSec = Number(values.timeout);
  if (!(timeoutSec > 0)) throw new Error('--timeout must be a positive number of seconds');
  return {
    extension: values.extension,
    extraExtensions: values['extra-extension'],
    tests: values.tests,
    workspace: values.workspace,
    timeoutSec,
    trust: !values['no-trust'],
    env,
    settings: values.settings === undefined ? undefined : JSON.parse(fs.readFileSync(values.settings, 'utf8')),
    artifacts: values.artifacts === undefined ? undefined : path.resolve(values.artifacts),
    keepTmp: !!values['keep-tmp'],
    verbose: !!values.verbose,
    headless: !values.headed,
  };
}

async function main() {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (e) {
    log(/** @type {any} */ (e).message);
    process.exitCode = 2;
    return;
  }
  if (!opts) {
    const src = fs.readFileSync(__filename, 'utf8');
    const doc = src.slice(src.indexOf('/*') + 2, src.indexOf('*/'));
    process.stdout.write(doc.replace(/^ \* ?/gm, '').trim() + '\n');
    return;
  }
  if (opts.verbose) process.env.MCP_HOST_TEST_VERBOSE = '1';
  const r = await runExtensionTests(opts);
  log(`finished in ${(r.durationMs / 1000).toFixed(1)} s, exit code ${r.code}${r.timedOut ? ' (timeout)' : ''}`);
  if (r.pending) process.stdout.write(`(${r.pending} pending)\n`);
  process.stdout.write(`${r.passed} passed, ${r.failed} failed\n`);
  process.exitCode = r.code;
}

module.exports = { runExtensionTests };

if (require.main === module) {
  main().catch((e) => {
    log(`fatal: ${(e && e.stack) || e}`);
    cleanupAll().finally(() => process.exit(1));
  });
}
