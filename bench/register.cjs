/**
 * Loads the benchmarks' TypeScript (bench/ and the src/ they drive) the way esbuild.js compiles the
 * shipped bundles: esbuild's transform, target node20, no `keepNames`. tsx (which the tests use)
 * keeps names: it wraps every function and closure it compiles in a `__name(fn, "…")` call, a
 * `defineProperty` each time a closure is created. On the host's call path that is a few
 * microseconds per call that dist/extension.js and dist/cli.js never pay, so an in-process host
 * under tsx was not the host users run. `npm run bench` preloads this file
 * (`node --require ./bench/register.cjs bench/run.ts`); the large-result runners too.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('esbuild');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: filename,
    sourcemap: 'inline',
  });
  module._compile(code, filename);
};
