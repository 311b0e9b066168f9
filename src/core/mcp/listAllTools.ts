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
  /** Who the list may be served to again (2026-07-28 `cacheScope` of the first page), when the server said. */
  readonly cacheScope?: 'public' | 'private';
  /** Only what a one-shot call needs (the entries of one name), not the server's whole list. */
  readonly partial?: true;
}

/** What the first page said about serving the list again. */
export interface CacheHint {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
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
  /**
   * With `stopAfter`: asked once the first page is read; true lists every page after all (each tool
   * checked) so that the whole list can be kept for later calls (ToolListStore), and the result is
   * then the whole list, with `ttlMs` and `cacheScope`: the caller keeps only the named tool (narrowTo).
   */
  readonly whole?: (hint: CacheHint) => boolean;
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
  let cacheScope: 'public' | 'private' | undefined;
  const done = () => ({ tools, problems, ...(ttlMs !== undefined ? { ttlMs } : {}), ...(cacheScope !== undefined ? { cacheScope } : {}) });
  const check = { headers: options.headers };
  let stopAfter = options.stopAfter;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? undefined : { cursor } }, AnyObjectSchema, {
      timeout: options.timeoutMs,
      signal: options.signal,
    });
    if (!Array.isArray(result.tools)) throw new Error(`tools/list answered without a "tools" array (page ${page + 1})`);
    if (page === 0) {
      if (typeof result.ttlMs === 'number' && Number.isFinite(result.ttlMs)) ttlMs = result.ttlMs;
      if (result.cacheScope === 'public' || result.cacheScope === 'private') cacheScope = result.cacheScope;
      if (stopAfter !== undefined && options.whole?.({ ttlMs, cacheScope })) stopAfter = undefined;
    }
    const checked = stopAfter === undefined ? checkToolDefinitions(result.tools, listed, check) : checkNamed(result.tools, listed, stopAfter, check);
    listed += result.tools.length;
    for (const t of checked.tools) tools.push(t);
    for (const p of checked.problems) problems.push(p);
    // A one-shot call needs one tool: the pages after the one that lists it cannot change its name
    // (oneShotTarget), and the other tools of this page are offered to nobody.
    if (stopAfter !== undefined && checked.tools.length > 0) return { tools, problems, partial: true };
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return stopAfter === undefined ? done() : { tools, problems, partial: true };
    if (typeof next !== 'string') throw new Error(`tools/list answered with a nextCursor that is not a string (page ${page + 1})`);
    if (seen.has(next)) throw new Error(`tools/list returned the cursor "${next}" twice`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`tools/list did not finish after ${MAX_TOOL_PAGES} pages`);
}

/**
 * What a one-shot call keeps of a whole list (a kept one, or one listed whole to be kept): the
 * entries named `name`, each checked again as a listing's would be (a kept list is a file, read back
 * like a server's answer), with the whole list's problems about that name.
 */
export function narrowTo(
  whole: { readonly tools: readonly unknown[]; readonly problems: readonly ToolDefinitionProblem[] },
  name: string,
  check: CheckOptions = {},
): ListedTools {
  const again = checkNamed(whole.tools, 0, name, check);
  return { tools: again.tools, problems: [...whole.problems.filter((p) => p.tool === name), ...again.problems], partial: true };
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
