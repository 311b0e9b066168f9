/** How a chat request names a resource to attach: `#mcp:<server>/<uri>` (the server part ends at the first "/"). */
export const REFERENCE_PREFIX = '#mcp:';

export interface ResourceReference {
  readonly server: string;
  readonly uri: string;
  /** The text as written in the request. */
  readonly text: string;
}

/** The reference that attaches `uri` of `server` to an `@mcp` request. */
export function resourceReference(server: string, uri: string): string {
  return `${REFERENCE_PREFIX}${server}/${uri}`;
}

/**
 * Every `#mcp:server/uri` in a request, each once, in order. A reference ends at whitespace;
 * sentence punctuation right after it (".", ",", ";", ":", "!", "?", ")") is not part of the URI.
 */
export function parseResourceReferences(prompt: string): ResourceReference[] {
  const out: ResourceReference[] = [];
  const seen = new Set<string>();
  for (const m of prompt.matchAll(/(^|\s)#mcp:(\S+)/g)) {
    const raw = m[2].replace(/[.,;:!?)]+$/, '');
    const slash = raw.indexOf('/');
    if (slash <= 0 || slash === raw.length - 1) continue;
    const server = raw.slice(0, slash);
    const uri = raw.slice(slash + 1);
    const key = `${server}\n${uri}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ server, uri, text: `${REFERENCE_PREFIX}${raw}` });
  }
  return out;
}
