/** Guards against a server whose cursors never end. */
export const MAX_PAGES = 1000;

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | null;
}

/**
 * Every page of a paginated MCP list (`resources/list`, `resources/templates/list`,
 * `prompts/list`), following `nextCursor`. A repeated cursor or more than MAX_PAGES pages is a
 * server bug and fails loudly.
 */
export async function listAllPages<T>(what: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return items;
    if (seen.has(next)) throw new Error(`${what} returned the cursor "${next}" twice`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`${what} did not finish after ${MAX_PAGES} pages`);
}
