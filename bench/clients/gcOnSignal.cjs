// Preloaded (`node --expose-gc --require gcOnSignal.cjs …`) into every session process of the
// sustained-session row, host and raw alike. On SIGUSR2 it runs a full garbage collection and
// writes "bench-gc <bytes>" to stderr, <bytes> being the size of V8's young generation (new space)
// afterwards. The bench then reads VmRSS from /proc: memory that is still live, not garbage V8 has
// not collected yet; and it can tell the young generation's own growth (V8 doubles its capacity
// once on its own, ~17 MB, which is not a leak) from the rest. The bench signals only between
// turns, never while it times calls.
'use strict';
const v8 = require('node:v8');

process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') {
    global.gc();
    global.gc();
  }
  const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stderr.write(`bench-gc ${newSpace ? newSpace.space_size : 0}\n`);
});
