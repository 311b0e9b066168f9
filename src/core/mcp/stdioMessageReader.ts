import { isAscii } from 'node:buffer';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';
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
/**
 * A line longer than this is decoded into pieces of this many bytes, each at once, and parsed from
 * its pieces (parseJsonPieces), never joined: strings this large live outside V8's young generation
 * (never copied when they survive a collection), and no small decoded string is made only to be
 * joined. A shorter line is joined once as bytes and parsed with JSON.parse.
 */
export const PIECE_BYTES = 1024 * 1024;
/** `"`, the frame around each piece (see decodeRecent). */
const QUOTE = 0x22;

/**
 * Splits a server's stdout into newline-delimited JSON-RPC messages in time and memory linear in
 * the message size: each chunk is decoded once into a list of strings, joined once per message
 * (the SDK's ReadBuffer concatenates the whole buffer per chunk: quadratic); a large message is
 * parsed from the list itself, so its big strings are not copied again. A message longer than
 * `maxMessageBytes` is not kept: its bytes are counted and dropped, and the request it answers (its
 * id is read from the message's ends) gets an error response at once; the stream goes on.
 */
export class StdioMessageReader {
  /** The decoded pieces of the current line, each framed in quotes (see decodeRecent). */
  private pieces: string[] = [];
  /** Bytes not decoded into a piece yet (up to PIECE_BYTES): decoded together, into one piece. */
  private recent: Buffer[] = [];
  private recentBytes = 0;
  /** The start of a UTF-8 character cut by the end of the last piece: the next piece begins with it. */
  private cutChar?: Buffer;
  /** Where a piece's bytes are framed, reused for each piece of a line (dropped at its end). */
  private scratch?: Buffer;
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
    this.dropLine();
    this.size = 0;
    this.skipping = undefined;
  }

  private dropLine(): void {
    this.pieces = [];
    this.recent = [];
    this.recentBytes = 0;
    this.cutChar = undefined;
    this.scratch = undefined;
  }

  private take(chunk: Buffer, start: number, end: number): void {
    this.size += end - start;
    if (!this.skipping && this.size > this.options.maxMessageBytes) {
      // Over the bound: keep the head of what we have, drop the rest.
      let head = '';
      for (const p of this.pieces) {
        head += p.slice(1, Math.min(p.length - 1, 1 + KEEP_CHARS - head.length));
        if (head.length >= KEEP_CHARS) break;
      }
      if (head.length < KEEP_CHARS && this.recent.length) head += Buffer.concat([...(this.cutChar ? [this.cutChar] : []), ...this.recent]).toString('utf8', 0, KEEP_CHARS * 4).slice(0, KEEP_CHARS - head.length);
      this.dropLine();
      this.skipping = { head: copyString(head), tail: '' };
    }
    if (this.skipping) {
      const s = this.skipping;
      if (s.head.length < KEEP_CHARS) s.head += chunk.toString('utf8', start, Math.min(end, start + KEEP_CHARS - s.head.length));
      const recent = chunk.toString('utf8', Math.max(start, end - KEEP_CHARS), end);
      s.tail = copyString((s.tail + recent).slice(-KEEP_CHARS));
      return;
    }
    // Pieces of PIECE_BYTES at most, however large the chunk.
    while (start < end) {
      const n = Math.min(end - start, PIECE_BYTES - this.recentBytes);
      this.recent.push(chunk.subarray(start, start + n));
      this.recentBytes += n;
      start += n;
      if (this.recentBytes >= PIECE_BYTES) this.decodeRecent(false);
    }
  }

  /**
   * The bytes taken since the last piece become one piece, framed in quotes: `"` + text + `"`. A
   * piece that lies inside a JSON string (most of a long text) is then a JSON string literal of
   * its own, which parseJsonPieces hands to JSON.parse as it is: no copy only to add the quotes.
   * The frame is written around the bytes in a scratch buffer they are gathered in anyway. A
   * UTF-8 character cut by the piece's end is carried to the next piece (the last piece of the
   * line is decoded whole; a final `\r` is JSON whitespace to the parser).
   */
  private decodeRecent(last: boolean): void {
    const cut = this.cutChar;
    const bytes = (cut?.length ?? 0) + this.recentBytes;
    if (!this.scratch || this.scratch.length < bytes + 2) this.scratch = Buffer.allocUnsafe(Math.max(bytes, PIECE_BYTES + 4) + 2);
    const b = this.scratch;
    b[0] = QUOTE;
    let end = 1;
    if (cut) end += cut.copy(b, end);
    for (const c of this.recent) end += c.copy(b, end);
    this.recent = [];
    this.recentBytes = 0;
    this.cutChar = undefined;
    if (!last) {
      const whole = wholeCharsEnd(b, 1, end);
      if (whole < end) this.cutChar = Buffer.from(b.subarray(whole, end));
      end = whole;
    }
    if (end === 1) return;
    b[end] = QUOTE;
    const framed = b.subarray(0, end + 1);
    // ASCII (most JSON) is copied as it is; only other text needs UTF-8 decoding.
    this.pieces.push(framed.toString(isAscii(framed) ? 'latin1' : 'utf8'));
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
    if (this.pieces.length === 0) {
      // A line under PIECE_BYTES: its bytes joined once, decoded once.
      const { recent, recentBytes } = this;
      this.dropLine();
      this.deliver((recent.length === 1 ? recent[0] : Buffer.concat(recent, recentBytes)).toString('utf8'));
      return;
    }
    this.decodeRecent(true);
    const pieces = this.pieces;
    this.dropLine();
    this.deliverPieces(pieces);
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

  /** A long line from its framed pieces (see decodeRecent). */
  private deliverPieces(pieces: string[]): void {
    const start = pieces[0].slice(1, -1);
    let value: unknown;
    try {
      value = parseJsonPieces(pieces, { framed: true });
    } catch (e) {
      this.notJsonRpc((e as Error).message, start);
      return;
    }
    this.check(value, start);
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

/** The end of the whole UTF-8 characters in `b[start, end)`: before a character the end cuts. */
function wholeCharsEnd(b: Buffer, start: number, end: number): number {
  for (let i = end - 1; i >= Math.max(start, end - 4); i--) {
    const c = b[i];
    if (c < 0x80) return end;
    if (c >= 0xc0) return end - i >= (c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2) ? end : i;
    // a continuation byte: its lead is further back
  }
  return end;
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
