import type { Tool } from '@modelcontextprotocol/client';

/** Each listing's tools by name (the first of a name), built on the first lookup in that listing. */
const indexes = new WeakMap<readonly Tool[], ReadonlyMap<string, Tool>>();

/**
 * The definition of `name` in a server's tool list, as `tools.find(t => t.name === name)` gives it,
 * without searching the whole list on every call (20,000 tools on the one-shot bench's server).
 * A listing is an array nobody changes; a new listing is a new array with its own index.
 */
export function listedTool(tools: readonly Tool[], name: string): Tool | undefined {
  let byName = indexes.get(tools);
  if (!byName) {
    const index = new Map<string, Tool>();
    for (const t of tools) if (!index.has(t.name)) index.set(t.name, t);
    indexes.set(tools, (byName = index));
  }
  return byName.get(name);
}
