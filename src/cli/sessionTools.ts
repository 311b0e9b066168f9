import { toModelTools } from '../core/agent/agentLoop';
import type { ModelToolDefinition } from '../core/agent/agentMessages';
import { RoundTools, SEARCH_TOOL_NAME } from '../core/agent/roundTools';
import { parseCallArguments } from '../core/calls/callArguments';
import type { McpHost } from '../core/host/mcpHost';
import type { CallView, ToolView } from './jsonViews';
import { toolViews } from './jsonViews';
import { O200K_COUNTER } from './o200kTokenCounter';

/** `search_tools` in a `tools` answer: a tool of the host, not of a server. */
export interface HostToolView extends Omit<ToolView, 'server' | 'tool'> {
  readonly server: null;
  readonly tool: null;
  readonly host: true;
}

/**
 * The tools a session offers the model that drives it, as `@mcp` offers them (RoundTools, the chat's
 * own budget logic): within the role's budget (maxTools, maxToolTokens counted with o200k_base)
 * every tool; over it the tools found through `search_tools` so far, then the most relevant to the
 * driver's last `query`, plus `search_tools`, which this session answers. Calls of any tool of the
 * role still go through the router.
 */
export class SessionTools {
  private readonly round = new RoundTools({ query: '', counter: O200K_COUNTER });
  /** The last query a `tools` request named: later requests without one keep ranking by it. */
  private query = '';

  constructor(private readonly host: McpHost) {}

  /** `{"op":"tools"}`: `all` lists every tool of the role regardless of the budget. */
  async offer(options: { readonly query?: string; readonly all?: boolean } = {}): Promise<Record<string, unknown>> {
    const snapshot = this.host.snapshot();
    const views = toolViews(snapshot);
    const role = snapshot.role ?? null;
    if (options.all) return { role, tools: views };
    if (options.query !== undefined) this.query = options.query;
    const pick = await this.round.pick(toModelTools(snapshot.exposed), snapshot.toolBudget, this.query);
    if (!pick.over) return { role, tools: views };
    const byName = new Map(views.map((v) => [v.name, v]));
    const tools = pick.tools.map((d): ToolView | HostToolView => byName.get(d.name) ?? hostToolView(d));
    return { role, tools, budget: { available: pick.available, offered: pick.tools.length - 1, ...(pick.tokens !== undefined ? { tokens: pick.tokens } : {}) } };
  }

  /**
   * A call of `search_tools`, answered here (like the chat's loop does): undefined when `name` is not
   * the search tool of the current offer (within budget there is none; the router answers notFound).
   */
  async search(name: string, args: unknown): Promise<(CallView & { readonly found: readonly string[] }) | undefined> {
    if (!name.startsWith(SEARCH_TOOL_NAME)) return undefined;
    // A driver may search before it asked for the tools: the offer is made first, as a request would.
    if (!this.round.handles(name)) await this.offer();
    if (!this.round.handles(name)) return undefined;
    const started = performance.now();
    const parsed = parseCallArguments(args);
    const { text, found } = this.round.search(parsed.ok ? parsed.args : undefined);
    return {
      name,
      server: null,
      tool: null,
      outcome: 'ok',
      confirmedBy: null,
      durationMs: Math.round(performance.now() - started),
      content: [{ type: 'text', text }],
      modelText: text,
      found,
    };
  }
}

function hostToolView(d: ModelToolDefinition): HostToolView {
  return { name: d.name, server: null, tool: null, host: true, confirm: 'auto', description: d.description, inputSchema: d.inputSchema };
}
