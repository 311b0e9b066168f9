/**
 * Tool budget: tokens of the tool definitions one model request carries, for a role of 400 tools,
 * without a budget (every definition, what MCP Host sent before issue 15) and with budgets
 * (the default maxTools 128; maxTools 40; maxToolTokens 4000), counted with gpt-tokenizer's
 * o200k_base over the same JSON the token budget counts. Also the time RoundTools takes to pick a
 * request's tools (BM25 ranking of 400 tools, counts cached), median over the prompts.
 *
 * Two tool sets: "fixture" = four real many-tools.mjs servers behind a real McpHost (short
 * schemas), "realistic" = bench/toolGenerator.ts definitions (nested schemas like real servers').
 *
 * Standalone: `node --import tsx bench/toolBudget.ts` prints a table and the JSON; the harness
 * can call `measureToolBudget()` and turn `rows` into its own rows (each has id, name, value,
 * unit, detail; none has a target: these are figures to read, not pass/fail checks).
 */
import { performance } from 'node:perf_hooks';
import { fixedConfirmer } from '../src/core/calls/confirmer';
import { toModelTools } from '../src/core/agent/agentLoop';
import type { ModelToolDefinition } from '../src/core/agent/agentMessages';
import { RoundTools } from '../src/core/agent/roundTools';
import { definitionText, TokenCountCache, type ToolBudget } from '../src/core/agent/toolBudget';
import { O200K_COUNTER } from '../src/cli/o200kTokenCounter';
import { McpHost } from '../src/core/host/mcpHost';
import { emptySettings, type StdioServerSettings } from '../src/core/settings/hostSettings';
import { envSecretResolver } from '../src/core/settings/resolveServerSettings';
import { fixturePath, nodeEnv } from '../test/fixtures/fixtureServers';
import { generateTools } from './toolGenerator';

export interface ToolBudgetRow {
  readonly id: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly detail: string;
}

export interface ToolBudgetFigures {
  readonly rows: readonly ToolBudgetRow[];
  readonly data: Record<string, unknown>;
}

/** Requests a user might send to a role with 400 tools. */
export const PROMPTS = [
  'Refund payment p-9 and tell me when it is done.',
  'Who owns the recipe service? Assign it to Dana.',
  'Export the budget report for last quarter as CSV.',
  'Approve every pending invoice of customer c-17.',
  'Archive the old deployment of the payments cluster.',
  'List the open incidents and the tickets linked to them.',
  'Create a new subscription for vendor acme.',
  'Update the course calendar for next week.',
];

const BUDGETS: readonly { readonly label: string; readonly budget: ToolBudget }[] = [
  { label: 'no budget', budget: { maxTools: Number.MAX_SAFE_INTEGER } },
  { label: 'maxTools 128 (default)', budget: { maxTools: 128 } },
  { label: 'maxTools 40', budget: { maxTools: 40 } },
  { label: 'maxToolTokens 4000', budget: { maxTools: 128, maxToolTokens: 4000 } },
];

/** Definitions of a role of 400 tools served by four real many-tools.mjs processes through McpHost. */
async function fixtureDefinitions(): Promise<ModelToolDefinition[]> {
  const servers: StdioServerSettings[] = ['crm', 'billing', 'support', 'devops'].map((name, i) => ({
    name,
    type: 'stdio',
    enabled: true,
    command: process.execPath,
    args: [fixturePath('many-tools')],
    env: { ...nodeEnv(), FIXTURE_TOOL_COUNT: '100', FIXTURE_TOOL_OFFSET: String(i * 100) },
    connectTimeoutMs: 20_000,
  }));
  const host = new McpHost({ settings: { ...emptySettings(), servers }, secrets: envSecretResolver({}), confirmer: fixedConfirmer('deny'), env: {} });
  try {
    await host.start();
    return toModelTools(host.snapshot().exposed);
  } finally {
    await host.close();
  }
}

function realisticDefinitions(): ModelToolDefinition[] {
  return [0, 1, 2, 3].flatMap((s) =>
    generateTools(s, 100).map((t) => ({ name: `s${s}__${t.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`, description: t.description ?? t.name, inputSchema: t.inputSchema as Record<string, unknown> })),
  );
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function measureSet(set: string, defs: readonly ModelToolDefinition[], rows: ToolBudgetRow[], data: Record<string, unknown>): Promise<void> {
  const cache = new TokenCountCache();
  const all = defs.reduce((n, d) => n + O200K_COUNTER.count(definitionText(d)), 0);
  const perBudget: Record<string, unknown> = {};
  for (const { label, budget } of BUDGETS) {
    const tokens: number[] = [];
    const tools: number[] = [];
    const ms: number[] = [];
    for (const prompt of PROMPTS) {
      const rt = new RoundTools({ query: prompt, counter: O200K_COUNTER, cache });
      await rt.pick(defs, budget); // warm the count cache: a chat session counts each definition once
      const started = performance.now();
      const pick = await rt.pick(defs, budget);
      ms.push(performance.now() - started);
      tools.push(pick.tools.length);
      tokens.push(pick.tools.reduce((n, d) => n + O200K_COUNTER.count(definitionText(d)), 0));
    }
    const med = median(tokens);
    perBudget[label] = { tokensPerRequest: tokens, toolsPerRequest: tools, pickMs: ms.map((x) => Math.round(x * 100) / 100) };
    rows.push({
      id: `toolBudget.${set}.${label.replace(/\W+/g, '_')}`,
      name: `${set}: definitions' tokens per request, ${label}`,
      value: med,
      unit: 'tokens',
      detail: `${median(tools)} tools (max ${Math.max(...tools)}); ${Math.round((100 * med) / all)}% of the role's ${all} tokens; pick ${median(ms).toFixed(2)} ms median over ${PROMPTS.length} prompts`,
    });
  }
  data[set] = { tools: defs.length, tokensAll: all, budgets: perBudget };
}

/** Tokens of the definitions per request for a role of 400 tools, with and without the budget. */
export async function measureToolBudget(): Promise<ToolBudgetFigures> {
  const rows: ToolBudgetRow[] = [];
  const data: Record<string, unknown> = { tokenizer: O200K_COUNTER.key, prompts: PROMPTS };
  await measureSet('fixture', await fixtureDefinitions(), rows, data);
  await measureSet('realistic', realisticDefinitions(), rows, data);
  return { rows, data };
}

if (require.main === module) {
  void measureToolBudget().then((r) => {
    for (const row of r.rows) console.log(`${row.name.padEnd(72)} ${String(row.value).padStart(7)} ${row.unit}  ${row.detail}`);
    console.log(JSON.stringify(r.data));
  });
}
