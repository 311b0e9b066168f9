import {
  AudioContentSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
} from '@modelcontextprotocol/core';
import type { ContentBlock } from '@modelcontextprotocol/client';
import { isPlainObject } from '../settings/isPlainObject';

/** A `tools/call` result as the host keeps it: the valid parts, and why the others were dropped. */
export interface ReadResult {
  /** Valid blocks, and blocks of a type the host does not know (shown as a placeholder line). */
  readonly content: ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  /** The result's `_meta` (an object), for views that read it (MCP Apps: server-pdf's viewUUID, interactEnabled). */
  readonly meta?: Record<string, unknown>;
  readonly isError: boolean;
  /** One line per dropped part: `a "text" block without a "text" string`. */
  readonly dropped: readonly string[];
}

export type ReadOutcome = { ok: true; result: ReadResult } | { ok: false; error: string };

/** The content types MCP defines, with their schemas; a block of another type is kept for its placeholder line. */
const SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }> = {
  text: TextContentSchema,
  image: ImageContentSchema,
  audio: AudioContentSchema,
  resource: EmbeddedResourceSchema,
  resource_link: ResourceLinkSchema,
};

/**
 * Reads a result part by part (the SDK's schema rejects the whole result for one bad block): each
 * content block is checked on its own, a malformed one is dropped with the reason, one of an
 * unknown type is kept; a `structuredContent` that is not an object is dropped. A result whose
 * `content` is not an array has nothing usable: an error, in words.
 */
export function readCallResult(raw: Record<string, unknown>): ReadOutcome {
  const dropped: string[] = [];
  const rawContent = raw.content ?? [];
  if (!Array.isArray(rawContent)) {
    return { ok: false, error: `the server's result is malformed: "content" is ${describe(rawContent)}, not an array of content blocks` };
  }
  const content: ContentBlock[] = [];
  rawContent.forEach((block: unknown, i) => {
    const why = blockProblem(block);
    if (why === undefined) content.push(block as ContentBlock);
    else dropped.push(`content block ${i + 1}: ${why}`);
  });
  let structuredContent: Record<string, unknown> | undefined;
  const sc = raw.structuredContent;
  if (sc !== undefined && sc !== null) {
    if (isPlainObject(sc)) structuredContent = sc;
    else dropped.push(`structuredContent is ${describe(sc)}, not an object`);
  }
  if (raw.isError !== undefined && typeof raw.isError !== 'boolean') dropped.push(`isError is ${describe(raw.isError)}, not true or false`);
  const meta = isPlainObject(raw._meta) ? raw._meta : undefined;
  return { ok: true, result: { content, ...(structuredContent !== undefined ? { structuredContent } : {}), ...(meta ? { meta } : {}), isError: raw.isError === true, dropped } };
}

/** Undefined for a usable block; otherwise what is wrong with it. */
function blockProblem(block: unknown): string | undefined {
  if (!isPlainObject(block)) return `${describe(block)}, not a content block`;
  const type = block.type;
  if (typeof type !== 'string') return 'a block without a "type"';
  const schema = Object.hasOwn(SCHEMAS, type) ? SCHEMAS[type] : undefined;
  if (!schema) return undefined;
  // The common shape, without a schema pass.
  if (type === 'text' && typeof block.text === 'string' && Object.keys(block).length === 2) return undefined;
  const parsed = schema.safeParse(block);
  if (parsed.success) return undefined;
  if (type === 'text' && typeof block.text !== 'string') return 'a "text" block without a "text" string';
  const path = parsed.error?.issues[0]?.path ?? [];
  return path.length ? `a "${type}" block with a missing or malformed "${path.map(String).join('.')}"` : `a malformed "${type}" block`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string`;
  return `a ${typeof v}`;
}
