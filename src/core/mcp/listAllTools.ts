import type { Client } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import type { SecretRedactor } from '../audit/secretRedactor';
import { checkToolDefinitions, type CheckOptions, type ToolDefinitionProblem } from './checkToolDefinitions';
import { AnyObjectSchema } from './anyObjectSchema';
import { isPlainObject } from '../settings/isPlainObject';

/** Guards against a server whose cursors never end. */
export const MAX_TOOL_PAGES = 1000;

export interface ListedTools {
  readonly tools: Tool[];
  /** Tools (or parts of them) that were dropped, with the reason. */
  readonly problems: ToolDefinitionProblem[];
  /** How long the list may be served again (2026-07-28 `ttlMs` of the first page), when the server said. */
  readonly ttlMs?: number;
}

export interface ListOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /**
   * A one-shot call: stop after the page that lists a usable tool of this name, and keep only that
   * tool (and the problems of entries of that name). The other entries are neither checked nor kept.
   */
  readonly stopAfter?: string;
  /** Leave out tools with invalid `x-mcp-header` declarations: the connection mirrors arguments into HTTP headers (mirrorsHeaders). */
  readonly headers?: boolean;
}

/**
 * `tools/list` following every `nextCursor` (the SDK's listTools reads one page only), each tool
 * checked on its own (checkToolDefinitions): one malformed tool never costs the others. A page
 * without a `tools` array, a repeated cursor or more than MAX_TOOL_PAGES pages is a server bug
 * and fails loudly.
 */
export async function listAllTools(client: Client, options: ListOptions): Promise<ListedTools> {
  const tools: Tool[] = [];
  const problems: ToolDefinitionProblem[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let listed = 0;
  let ttlMs: number | undefined;
  const done = () => ({ tools, problems, ...(ttlMs !== undefined ? { ttlMs } : {}) });
  const check = { headers: options.headers };
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? undefined : { cursor } }, AnyObjectSchema, {
      timeout: options.timeoutMs,
      signal: options.signal,
    });
    if (!Array.isArray(result.tools)) throw new Error(`tools/list answered without a "tools" array (page ${page + 1})`);
    if (page === 0 && typeof result.ttlMs === 'number' && Number.isFinite(result.ttlMs)) ttlMs = result.ttlMs;
    const checked = options.stopAfter === undefined ? checkToolDefinitions(result.tools, listed, check) : checkNamed(result.tools, listed, options.stopAfter, check);
    listed += result.tools.length;
    for (const t of checked.tools) tools.push(t);
    for (const p of checked.problems) problems.push(p);
    // A one-shot call needs one tool: the pages after the one that lists it cannot change its name
    // (oneShotTarget), and the other tools of this page are offered to nobody.
    if (options.stopAfter !== undefined && checked.tools.length > 0) return { tools, problems };
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return done();
    if (typeof next !== 'string') throw new Error(`tools/list answered with a nextCursor that is not a string (page ${page + 1})`);
    if (seen.has(next)) throw new Error(`tools/list returned the cursor "${next}" twice`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`tools/list did not finish after ${MAX_TOOL_PAGES} pages`);
}

/** Only the entries named `name` of a page, each checked as checkToolDefinitions would (same problems, same index). */
function checkNamed(page: readonly unknown[], offset: number, name: string, check: CheckOptions): ReturnType<typeof checkToolDefinitions> {
  const tools: Tool[] = [];
  const problems: ToolDefinitionProblem[] = [];
  page.forEach((entry, i) => {
    if (!isPlainObject(entry) || entry.name !== name) return;
    const checked = checkToolDefinitions([entry], offset + i, check);
    for (const t of checked.tools) tools.push(t);
    for (const p of checked.problems) problems.push(p);
  });
  return { tools, problems };
}

/**
 * A server's tools as the host keeps them: every page, each tool checked; nothing for a server
 * without the tools capability (it is never sent tools/list). A secret a server echoes in a
 * definition is masked, so it never reaches a model or a view.
 */
export async function discoverTools(client: Client, options: ListOptions, redactor: SecretRedactor): Promise<ListedTools> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], problems: [] };
  const listed = await listAllTools(client, options);
  return { ...listed, tools: redactor.deep(listed.tools), problems: listed.problems.map((p) => ({ ...p, message: redactor.text(p.message) })) };
}

/** The problems of `now` that `before` did not have: each is logged once, not again at every refresh. */
export function newProblems(before: readonly ToolDefinitionProblem[], now: readonly ToolDefinitionProblem[]): ToolDefinitionProblem[] {
  const known = new Set(before.map((p) => p.message));
  return now.filter((p) => !known.has(p.message));
}
