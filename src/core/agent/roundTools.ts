import type { ModelToolDefinition } from './agentMessages';
import { isOver, selectWithinBudget, TokenCountCache, type CountTokens, type ToolBudget } from './toolBudget';
import { ToolSearch } from './toolSearch';

export const SEARCH_TOOL_NAME = 'search_tools';
const DEFAULT_RESULTS = 10;
const MAX_RESULTS = 25;

export interface TokenCounter {
  /** Identifies the tokenizer in the cache (e.g. the model's id). */
  readonly key: string;
  readonly count: CountTokens;
}

export interface RoundToolsOptions {
  /** The user's request: what the tools are ranked against. */
  readonly query: string;
  /** Needed only when the budget has a token limit; without one, tokens are estimated as characters / 4. */
  readonly counter?: TokenCounter;
  readonly cache?: TokenCountCache;
}

/** What happened in one round, for the loop's progress line and its tests. */
export interface RoundSelection {
  readonly tools: readonly ModelToolDefinition[];
  /** The role's tools this round (what would be sent without a budget). */
  readonly available: number;
  readonly over: boolean;
  /** Tokens of the definitions sent, when counted. */
  readonly tokens?: number;
}

const ESTIMATE: TokenCounter = { key: 'chars/4', count: (t) => Math.ceil(t.length / 4) };

/**
 * The tools of each round of one agent run under the role's budget. Within budget: every tool of
 * the role. Over it: the tools found through `search_tools` so far, then the most relevant to the
 * request, plus the host tool `search_tools`, whose answers (matching names and descriptions, from
 * the role's tools only) are offered from the next round on. Calls of the tools found go through
 * the router like any other: role, validation, rules, confirmation and audit are unchanged.
 */
export class RoundTools {
  private readonly discovered: string[] = [];
  private current?: { readonly name: string; readonly search: ToolSearch; readonly offered: number; readonly available: number };
  private readonly cache: TokenCountCache;

  constructor(private readonly options: RoundToolsOptions) {
    this.cache = options.cache ?? new TokenCountCache();
  }

  /** `query`: what to rank against this round instead of the options' (a CLI session's driver names it per request). */
  async pick(all: readonly ModelToolDefinition[], budget: ToolBudget, query = this.options.query): Promise<RoundSelection> {
    const counter = budget.maxToolTokens !== undefined ? (this.options.counter ?? ESTIMATE) : undefined;
    const perTool = counter ? await this.countEach(all, counter) : undefined;
    const total = perTool ? sum(perTool.values()) : undefined;
    if (!isOver(all.length, total, budget)) {
      this.current = undefined;
      return { tools: all, available: all.length, over: false, ...(total !== undefined ? { tokens: total } : {}) };
    }
    const name = freeName(all);
    const search = ToolSearch.of(all);
    const draft = searchToolDefinition(name, 0, all.length);
    const reserved = counter ? await this.cache.count(counter.key, draft, counter.count) : 0;
    const chosen = selectWithinBudget(all, search.rank(query), this.discovered, budget, perTool, reserved);
    this.current = { name, search, offered: chosen.length, available: all.length };
    const tools = [...chosen, searchToolDefinition(name, chosen.length, all.length)];
    const tokens = perTool ? sum(chosen.map((d) => perTool.get(d.name) ?? 0)) + reserved : undefined;
    return { tools, available: all.length, over: true, ...(tokens !== undefined ? { tokens } : {}) };
  }

  /** Whether `name` is this round's `search_tools` (answered by the loop, not by a server). */
  handles(name: string): boolean {
    return this.current?.name === name;
  }

  /** Answers a `search_tools` call; what it finds is offered from the next round on. */
  search(input: unknown): { readonly text: string; readonly found: readonly string[] } {
    const current = this.current;
    if (!current) return { text: 'search_tools is not available in this step.', found: [] };
    const o = (input && typeof input === 'object' ? input : {}) as { query?: unknown; limit?: unknown };
    if (typeof o.query !== 'string' || !o.query.trim()) return { text: 'search_tools needs a "query": a few words about what you want to do.', found: [] };
    const limit = typeof o.limit === 'number' && Number.isFinite(o.limit) ? Math.min(MAX_RESULTS, Math.max(1, Math.floor(o.limit))) : DEFAULT_RESULTS;
    const hits = current.search.search(o.query, limit);
    if (!hits.length) return { text: `No tool matches ${JSON.stringify(o.query)}. Try other words (a verb and an object, e.g. "create invoice").`, found: [] };
    for (const h of hits) {
      const i = this.discovered.indexOf(h.name);
      if (i >= 0) this.discovered.splice(i, 1);
      this.discovered.push(h.name);
    }
    const lines = hits.map((h) => `- ${h.name}: ${oneLine(h.description, 300)}`);
    return {
      text: `${hits.length} tool${hits.length === 1 ? '' : 's'} matching ${JSON.stringify(o.query)}; they are available from your next step on, call them by name:\n${lines.join('\n')}`,
      found: hits.map((h) => h.name),
    };
  }

  private async countEach(all: readonly ModelToolDefinition[], counter: TokenCounter): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const d of all) out.set(d.name, await this.cache.count(counter.key, d, counter.count));
    return out;
  }
}

export function searchToolDefinition(name: string, offered: number, available: number): ModelToolDefinition {
  return {
    name,
    description:
      `Find more tools. This request offers ${offered} of the ${available} tools you may use; search the others by what you want to do. ` +
      'Returns the names and descriptions of matching tools, which you can call from your next step on.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in a few words (e.g. "refund an order")' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `Most tools to return (default ${DEFAULT_RESULTS})` },
      },
      required: ['query'],
    },
  };
}

/** `search_tools`, unless a server's tool already has that name (possible with toolNames "reject"). */
function freeName(all: readonly ModelToolDefinition[]): string {
  const taken = new Set(all.map((d) => d.name));
  let name = SEARCH_TOOL_NAME;
  for (let i = 2; taken.has(name); i++) name = `${SEARCH_TOOL_NAME}_${i}`;
  return name;
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
