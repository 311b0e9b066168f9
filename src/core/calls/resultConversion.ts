import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import { flatHead } from '../mcp/flatHead';
import { copyString } from '../util/copyString';

/** Model-neutral result parts; the editor adapter maps them to vscode.lm parts. */
export type ModelPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'data'; readonly kind: 'image' | 'audio'; readonly mimeType: string; readonly data: Uint8Array };

export interface ConvertedResult {
  readonly parts: readonly ModelPart[];
  /** Exactly the text a model is given, with a placeholder line for each non-text part. */
  readonly modelText: string;
  readonly truncated: boolean;
}

/**
 * Convert a `tools/call` result into parts for a model, capping the total text at `maxChars`.
 * `dropped`: parts the host could not use (malformed blocks), each said in one line.
 */
export function convertResult(result: Pick<CallToolResult, 'content' | 'structuredContent'>, maxChars: number, dropped: readonly string[] = []): ConvertedResult {
  const parts: ModelPart[] = [];
  /** A flat prefix of a part's text where the text is a rope (a long text as read): capping reads it, not the rope. */
  const heads = new Map<ModelPart, string>();
  const content = (result.content ?? []) as ContentBlock[];
  let hasText = false;
  for (const block of content) {
    switch (block.type) {
      case 'text':
        hasText = true;
        pushText(parts, heads, block.text, flatHead(block, 'text'));
        break;
      case 'image':
      case 'audio': {
        // The decoded bytes themselves when they have a buffer of their own (large data: no second
        // copy); a copy when Node put them in its shared pool (small data), which must not travel.
        const data = Buffer.from(block.data, 'base64');
        const bytes = data.byteOffset === 0 && data.buffer.byteLength === data.byteLength ? new Uint8Array(data.buffer) : new Uint8Array(data);
        parts.push({ type: 'data', kind: block.type, mimeType: block.mimeType, data: bytes });
        break;
      }
      case 'resource': {
        const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        if (typeof r.text === 'string') {
          hasText = true;
          const label = `[resource ${r.uri}]\n`;
          const head = flatHead(r, 'text');
          pushText(parts, heads, label + r.text, head === undefined ? undefined : label + head);
        } else {
          const size = r.blob ? Math.floor((r.blob.length * 3) / 4) : 0;
          parts.push({ type: 'text', text: `[binary resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}, ${formatBytes(size)}]` });
        }
        break;
      }
      case 'resource_link':
        parts.push({
          type: 'text',
          text: `[resource link: ${block.name}${block.title && block.title !== block.name ? ` (${block.title})` : ''} ${block.uri}${block.description ? ` — ${block.description}` : ''}]`,
        });
        break;
      default:
        parts.push({ type: 'text', text: `[unsupported content type "${(block as { type: string }).type}"]` });
    }
  }
  if (!hasText && result.structuredContent !== undefined) {
    // Base64 payloads (an image also given as a content block) are no text for a model.
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent, elideBlobs, 2) });
  }
  for (const why of dropped) parts.push({ type: 'text', text: `[MCP Host dropped part of the result: ${why}]` });
  if (parts.length === 0) parts.push({ type: 'text', text: '(the tool returned no content)' });
  return capText(parts, maxChars, heads);
}

function pushText(parts: ModelPart[], heads: Map<ModelPart, string>, text: string, head: string | undefined): void {
  const part: ModelPart = { type: 'text', text };
  parts.push(part);
  if (head !== undefined) heads.set(part, head);
}

/** A one-line placeholder for data parts, used in modelText, logs and the audit. */
export function placeholder(part: Extract<ModelPart, { type: 'data' }>): string {
  return `[${part.kind} ${part.mimeType}, ${formatBytes(part.data.byteLength)}]`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function capText(parts: ModelPart[], maxChars: number, heads: ReadonlyMap<ModelPart, string>): ConvertedResult {
  const total = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  let budget = maxChars;
  let truncated = false;
  const out: ModelPart[] = [];
  for (const p of parts) {
    if (p.type !== 'text') {
      out.push(p);
      continue;
    }
    if (budget <= 0) {
      truncated = true;
      continue;
    }
    if (p.text.length > budget) {
      // A copy: a slice would keep the whole (maybe many-MB) text alive as long as the part lives.
      // Taken from the flat head when there is one long enough (slicing the rope would flatten it).
      const head = heads.get(p);
      const source = head !== undefined && head.length >= budget ? head : p.text;
      out.push({ type: 'text', text: copyString(source.slice(0, budget)) });
      budget = 0;
      truncated = true;
    } else {
      out.push(p);
      budget -= p.text.length;
    }
  }
  if (truncated) {
    out.push({ type: 'text', text: `\n[output truncated by MCP Host: ${maxChars} of ${total} characters shown]` });
  }
  const modelText = out.map((p) => (p.type === 'text' ? p.text : placeholder(p))).join('\n');
  return { parts: out, modelText, truncated };
}

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;

/** JSON.stringify replacer: a long base64-looking string becomes "[base64 data, 40.0 KB]". */
function elideBlobs(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.length >= 1024 && BASE64.test(value)) return `[base64 data, ${formatBytes(Math.floor((value.length * 3) / 4))}]`;
  return value;
}
