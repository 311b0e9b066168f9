// @ts-check
'use strict';
/*
 * Result collection of an extension test run. The workbench (smoke-test driver mode) calls
 * codeAutomationLog and codeAutomationExit(code, logs), which the runner exposes on the page; the
 * harness in the extension host (mochaInExtensionHost.js) prints its lines to the console, already
 * formatted (console lines reach the page without printf substitution) and prefixed so that only
 * they are printed here, and JSON events that are counted.
 */
const fs = require('fs');
const path = require('path');
const { log } = require('./log');

const EXT_TEST_PREFIX = '[ext-test] ';
const EXT_EVENT_PREFIX = '[ext-test:event] ';

/**
 * Parses console lines coming from the page. Lines of the extension-host harness carry
 * EXT_TEST_PREFIX (printed) or EXT_EVENT_PREFIX (JSON events, counted).
 */
function createConsoleSink({ verbose = false, out = process.stdout } = {}) {
  const state = { passed: 0, failed: 0, pending: 0, summary: /** @type {any} */ (null) };
  const t0 = Date.now();
  /** @type {{ state: typeof state, handle: (text: string) => void, onFirstLine: null | (() => void) }} */
  const sink = { state, handle: () => {}, onFirstLine: null };
  let seenFirst = false;
  const handle = (/** @type {string} */ text) => {
    if (!seenFirst && text.includes(EXT_TEST_PREFIX)) {
      seenFirst = true;
      if (sink.onFirstLine) sink.onFirstLine();
    }
    let printedAny = false;
    for (const line of text.split(/\r?\n/)) {
      let i = line.indexOf(EXT_EVENT_PREFIX);
      if (i >= 0) {
        printedAny = true;
        try {
          const ev = JSON.parse(line.slice(i + EXT_EVENT_PREFIX.length));
          if (ev.type === 'pass') state.passed++;
          else if (ev.type === 'fail') state.failed++;
          else if (ev.type === 'pending') state.pending++;
          else if (ev.type === 'end') state.summary = ev;
        } catch {
          /* ignore */
        }
        continue;
      }
      i = line.indexOf(EXT_TEST_PREFIX);
      if (i >= 0) {
        printedAny = true;
        out.write(line.slice(i + EXT_TEST_PREFIX.length) + '\n');
      }
    }
    if (!printedAny && verbose) process.stderr.write(`[page +${((Date.now() - t0) / 1000).toFixed(1)}s] ${text}\n`);
  };
  sink.handle = handle;
  return sink;
}
/**
 * Hooks `page` for one run before the workbench is opened. `finished` resolves once with the exit
 * code the workbench hands to codeAutomationExit, or code 1 when the run times out (timedOut), the
 * page crashes or code-server exits; `windowLogs()` is what the workbench handed over with the code.
 * @param {import('playwright-core').Page} page
 * @param {{ sink: ReturnType<typeof createConsoleSink>, server: { proc: import('child_process').ChildProcess },
 *   timeoutMs: number, verbose?: boolean }} o
 */
async function watchTestRun(page, { sink, server, timeoutMs, verbose = false }) {
  /** @type {(v: {code:number, timedOut:boolean}) => void} */
  let finish = () => {};
  let settled = false;
  /** @type {Promise<{code:number, timedOut:boolean}>} */
  const finished = new Promise((r) => {
    finish = (v) => {
      if (!settled) r(v);
      settled = true;
    };
  });
  /** @type {{ relativePath: string, contents: string }[] | null} */
  let windowLogs = null;
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    if (verbose) process.stderr.write(`[workbench:${type}] ${typeof args === 'string' ? args : JSON.stringify(args)}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    windowLogs = logs;
    finish({ code: typeof code === 'number' ? code : 1, timedOut: false });
  });
  page.on('console', (msg) => sink.handle(msg.text()));
  page.on('pageerror', (err) => {
    if (verbose) process.stderr.write(`[page error] ${err.message}\n`);
  });
  const timer = setTimeout(() => finish({ code: 1, timedOut: true }), timeoutMs);
  // Fail fast instead of waiting for the timeout when the page or the server dies.
  page.on('crash', () => {
    if (!settled) log('the workbench page crashed');
    finish({ code: 1, timedOut: false });
  });
  server.proc.on('exit', (code, sig) => {
    if (!settled) log(`code-server exited during the run (code ${code}, signal ${sig})`);
    finish({ code: 1, timedOut: false });
  });
  return {
    finished: finished.finally(() => clearTimeout(timer)),
    windowLogs: () => windowLogs,
    /** Stops the timeout when the run ends before it finished (a failed start). */
    stop: () => clearTimeout(timer),
  };
}

/** On failure a screenshot of the workbench, and the window's logs, into `dir`. */
async function saveWorkbenchArtifacts(dir, page, code, windowLogs) {
  fs.mkdirSync(dir, { recursive: true });
  if (code !== 0) await page.screenshot({ path: path.join(dir, 'workbench.png') }).catch(() => {});
  for (const l of windowLogs || []) {
    const f = path.join(dir, 'window-logs', l.relativePath);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, l.contents);
  }
}

/** code-server's output and the scripted model's log into `dir`. */
function saveServerArtifacts(dir, server, tmpRoot) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'code-server.log'), server.output());
    for (const f of ['model-log.jsonl']) {
      const src = path.join(tmpRoot, f);
      if (fs.existsSync(src)) fs.copyFileSync(src, path.join(dir, f));
    }
  } catch {
    /* ignore */
  }
}

/**
 * The run's counts and exit code: the harness's closing summary when it sent one, else the events
 * counted so far. A non-zero exit without a failed test (load error, crash, timeout) still counts
 * as a failure; exit 0 without a summary means the harness never finished.
 * @param {ReturnType<typeof createConsoleSink>['state']} s
 * @param {{ code: number }} result
 */
function countResults(s, result) {
  const passed = s.summary ? s.summary.passes : s.passed;
  let failed = s.summary ? s.summary.failures : s.failed;
  const pending = s.summary ? s.summary.pending : s.pending;
  if (result.code !== 0 && failed === 0) failed = 1;
  let code = result.code;
  if (code === 0 && (failed > 0 || !s.summary)) code = 1;
  if (code === 0 && passed === 0) log('WARNING: no test ran');
  return { code, passed, failed, pending };
}

module.exports = {
  EXT_TEST_PREFIX,
  EXT_EVENT_PREFIX,
  createConsoleSink,
  watchTestRun,
  saveWorkbenchArtifacts,
  saveServerArtifacts,
  countResults,
};
