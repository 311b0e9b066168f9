/**
 * MiniSearch, loaded when the first tool search index is built (a request over the tool budget, or
 * `search_tools`). In the bundles, esbuild.js maps this require to the separate file
 * dist/minisearch.js (built from miniSearchEngine.ts); under tsx and mocha it is the source.
 */
export function loadMiniSearch(): typeof import('./miniSearchEngine').MiniSearch {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./minisearch.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./miniSearchEngine') as typeof import('./miniSearchEngine')).MiniSearch;
}
