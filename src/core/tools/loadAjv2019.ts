/**
 * The JSON Schema 2019-09 engine, loaded for the first schema that declares that dialect. In the
 * bundles, esbuild.js maps this require to the separate file dist/ajv2019.js (built from
 * ajv2019Engine.ts); under tsx and mocha it is the source.
 */
export function loadAjv2019(): typeof import('./ajv2019Engine') {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./ajv2019.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./ajv2019Engine') as typeof import('./ajv2019Engine');
}
