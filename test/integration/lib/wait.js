'use strict';
// Polling and JSON-lines helpers shared by the extension-host suite and the Playwright side.
const fs = require('fs');

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Parsed JSON lines of a file ([] when it does not exist yet). A torn last line is skipped. */
function readJsonl(file) {
  if (!file || !fs.existsSync(file)) return [];
  const out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* being written */
    }
  }
  return out;
}

/**
 * Polls `fn` until it returns a truthy value (returned) or the time is up (throws with `what` and,
 * if given, `describe()`'s text to show what was seen instead).
 */
async function waitFor(what, fn, { timeout = 20000, interval = 100, describe } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      let seen = '';
      try {
        seen = describe ? `\n      seen: ${await describe()}` : last instanceof Error ? `\n      last error: ${last.message}` : '';
      } catch {
        /* ignore */
      }
      throw new Error(`timed out after ${timeout} ms waiting for ${what}${seen}`);
    }
    await sleep(interval);
  }
}

module.exports = { sleep, readJsonl, waitFor };
