// @ts-check
'use strict';
/*
 * Runs mocha inside the VS Code extension host. Use it from the test module given to the runner as
 * --tests (the workbench requires that module and calls its run()):
 *
 *   // test index.js
 *   const { run } = require('<repo>/test/integration/runner/mochaInExtensionHost');
 *   exports.run = () => run({ testsDir: __dirname });
 *
 * Lines go through console.log prefixed with "[ext-test] " (the runner prints only those), already
 * formatted with util.format (extension-host console lines reach the page without printf
 * substitution). Structured events go out prefixed "[ext-test:event] " so the runner can count
 * results and print the final "N passed, N failed" line.
 *
 * Environment read here (the runner sets them): MCP_HOST_TEST_GREP (mocha grep),
 * MCP_HOST_TEST_MOCHA_TIMEOUT (ms, default 60000).
 */

const fs = require('fs');
const path = require('path');
const util = require('util');

const PREFIX = '[ext-test] ';
const EVENT_PREFIX = '[ext-test:event] ';

/** console.log with the prefix on every line, formatted with util.format. */
function extLog(...args) {
  const text = util.format(...args);
  console.log(text.split('\n').map((l) => PREFIX + l).join('\n'));
}

function extEvent(obj) {
  console.log(EVENT_PREFIX + JSON.stringify(obj));
}

function findTestFiles(dir, pattern, recursive) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive && e.name !== 'node_modules') out.push(...findTestFiles(p, pattern, recursive));
    } else if (pattern.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

/** @param {typeof import('mocha')} Mocha */
function makeReporter(Mocha) {
  const { EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } =
    Mocha.Runner.constants;

  return class ExtTestReporter extends Mocha.reporters.Base {
    /** @param {import('mocha').Runner} runner @param {any} options */
    constructor(runner, options) {
      super(runner, options);
      let indent = 0;
      /** @type {{ title: string, err: any }[]} */
      const failures = [];
      const pad = () => '  '.repeat(indent);
      runner.once(EVENT_RUN_BEGIN, () => extLog(''));
      runner.on(EVENT_SUITE_BEGIN, (suite) => {
        if (suite.root) return;
        indent++;
        extLog('%s%s', pad(), suite.title);
      });
      runner.on(EVENT_SUITE_END, (suite) => {
        if (suite.root) return;
        indent--;
        if (indent === 0) extLog('');
      });
      runner.on(EVENT_TEST_PASS, (test) => {
        extLog('%s  ✔ %s (%d ms)', pad(), test.title, test.duration || 0);
        extEvent({ type: 'pass', title: test.fullTitle(), duration: test.duration });
      });
      runner.on(EVENT_TEST_PENDING, (test) => {
        extLog('%s  - %s (pending)', pad(), test.title);
        extEvent({ type: 'pending', title: test.fullTitle() });
      });
      runner.on(EVENT_TEST_FAIL, (test, err) => {
        failures.push({ title: test.fullTitle(), err });
        extLog('%s  ✗ %d) %s', pad(), failures.length, test.title);
        extEvent({ type: 'fail', title: test.fullTitle(), message: String(err && err.message) });
      });
      runner.once(EVENT_RUN_END, () => {
        const stats = runner.stats || /** @type {any} */ ({});
        extLog('');
        extLog('  %d passing (%d ms)', stats.passes || 0, stats.duration || 0);
        if (stats.pending) extLog('  %d pending', stats.pending);
        if (stats.failures) extLog('  %d failing', stats.failures);
        failures.forEach((f, i) => {
          extLog('');
          extLog('  %d) %s', i + 1, f.title);
          const err = f.err || {};
          const stack = typeof err.stack === 'string' ? err.stack : String(err);
          extLog('%s', stack.split('\n').map((l) => '     ' + l).join('\n'));
          // node:assert messages already carry a diff; print values for other assertion libraries.
          if (err.showDiff !== false && 'expected' in err && 'actual' in err && !/\n/.test(String(err.message))) {
            extLog('     expected: %s', typeof err.expected === 'string' ? err.expected : util.inspect(err.expected, { depth: 6 }));
            extLog('     actual:   %s', typeof err.actual === 'string' ? err.actual : util.inspect(err.actual, { depth: 6 }));
          }
        });
        extEvent({ type: 'end', passes: stats.passes || 0, failures: stats.failures || 0, pending: stats.pending || 0, duration: stats.duration || 0 });
      });
    }
  };
}

/**
 * Creates mocha, adds the test files and runs them. Resolves with 0 (no failure) or rejects with an
 * Error whose `failures` property is the failure count.
 * @param {object} [opts]
 * @param {string} [opts.testsDir]     folder searched for test files
 * @param {string[]} [opts.files]      explicit test files (absolute), instead of / in addition to testsDir
 * @param {RegExp} [opts.pattern]      default /\.test\.js$/
 * @param {boolean} [opts.recursive]   default true
 * @param {string} [opts.ui]           default 'bdd'
 * @param {number} [opts.timeout]      default MCP_HOST_TEST_MOCHA_TIMEOUT or 60000
 * @param {string} [opts.grep]         default MCP_HOST_TEST_GREP
 * @param {string[]} [opts.setupFiles] required before the test files (e.g. root hooks)
 * @param {string} [opts.mochaPath]    module id/path of mocha (default: 'mocha' from this repo)
 * @returns {Promise<number>}
 */
async function run(opts = {}) {
  /** @type {typeof import('mocha')} */
  const Mocha = require(opts.mochaPath || 'mocha');
  const timeout = opts.timeout || Number(process.env.MCP_HOST_TEST_MOCHA_TIMEOUT) || 60000;
  const grep = opts.grep || process.env.MCP_HOST_TEST_GREP || undefined;
  const mocha = new Mocha({
    ui: /** @type {any} */ (opts.ui || 'bdd'),
    timeout,
    color: false,
    reporter: /** @type {any} */ (makeReporter(Mocha)),
    ...(grep ? { grep } : {}),
  });
  const files = [...(opts.files || [])];
  if (opts.testsDir) files.push(...findTestFiles(opts.testsDir, opts.pattern || /\.test\.js$/, opts.recursive !== false));
  for (const f of opts.setupFiles || []) require(f);
  for (const f of files) mocha.addFile(f);
  let version = '?';
  try {
    version = require(`${opts.mochaPath || 'mocha'}/package.json`).version;
  } catch {
    /* unknown */
  }
  extLog('mocha %s in the extension host (node %s), %d test file%s', version, process.version, files.length, files.length === 1 ? '' : 's');
  if (files.length === 0) {
    const e = /** @type {any} */ (new Error('no test files found'));
    e.failures = 1;
    extEvent({ type: 'end', passes: 0, failures: 1, pending: 0, duration: 0 });
    throw e;
  }
  const failures = await new Promise((resolve, reject) => {
    try {
      mocha.run((n) => resolve(n));
    } catch (e) {
      extLog('mocha failed to load the tests: %s', e && /** @type {any} */ (e).stack || e);
      reject(e);
    }
  });
  if (failures > 0) {
    const e = /** @type {any} */ (new Error(`${failures} test${failures === 1 ? '' : 's'} failed`));
    e.failures = failures;
    throw e;
  }
  return 0;
}

module.exports = { run, extLog, extEvent, PREFIX, EVENT_PREFIX };
