import { StringDecoder } from 'node:string_decoder';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { copyString } from '../util/copyString';
import { checkMessage } from './checkMessage';
import { hostErrorResponse } from './hostErrorResponse';
import { parseJsonPieces } from './parseJsonPieces';

export interface StdioMessageReaderOptions {
  /** Largest message (one line, in bytes) that is parsed; a larger one is skipped and its request failed. */
  readonly maxMessageBytes: number;
  /** A JSON-RPC message (or an error response the host made for a request whose answer it could not take). */
  readonly onMessage: (message: JSONRPCMessage) => void;
  /** A line that is not JSON-RPC, or a message over the bound that names no request of ours. */
  readonly onError: (error: Error) => void;
  /** The error text for a message of `bytes` over `limit`. */
  readonly tooLarge: (bytes: number, limit: number) => string;
}

/** What is kept of a message over the bound: enough of both ends to find its id. */
const KEEP_CHARS = 4096;
/** From this size on a message is parsed from its pieces (parseJsonPieces), not joined first. */
const PIECEWISE_BYTES = 1024 * 1024;
/**
 * The chunks of a long line are decoded into pieces of about this many bytes, each at once: strings
 * this large live outside V8's young generation (never copied when they survive a collection), and
 * no small decoded string is made only to be joined.
 */
const PIECE_BYTES = 1024 * 1024;

/**
 * Splits a server's stdout into newline-delimited JSON-RPC messages in time and memory linear in
 * the message size: each chunk is decoded once into a list of strings, joined once per message
 * (the SDK's ReadBuffer concatenates the whole buffer per chunk: quadratic); a large message is
 * parsed from the list itself, so its big strings are not copied again. A message longer than
 * `maxMessageBytes` is not kept: its bytes are counted and dropped, and the request it answers (its
 * id is read from the message's ends) gets an error response at once; the stream goes on.
 */
export class StdioMessageReader {
  private readonly decoder = new StringDecoder('utf8');
  private pieces: string[] = [];
  /** Bytes not decoded into a piece yet (up to PIECE_BYTES): decoded together, into one piece. */
  private recent: Buffer[] = [];
  private recentBytes = 0;
  /** Bytes of the current (unfinished) line. */
  private size = 0;
  /** The current line is over the bound: only its ends are kept. */
  private skipping?: { head: string; tail: string };

  constructor(private readonly options: StdioMessageReaderOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (nl !== -1 && this.size === 0 && !this.skipping && end - start <= this.options.maxMessageBytes) {
        // The common case: a whole line inside one chunk.
        this.deliver(chunk.toString('utf8', start, end));
      } else {
        if (end > start) this.take(chunk, start, end);
        if (nl === -1) return;
        this.finishLine();
      }
      start = nl + 1;
      if (start >= chunk.length) return;
    }
  }

  /** Drop a partial line (the stream ended). */
  clear(): void {
    this.pieces = [];
    this.recent = [];
    this.recentBytes = 0;
    this.size = 0;
    this.skipping = undefined;
    this.decoder.end();
  }

  private take(chunk: Buffer, start: number, end: number): void {
    this.size += end - start;
    if (!this.skipping && this.size > this.options.maxMessageBytes) {
      // Over the bound: keep the head of what we have, drop the rest.
      let head = '';
      for (const p of this.pieces) {
        head += p.length > KEEP_CHARS - head.length ? p.slice(0, KEEP_CHARS - head.length) : p;
        if (head.length >= KEEP_CHARS) break;
      }
      if (head.length < KEEP_CHARS && this.recent.length) head += this.decoder.write(Buffer.concat(this.recent)).slice(0, KEEP_CHARS - head.length);
      this.pieces = [];
      this.recent = [];
      this.recentBytes = 0;
      this.decoder.end();
      this.skipping = { head: copyString(head), tail: '' };
    }
    if (this.skipping) {
      const s = this.skipping;
      if (s.head.length < KEEP_CHARS) s.head += chunk.toString('utf8', start, Math.min(end, start + KEEP_CHARS - s.head.length));
      const recent = chunk.toString('utf8', Math.max(start, end - KEEP_CHARS), end);
      s.tail = copyString((s.tail + recent).slice(-KEEP_CHARS));
      return;
    }
    this.recent.push(chunk.subarray(start, end));
    this.recentBytes += end - start;
    if (this.recentBytes >= PIECE_BYTES) this.decodeRecent();
  }

  private decodeRecent(): void {
    if (this.recent.length) {
      const text = this.decoder.write(this.recent.length === 1 ? this.recent[0] : Buffer.concat(this.recent, this.recentBytes));
      if (text) this.pieces.push(text);
    }
    this.recent = [];
    this.recentBytes = 0;
  }

  private finishLine(): void {
    const skipped = this.skipping;
    const size = this.size;
    this.size = 0;
    this.skipping = undefined;
    if (skipped) {
      this.tooLarge(skipped.head, skipped.tail, size);
      return;
    }
    this.decodeRecent();
    const rest = this.decoder.end();
    if (rest) this.pieces.push(rest);
    const pieces = this.pieces;
    this.pieces = [];
    if (size < PIECEWISE_BYTES) this.deliver(pieces.length === 1 ? pieces[0] : pieces.join(''));
    else this.deliverPieces(pieces);
  }

  private deliver(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.notJsonRpc((e as Error).message, text);
      return;
    }
    this.check(value, text);
  }

  private deliverPieces(pieces: string[]): void {
    const last = pieces.length - 1;
    if (pieces[last].endsWith('\r')) pieces[last] = pieces[last].slice(0, -1);
    let value: unknown;
    try {
      value = parseJsonPieces(pieces);
    } catch (e) {
      this.notJsonRpc((e as Error).message, pieces[0]);
      return;
    }
    this.check(value, pieces[0]);
  }

  private check(value: unknown, text: string): void {
    const checked = checkMessage(value);
    if (checked.ok) this.options.onMessage(checked.message);
    else this.notJsonRpc(checked.error, text);
  }

  private notJsonRpc(why: string, text: string): void {
    this.options.onError(new Error(`server wrote a line to stdout that is not JSON-RPC (${why}): ${preview(text)}`));
  }

  private tooLarge(head: string, tail: string, bytes: number): void {
    const text = this.options.tooLarge(bytes, this.options.maxMessageBytes);
    const id = responseId(head, tail);
    if (id === undefined) this.options.onError(new Error(`${text}; it was dropped (it answers no request of the host)`));
    else this.options.onMessage(hostErrorResponse(id, 'messageTooLarge', text));
  }
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * The id of a response from the two ends of its JSON text, without parsing it: the object must
 * have a top-level "result" or "error" key (and no "method") in its head, and its id is either a
 * top-level key in the head (`{"jsonrpc":"2.0","id":7,"result":…`) or the last member
 * (`…,"jsonrpc":"2.0","id":7}`, the SDK's order).
 */
export function responseId(head: string, tail: string): RequestId | undefined {
  const top = topLevelMembers(head);
  if (top.has('method') || !(top.has('result') || top.has('error'))) return undefined;
  const fromHead = top.get('id');
  if (fromHead !== undefined) return fromHead;
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  if (!m) return undefined;
  return parseId(m[1]);
}

function parseId(raw: string): RequestId | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'number' || typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level keys found in the start of a JSON object; primitive `id` values are read. */
function topLevelMembers(head: string): Map<string, RequestId | undefined> {
  const keys = new Map<string, RequestId | undefined>();
  let depth = 0;
  let expectKey = false;
  let lastKey: string | undefined;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '"') {
      let j = i + 1;
      while (j < head.length && head[j] !== '"') j += head[j] === '\\' ? 2 : 1;
      if (j >= head.length) break;
      const s = head.slice(i + 1, j);
      if (depth === 1 && expectKey) {
        lastKey = s;
        keys.set(s, undefined);
        expectKey = false;
      } else if (depth === 1 && lastKey === 'id') {
        keys.set('id', parseId(`"${s}"`));
      }
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
      lastKey = undefined;
    } else if (depth === 1 && lastKey === 'id' && (c === '-' || (c >= '0' && c <= '9'))) {
      const m = /^-?\d+/.exec(head.slice(i, i + 32));
      if (m) keys.set('id', Number(m[0]));
      i += (m?.[0].length ?? 1) - 1;
    }
  }
  return keys;
}
