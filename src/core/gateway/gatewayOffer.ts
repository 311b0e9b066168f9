import type { Tool } from '@modelcontextprotocol/server';
import { toModelTools } from '../agent/agentLoop';
import { RoundTools } from '../agent/roundTools';
import type { HostSnapshot } from '../host/hostSnapshot';

/** The tool list one upstream client is offered, and the answers to its `search_tools` calls. */
export interface OfferedTools {
  readonly tools: Tool[];
  /** The name of this offer's `search_tools` when the role's budget is exceeded. */
  readonly searchTool?: string;
}

/**
 * What one upstream client is offered: exactly the active role's view (the registry's exposed
 * names, their reviewed definitions, quarantined and out-of-role tools absent). Over the role's
 * budget, RoundTools picks the tools as it does for `@mcp`: the ones found with `search_tools`
 * first, plus `search_tools` itself, whose finds are offered from the next `tools/list` on.
 */
export class GatewayOffer {
  private readonly round = new RoundTools({ query: '' });

  /** `annotateForEditor`: tools the host auto-approves say so (`readOnlyHint`), tools that ask never do. */
  constructor(private readonly annotateForEditor: boolean) {}

  async list(snapshot: HostSnapshot): Promise<OfferedTools> {
    const exposed = snapshot.exposed;
    const pick = await this.round.pick(toModelTools(exposed), snapshot.toolBudget);
    const chosen = new Set(pick.tools.map((t) => t.name));
    const tools: Tool[] = [];
    for (const { entry, rule } of exposed) {
      if (!chosen.has(entry.name)) continue;
      const autoApproved = rule === 'auto' && !snapshot.tool(entry.server, entry.tool.name)?.argumentRules;
      tools.push(this.definition(entry.tool as Tool, entry.name, autoApproved));
    }
    if (!pick.over) return { tools };
    const search = pick.tools[pick.tools.length - 1];
    tools.push({ name: search.name, description: search.description, inputSchema: search.inputSchema as Tool['inputSchema'], annotations: { readOnlyHint: true } });
    return { tools, searchTool: search.name };
  }

  /** Whether `name` is the current offer's `search_tools` (answered by the gateway, not a server). */
  handlesSearch(name: string): boolean {
    return this.round.handles(name);
  }

  search(args: unknown): { readonly text: string; readonly found: readonly string[] } {
    return this.round.search(args);
  }

  private definition(tool: Tool, name: string, autoApproved: boolean): Tool {
    if (!this.annotateForEditor) return { ...tool, name };
    const annotations = { ...(tool.annotations ?? {}) };
    if (autoApproved) annotations.readOnlyHint = true;
    else delete annotations.readOnlyHint;
    return { ...tool, name, annotations };
  }
}
