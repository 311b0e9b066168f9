import type MiniSearch from 'minisearch';
import { loadMiniSearch } from './loadMiniSearch';
import type { ModelToolDefinition } from './agentMessages';

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from get give how i in is it me my of on or please show tell that the this to use using want what when which with you your'.split(' '),
);

/**
 * Words of a tool name or description, and of a request: lower case, split at spaces,
 * punctuation, `_`, `-`, `__` and camelCase humps (`searchIssues` → search, issues).
 */
export function toolWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * BM25 search over the tool definitions a role may see (MiniSearch's BM25+ scoring, name words
 * weighted over description words, prefix and light fuzzy matching for plurals and typos). Used to
 * pick the tools of a request that is over budget and to answer `search_tools`. Only ever built
 * from the role's own tools, so it cannot reveal a tool the role does not have.
 */
export class ToolSearch {
  private static last?: { readonly key: string; readonly search: ToolSearch };

  /**
   * The index of these tools, reused while names and descriptions are unchanged: building it for
   * 400 tools takes tens of milliseconds on a busy machine, every round of every request.
   */
  static of(tools: readonly ModelToolDefinition[]): ToolSearch {
    const key = tools.map((t) => `${t.name}\u0000${t.description}`).join('\u0001');
    const last = ToolSearch.last;
    if (last && last.key === key) return last.search.tools === tools ? last.search : new ToolSearch(tools, last.search.index);
    const search = new ToolSearch(tools);
    ToolSearch.last = { key, search };
    return search;
  }

  private readonly index: MiniSearch<{ id: number; name: string; description: string }>;

  constructor(
    private readonly tools: readonly ModelToolDefinition[],
    /** An index built over tools with the same names and descriptions, in the same order. */
    index?: MiniSearch<{ id: number; name: string; description: string }>,
  ) {
    if (index) {
      this.index = index;
      return;
    }
    const MiniSearch = loadMiniSearch();
    this.index = new MiniSearch({
      fields: ['name', 'description'],
      tokenize: toolWords,
      processTerm: (t) => t,
      searchOptions: { boost: { name: 3 }, prefix: (t) => t.length >= 3, fuzzy: (t) => (t.length >= 5 ? 0.2 : false), combineWith: 'OR' },
    });
    this.index.addAll(tools.map((t, id) => ({ id, name: t.name, description: t.description })));
  }

  /** Tools that match `query`, best first (ties keep the tools' order). */
  search(query: string, limit = Number.POSITIVE_INFINITY): ModelToolDefinition[] {
    if (!toolWords(query).length) return [];
    const hits = this.index.search(query);
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, limit).map((h) => this.tools[h.id]);
  }

  /** Every tool, the ones matching `query` first (best first), then the rest in their order. */
  rank(query: string): ModelToolDefinition[] {
    const matched = this.search(query);
    const seen = new Set(matched.map((t) => t.name));
    return [...matched, ...this.tools.filter((t) => !seen.has(t.name))];
  }
}
