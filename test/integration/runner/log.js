// @ts-check
'use strict';
// The runner's own lines go to stderr, so stdout carries only the tests' output and the counts.

function log(...args) {
  process.stderr.write(`[runner] ${args.join(' ')}\n`);
}

module.exports = { log };
