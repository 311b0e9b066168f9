import type { ModelToolDefinition } from './agentMessages';

/** How many tool definitions (and tokens of them) one model request may carry. */
export interface ToolBudget {
  readonly maxTools: number;
  /** Undefined: no token limit. */
  readonly maxToolTokens?: number;
}

/** Counts the tokens of a text with some model's tokenizer. */
export type CountTokens = (text: string) => number | Promise<number>;

/**
 * The text whose tokens are counted for one definition: what a model API receives for a tool
 * (name, description, JSON schema of the parameters). Providers wrap it in their own framing, so
 * the count is a close estimate of what the definitions cost, the same for every tool.
 */
export function definitionText(def: ModelToolDefinition): string {
  return JSON.stringify({ name: def.name, description: def.description, parameters: def.inputSchema });
}

/**
 * Remembers counts per tokenizer and definition, so a request re-counts only changed tools. The
 * schema objects come from the registry unchanged until a tool changes, so they are looked up by
 * identity first (serialising 400 schemas per round would cost more than the ranking).
 */
export class TokenCountCache {
  private readonly counts = new Map<string, number>();
  private readonly bySchema = new WeakMap<object, Map<string, number>>();

  constructor(private readonly maxEntries = 20_000) {}

  async count(key: string, def: ModelToolDefinition, countTokens: CountTokens): Promise<number> {
    const short = `${key}\u0000${def.name}\u0000${def.description}`;
    let perSchema = this.bySchema.get(def.inputSchema);
    const known = perSchema?.get(short);
    if (known !== undefined) return known;
    const text = definitionText(def);
    const id = `${key}\u0000${text}`;
    let n = this.counts.get(id);
    if (n === undefined) {
      n = await countTokens(text);
      if (this.counts.size >= this.maxEntries) this.counts.clear();
      this.counts.set(id, n);
    }
    if (!perSchema) this.bySchema.set(def.inputSchema, (perSchema = new Map()));
    perSchema.set(short, n);
    return n;
  }
}

/** What a role's definitions cost, as `/tools`, the tree and `check` show it. */
export interface ToolBudgetMeasure {
  readonly tools: number;
  /** Undefined when nothing counted them. */
  readonly tokens?: number;
  readonly budget: ToolBudget;
  /** More tools or tokens than the budget: requests carry a selection plus `search_tools`. */
  readonly over: boolean;
}

/** Counts each definition (cached) and compares with the budget. */
export async function measureTools(
  defs: readonly ModelToolDefinition[],
  budget: ToolBudget,
  counter?: { readonly key: string; readonly count: CountTokens; readonly cache?: TokenCountCache },
): Promise<ToolBudgetMeasure & { readonly perTool?: ReadonlyMap<string, number> }> {
  if (!counter) return { tools: defs.length, budget, over: defs.length > budget.maxTools };
  const cache = counter.cache ?? new TokenCountCache();
  const perTool = new Map<string, number>();
  for (const d of defs) perTool.set(d.name, await cache.count(counter.key, d, counter.count));
  const tokens = [...perTool.values()].reduce((a, b) => a + b, 0);
  return { tools: defs.length, tokens, budget, over: isOver(defs.length, tokens, budget), perTool };
}

export function isOver(tools: number, tokens: number | undefined, budget: ToolBudget): boolean {
  return tools > budget.maxTools || (budget.maxToolTokens !== undefined && tokens !== undefined && tokens > budget.maxToolTokens);
}

/** One line for views: "400 tools · 41,600 tokens · over budget (128 tools)". */
export function describeMeasure(m: ToolBudgetMeasure): string {
  const parts = [`${m.tools} tool${m.tools === 1 ? '' : 's'}`];
  if (m.tokens !== undefined) parts.push(`${m.tokens.toLocaleString('en-US')} tokens`);
  const limit = [`${m.budget.maxTools} tools`, ...(m.budget.maxToolTokens !== undefined ? [`${m.budget.maxToolTokens.toLocaleString('en-US')} tokens`] : [])].join(', ');
  parts.push(m.over ? `over budget (${limit}): requests get the most relevant tools + search_tools` : `budget ${limit}`);
  return parts.join(' · ');
}

/**
 * Picks the definitions of one request within the budget: first the tools the model found with
 * `search_tools` (latest first), then the role's tools ranked by relevance to the request, each
 * taken while there is room for it (in count and tokens) next to `search_tools`. Returned in the
 * role's order. `tokens` holds each definition's count (needed only with a token limit).
 */
export function selectWithinBudget(
  all: readonly ModelToolDefinition[],
  ranked: readonly ModelToolDefinition[],
  discovered: readonly string[],
  budget: ToolBudget,
  tokens: ReadonlyMap<string, number> | undefined,
  reservedTokens: number,
): ModelToolDefinition[] {
  const byName = new Map(all.map((d) => [d.name, d]));
  const order = [...[...discovered].reverse().map((n) => byName.get(n)).filter((d): d is ModelToolDefinition => !!d), ...ranked];
  const room = budget.maxTools - 1;
  let left = budget.maxToolTokens !== undefined ? budget.maxToolTokens - reservedTokens : Number.POSITIVE_INFINITY;
  const chosen = new Set<string>();
  for (const d of order) {
    if (chosen.size >= room) break;
    if (chosen.has(d.name)) continue;
    const cost = tokens?.get(d.name) ?? 0;
    if (cost > left) continue;
    chosen.add(d.name);
    left -= cost;
  }
  return all.filter((d) => chosen.has(d.name));
}
