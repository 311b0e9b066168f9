import type { ToolCallResult } from '../core/calls/toolRouter';

/** Base64 data longer than this is replaced by its size in the result document. */
const MAX_INLINE_DATA_CHARS = 200;

/** The result of "Call Tool…" as a read-only JSON document: outcome, timing, and the server's content. */
export function callResultDocument(result: ToolCallResult): string {
  const doc = {
    tool: result.name,
    server: result.server ?? null,
    originalName: result.tool ?? null,
    outcome: result.outcome,
    isError: result.isError,
    durationMs: result.durationMs,
    confirmedBy: result.confirmedBy,
    // What the router gave the model (explains denials, timeouts and invalid arguments too).
    modelText: result.modelText,
    content: result.content.map(shortenData),
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function shortenData(block: unknown): unknown {
  if (!block || typeof block !== 'object') return block;
  const b = block as Record<string, unknown>;
  const out: Record<string, unknown> = { ...b };
  if (typeof b.data === 'string' && b.data.length > MAX_INLINE_DATA_CHARS) out.data = `<${b.data.length} characters of base64>`;
  const resource = b.resource as Record<string, unknown> | undefined;
  if (resource && typeof resource.blob === 'string' && resource.blob.length > MAX_INLINE_DATA_CHARS) {
    out.resource = { ...resource, blob: `<${resource.blob.length} characters of base64>` };
  }
  return out;
}
