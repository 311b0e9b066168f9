import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Guards against a server whose cursors never end. */
export const MAX_TOOL_PAGES = 1000;

/**
 * `tools/list` following every `nextCursor` (the SDK's listTools reads one page only).
 * A repeated cursor or more than MAX_TOOL_PAGES pages is a server bug and fails loudly.
 * `stopAfter`: stop after the page that lists a tool of this name.
 */
export async function listAllTools(client: Client, options: { timeoutMs: number; signal?: AbortSignal; stopAfter?: string }): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout: options.timeoutMs,
      signal: options.signal,
    });
    tools.push(...result.tools);
    // A one-shot call needs one tool: the pages after the one that lists it cannot change its name.
    if (options.stopAfter !== undefined && result.tools.some((t) => t.name === options.stopAfter)) return tools;
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return tools;
    if (seen.has(next)) throw new Error(`tools/list returned the cursor "${next}" twice`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`tools/list did not finish after ${MAX_TOOL_PAGES} pages`);
}
