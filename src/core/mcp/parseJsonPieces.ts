import { keepingStringParts, recordHead } from './flatHead';

export interface PieceOptions {
  /**
   * Each piece is framed in quotes, `"` + text + `"` (the quotes are not part of the JSON text):
   * a piece that lies inside a string is then decoded by JSON.parse as it is, without a copy of
   * it made only to add the quotes (StdioMessageReader decodes its pieces so).
   */
  readonly framed?: boolean;
}

/**
 * JSON.parse over a message given as a list of string pieces (as it arrived), without first
 * joining them into one string: a large string value is decoded piece by piece (JSON.parse of
 * each piece's run) and the runs are combined without copying, so a 50 MiB result costs its size
 * once more at most, where join + JSON.parse holds it three times (pieces, line,
 * value) until the garbage collector runs. Used for large messages; small ones use JSON.parse.
 * Throws a SyntaxError like JSON.parse on malformed input.
 */
export function parseJsonPieces(pieces: readonly string[], options: PieceOptions = {}): unknown {
  const frame = options.framed ? 1 : 0;
  const p = new PieceParser(
    pieces.filter((s) => s.length > 2 * frame),
    frame,
  );
  const value = p.value(0);
  p.skipSpace();
  if (!p.atEnd()) p.fail('unexpected text after the JSON value');
  return value;
}

/**
 * The first characters of a string are one flat part: taking a prefix of the combined string
 * (the model text's cap) then reads that part alone, where a prefix spanning parts would make V8
 * copy the whole string.
 */
const HEAD_CHARS = 1024 * 1024;
const MAX_DEPTH = 2000;
/** Up to this length a run is checked for escapes and control characters in one loop, not natively. */
const SHORT_RUN = 64;

class PieceParser {
  private pi = 0;
  private ci: number;
  /** Where each piece's text ends (before its closing frame quote, if framed). */
  private readonly ends: number[];
  /** The flat head of the last string read, when that string is a rope (see flatHead). */
  private head?: string;
  /** That rope's parts, head first, when a writer asked for them (keepStringParts). */
  private parts?: string[];

  /** `frame`: 1 when each piece is framed in quotes (its text is [1, length - 1)), else 0. */
  constructor(
    private readonly pieces: readonly string[],
    private readonly frame: number,
  ) {
    this.ci = frame;
    this.ends = pieces.map((s) => s.length - frame);
  }

  atEnd(): boolean {
    return this.pi >= this.pieces.length;
  }

  fail(why: string): never {
    throw new SyntaxError(`JSON: ${why} (piece ${this.pi + 1}, offset ${this.ci - this.frame})`);
  }

  private peek(): string {
    return this.pi < this.pieces.length ? this.pieces[this.pi][this.ci] : '';
  }

  private next(): string {
    if (this.pi >= this.pieces.length) this.fail('unexpected end of input');
    const c = this.pieces[this.pi][this.ci++];
    if (this.ci >= this.ends[this.pi]) {
      this.pi++;
      this.ci = this.frame;
    }
    return c;
  }

  skipSpace(): void {
    for (let c = this.peek(); c === ' ' || c === '\n' || c === '\r' || c === '\t'; c = this.peek()) this.next();
  }

  private expect(word: string): void {
    for (const ch of word) if (this.next() !== ch) this.fail(`expected "${word}"`);
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.skipSpace();
    const c = this.peek();
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === 't' || c === 'f' || c === 'n') return this.literal(c);
    return this.number();
  }

  private literal(c: string): boolean | null {
    const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
    this.expect(word);
    return word === 'null' ? null : word === 'true';
  }

  private object(depth: number): Record<string, unknown> {
    this.next();
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.peek() === '}') {
      this.next();
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.peek() !== '"') this.fail('expected a property name');
      const key = this.string();
      this.skipSpace();
      if (this.next() !== ':') this.fail('expected ":"');
      const v = this.value(depth + 1);
      if (typeof v === 'string' && this.head !== undefined) recordHead(out, key, v, this.head, this.parts);
      this.head = undefined;
      this.parts = undefined;
      // An own property, as JSON.parse makes it (never the prototype).
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      else out[key] = v;
      this.skipSpace();
      const c = this.next();
      if (c === '}') return out;
      if (c !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): unknown[] {
    this.next();
    const out: unknown[] = [];
    this.skipSpace();
    if (this.peek() === ']') {
      this.next();
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.next();
      if (c === ']') return out;
      if (c !== ',') this.fail('expected "," or "]"');
    }
  }

  private number(): number {
    let token = '';
    for (let c = this.peek(); c !== '' && '-+0123456789.eE'.includes(c); c = this.peek()) token += this.next();
    if (!token) this.fail(`unexpected "${this.peek()}"`);
    return JSON.parse(token) as number;
  }

  /**
   * A string token, decoded run by run: the run of each piece up to the closing quote is decoded
   * natively (JSON.parse of the quoted run: escapes and all), and the runs are joined into a
   * rope whose first HEAD_CHARS characters are one flat part (recorded: see flatHead).
   */
  private string(): string {
    this.next(); // the opening quote
    const parts: string[] = [];
    /** An escape cut by the end of a piece, completed from the next. */
    let carry = '';
    for (;;) {
      if (this.pi >= this.pieces.length) this.fail('unterminated string');
      const piece = this.pieces[this.pi];
      const pieceEnd = this.ends[this.pi];
      let ci = this.ci;
      while (carry && !escapeComplete(carry) && ci < pieceEnd) {
        const need = carry.length === 1 ? 1 : 6 - carry.length;
        carry += piece.slice(ci, Math.min(pieceEnd, ci + need));
        ci = Math.min(pieceEnd, ci + need);
      }
      if (carry && !escapeComplete(carry)) {
        this.advancePiece();
        continue;
      }
      const quote = closingQuote(piece, ci, pieceEnd);
      const end = quote === -1 ? pieceEnd : quote;
      const cut = quote === -1 ? partialEscapeAt(piece, ci, end) : end;
      if (!carry && ci === this.frame && cut === pieceEnd) {
        parts.push(this.frame ? this.decodeFramed(piece) : this.decode(piece));
      } else {
        const run = piece.slice(ci, cut);
        const text = carry ? carry + run : run;
        if (text.length) parts.push(this.decode(text));
      }
      if (quote === -1) {
        carry = piece.slice(cut, end);
        this.advancePiece();
        continue;
      }
      this.ci = quote;
      this.next(); // the closing quote
      break;
    }
    return this.assemble(parts);
  }

  private advancePiece(): void {
    this.pi++;
    this.ci = this.frame;
  }

  /**
   * A run of string content (no unescaped quote, no cut escape) as the text it stands for, checked
   * as JSON.parse checks it (no raw control character): a run without escapes is its own text
   * (no copy), any other is decoded by JSON.parse.
   */
  private decode(run: string): string {
    return isPlain(run) ? run : this.parseLiteral(`"${run}"`);
  }

  /** A framed piece that is all string content: a string literal already, decoded as it is. */
  private decodeFramed(piece: string): string {
    return isPlain(piece, 1) ? piece.slice(1, -1) : this.parseLiteral(piece);
  }

  /** Parses a string literal (quotes included): the decoded text, or a SyntaxError. */
  private parseLiteral(literal: string): string {
    try {
      return JSON.parse(literal) as string;
    } catch {
      return this.fail('bad escape or control character in a string');
    }
  }

  /** One string from decoded runs: short ones flat; a long one a rope with a flat, recorded head. */
  private assemble(parts: string[]): string {
    this.head = undefined;
    this.parts = undefined;
    if (parts.length <= 1) return parts[0] ?? '';
    let k = 0;
    let length = 0;
    while (k < parts.length && length < HEAD_CHARS) length += parts[k++].length;
    const head = k === 1 ? parts[0] : parts.slice(0, k).join('');
    if (k === parts.length) return head;
    this.head = head;
    const rope = [head, ...parts.slice(k)];
    if (keepingStringParts()) this.parts = rope;
    return combine(rope);
  }
}

/** One string from parts, pairwise (a balanced tree of concatenations: no copy until it is read as a whole). */
function combine(parts: string[]): string {
  if (parts.length === 0) return '';
  let level = parts;
  while (level.length > 1) {
    const up: string[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(i + 1 < level.length ? level[i] + level[i + 1] : level[i]);
    level = up;
  }
  return level[0];
}

// eslint-disable-next-line no-control-regex -- the characters JSON forbids raw in a string
const CONTROL = /[\u0000-\u001f]/;

/** No escape and no control character in `text` (without `frame` characters at each end): it is its own text. */
function isPlain(text: string, frame = 0): boolean {
  if (text.length - 2 * frame > SHORT_RUN) return text.indexOf('\\') === -1 && !CONTROL.test(text);
  for (let i = frame; i < text.length - frame; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x5c) return false;
  }
  return true;
}

/** Whether a carried escape (`\\`, `\\u…`) is whole. */
function escapeComplete(escape: string): boolean {
  return escape.length >= 2 && (escape[1] !== 'u' || escape.length >= 6);
}

/** The first quote in [from, end) that is not escaped (`from` is not inside an escape); -1 if none. */
function closingQuote(piece: string, from: number, end: number): number {
  for (let q = piece.indexOf('"', from); q !== -1 && q < end; q = piece.indexOf('"', q + 1)) {
    let backslashes = 0;
    for (let i = q - 1; i >= from && piece[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** Where an escape cut by `end` starts (`from` is not inside an escape); `end` when none is cut. */
function partialEscapeAt(piece: string, from: number, end: number): number {
  const window = Math.max(from, end - 6);
  const b = piece.lastIndexOf('\\', end - 1);
  if (b < window) return end;
  let backslashes = 0;
  for (let i = b; i >= from && piece[i] === '\\'; i--) backslashes++;
  if (backslashes % 2 === 0) return end; // b closes an escaped backslash
  if (b + 1 >= end || (piece[b + 1] === 'u' && b + 6 > end)) return b;
  return end;
}
