// Preloaded (`node --require peakRss.cjs …`) into both sides of the one-shot call row: when the
// process exits it writes "bench-peak-rss <bytes>" (its peak RSS, getrusage ru_maxrss) to stderr.
'use strict';
process.on('exit', () => {
  process.stderr.write(`bench-peak-rss ${process.resourceUsage().maxRSS * 1024}\n`);
});
