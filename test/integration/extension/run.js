#!/usr/bin/env node
'use strict';
/*
 * Extension-host suite: mocha inside the real VS Code extension host (code-server 1.139.1, smoke-test
 * driver mode), with MCP Host (the repository root, dist/extension.js) and the scripted model as
 * development extensions, on a fresh copy of ./workspace (fixture servers + server-everything).
 *
 *   node test/integration/extension/run.js [--grep PATTERN] [--verbose] [--artifacts DIR] [--keep-tmp] [--headed]
 *
 * Also used by test/integration/untrusted/run.js (workspace trust off) through runSuite().
 * Needs dist/extension.js (npm run build; scripts/run-integration.js builds it when missing).
 * Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');
const { cleanupAll } = require('../runner/cleanup');
const { runExtensionTests } = require('../runner/runExtensionTests');
const { writeOwnerFile } = require('../runner/tmpTree');

const REPO = path.resolve(__dirname, '..', '..', '..');
const SCRIPTED_MODEL = path.join(__dirname, '..', 'scripted-model');

/** Copies a workspace template into a fresh tmp folder; returns { root, workspace, fixtureLog, remove }. */
function prepareWorkspace(template, prefix = 'mcp-host-it-ws-') {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Same owner file as the runner's tmp trees: a later run sweeps this folder if we die by SIGKILL.
  writeOwnerFile(root);
  const workspace = path.join(root, 'workspace');
  fs.cpSync(template, workspace, { recursive: true, filter: (src) => !src.split(path.sep).includes('.mcp-host') });
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
  // Ctrl-C: the runner's signal handler cleans up its own things and calls process.exit.
  process.on('exit', remove);
  return { root, workspace, fixtureLog: path.join(root, 'fixture-log.jsonl'), remove };
}

/** The options every extension-host suite script takes (see the header). */
function parseCommonArgs(args) {
  const { values } = parseArgs({
    args,
    options: {
      grep: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      artifacts: { type: 'string' },
      'keep-tmp': { type: 'boolean', default: false },
      headed: { type: 'boolean' },
    },
  });
  return {
    grep: values.grep,
    verbose: values.verbose,
    artifacts: values.artifacts === undefined ? undefined : path.resolve(values.artifacts),
    keepTmp: values['keep-tmp'],
    headed: values.headed,
  };
}

/**
 * Runs an extension-host suite. Returns the runner's result ({ code, passed, failed, pending, durationMs }).
 * @param {{ tests: string, template: string, trust?: boolean, grep?: string, verbose?: boolean, artifacts?: string, keepTmp?: boolean, timeoutSec?: number }} o
 */
async function runSuite(o) {
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  const ws = prepareWorkspace(o.template);
  try {
    const env = {
      MCP_HOST_TEST_REPO: REPO,
      MCP_HOST_TEST_FIXTURE_LOG: ws.fixtureLog,
      // Each run gets its own model script and log (not the runner's defaults, which a caller's env could pin).
      MCP_HOST_TEST_MODEL_SCRIPT: path.join(ws.root, 'model-script.json'),
      MCP_HOST_TEST_MODEL_LOG: path.join(ws.root, 'model-log.jsonl'),
      // The test driver refuses dialogs: in extension-test mode MCP Host then answers consent "allow".
      MCP_HOST_TEST_CONSENT: 'allow',
    };
    if (o.grep) env.MCP_HOST_TEST_GREP = o.grep;
    if (o.verbose) process.env.MCP_HOST_TEST_VERBOSE = '1';
    const r = await runExtensionTests({
      extension: REPO,
      extraExtensions: [SCRIPTED_MODEL],
      tests: o.tests,
      workspace: ws.workspace,
      trust: o.trust !== false,
      env,
      timeoutSec: o.timeoutSec || 300,
      verbose: !!o.verbose,
      artifacts: o.artifacts,
      keepTmp: !!o.keepTmp,
    });
    if (o.artifacts) {
      fs.mkdirSync(o.artifacts, { recursive: true });
      for (const f of [ws.fixtureLog, path.join(ws.workspace, '.mcp-host', 'audit.jsonl')]) {
        if (fs.existsSync(f)) fs.copyFileSync(f, path.join(o.artifacts, path.basename(f)));
      }
    }
    return r;
  } finally {
    if (o.keepTmp) process.stderr.write(`[suite] kept workspace copy ${ws.root}\n`);
    else ws.remove();
  }
}

/**
 * main() of a suite in two parts, mocha in the extension host (`host`, given the options) and then
 * Playwright on a workbench (`dom`): prints each part's counts under its label, the wall time and the
 * total "N passed, N failed", and sets the exit code; a fatal error cleans up and counts as a failure.
 * @param {{ suite: string, host: (o: object) => Promise<{ passed: number, failed: number, code: number }>, hostLabel: string, dom: (o: object) => Promise<{ passed: number, failed: number }>, domLabel: string }} parts
 */
function runTwoParts({ suite, host, hostLabel, dom, domLabel }) {
  const main = async () => {
    const o = parseCommonArgs(process.argv.slice(2));
    const t0 = Date.now();
    const hostPart = await host(o);
    process.stdout.write(`${hostLabel}: ${hostPart.passed} passed, ${hostPart.failed} failed\n`);
    const domPart = await dom(o);
    process.stdout.write(`${domLabel}: ${domPart.passed} passed, ${domPart.failed} failed\n`);
    const passed = hostPart.passed + domPart.passed;
    const failed = hostPart.failed + domPart.failed;
    process.stderr.write(`[${suite} suite] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
    process.exitCode = failed || hostPart.code ? 1 : 0;
  };
  main().catch(async (e) => {
    process.stderr.write(`[${suite} suite] fatal: ${(e && e.stack) || e}\n`);
    await cleanupAll();
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(1);
  });
}

async function main() {
  const o = parseCommonArgs(process.argv.slice(2));
  const r = await runSuite({ ...o, tests: path.join(__dirname, 'suite', 'index.js'), template: path.join(__dirname, 'workspace') });
  process.stderr.write(`[extension-host suite] ${(r.durationMs / 1000).toFixed(1)} s, exit code ${r.code}${r.timedOut ? ' (timeout)' : ''}\n`);
  if (r.pending) process.stdout.write(`(${r.pending} pending)\n`);
  process.stdout.write(`${r.passed} passed, ${r.failed} failed\n`);
  process.exitCode = r.code;
}

module.exports = { runSuite, runTwoParts, prepareWorkspace, parseCommonArgs, REPO, SCRIPTED_MODEL };

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`[extension-host suite] fatal: ${(e && e.stack) || e}\n`);
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(1);
  });
}
