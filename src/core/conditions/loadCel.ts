/**
 * The CEL environment of rule conditions (celFunctions.ts and the CEL library), loaded when the
 * first condition is checked: when the setting that holds it is read, so a bad condition is reported
 * as early and as clearly as ever. In the bundles, esbuild.js maps this require to the separate file
 * dist/cel.js (built from celFunctions.ts); under tsx and mocha it is the source.
 */
export function loadCel(): typeof import('./celFunctions') {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./cel.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./celFunctions') as typeof import('./celFunctions');
}
