// @ts-check
'use strict';
/*
 * Cleanup registry of the runner: every process and folder it starts registers its teardown here,
 * run at the end of a run (cleanupAll), on SIGINT/SIGTERM/SIGHUP and, synchronously and best
 * effort, on process exit.
 */
const { log } = require('./log');

/** @type {{ name: string, async: () => Promise<void>, sync: () => void }[]} */
const cleanups = [];
let cleaningUp = null;

/** Register a cleanup; `sync` must be safe to call from process.on('exit'). Returns an unregister fn. */
function registerCleanup(name, asyncFn, syncFn) {
  const entry = { name, async: asyncFn, sync: syncFn || (() => {}) };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** Runs all cleanups (last registered first). Idempotent. */
function cleanupAll() {
  if (!cleaningUp) {
    cleaningUp = (async () => {
      while (cleanups.length) {
        const c = cleanups.pop();
        const t = Date.now();
        try {
          await c.async();
          if (process.env.MCP_HOST_TEST_VERBOSE === '1') log(`cleanup ${c.name}: ${Date.now() - t} ms`);
        } catch (e) {
          log(`cleanup ${c.name} failed: ${e && e.message}`);
        }
      }
    })().finally(() => {
      cleaningUp = null;
    });
  }
  return cleaningUp;
}

let signalHandlersInstalled = false;
function installSignalHandlers() {
  if (signalHandlersInstalled) return;
  signalHandlersInstalled = true;
  const onSignal = (sig, code) => {
    log(`${sig} received, cleaning up`);
    const hard = setTimeout(() => process.exit(code), 10000);
    hard.unref();
    cleanupAll().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => onSignal('SIGINT', 130));
  process.on('SIGTERM', () => onSignal('SIGTERM', 143));
  process.on('SIGHUP', () => onSignal('SIGHUP', 129));
  process.on('exit', () => {
    for (const c of cleanups.slice().reverse()) {
      try {
        c.sync();
      } catch {
        /* best effort */
      }
    }
  });
}
module.exports = { registerCleanup, cleanupAll, installSignalHandlers };
