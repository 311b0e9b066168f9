/** The tool search index's library: bundled apart as dist/minisearch.js and loaded by loadMiniSearch.ts. */
export { default as MiniSearch } from 'minisearch';
