/**
 * JSON.parse over a message given as a list of string pieces (as it arrived), without first
 * joining them into one string: a large string value is built from the pieces themselves (a long
 * run without escapes is the pieces' own text, combined without copying), so a 50 MiB result
 * costs its size once more at most, where join + JSON.parse holds it three times (pieces, line,
 * value) until the garbage collector runs. Used for large messages; small ones use JSON.parse.
 * Throws a SyntaxError like JSON.parse on malformed input.
 */
export function parseJsonPieces(pieces: readonly string[]): unknown {
  const p = new PieceParser(pieces.filter((s) => s.length > 0));
  const value = p.value(0);
  p.skipSpace();
  if (!p.atEnd()) p.fail('unexpected text after the JSON value');
  return value;
}

/** A run of at least this many characters is used as it is (not copied into a joined part). */
const BIG_PART = 16 * 1024;
/**
 * The first characters of a string are one flat part: taking a prefix of the combined string
 * (the model text's cap) then reads that part alone, where a prefix spanning parts would make V8
 * copy the whole string.
 */
const HEAD_CHARS = 1024 * 1024;
const MAX_DEPTH = 2000;

class PieceParser {
  private pi = 0;
  private ci = 0;
  /** The next backslash at or after ci in piece escapePiece (-1: none), kept from string to string. */
  private escapePiece = -1;
  private escape = -1;

  constructor(private readonly pieces: readonly string[]) {}

  atEnd(): boolean {
    return this.pi >= this.pieces.length;
  }

  fail(why: string): never {
    throw new SyntaxError(`JSON: ${why} (piece ${this.pi + 1}, offset ${this.ci})`);
  }

  private peek(): string {
    return this.pi < this.pieces.length ? this.pieces[this.pi][this.ci] : '';
  }

  private next(): string {
    if (this.pi >= this.pieces.length) this.fail('unexpected end of input');
    const c = this.pieces[this.pi][this.ci++];
    if (this.ci >= this.pieces[this.pi].length) {
      this.pi++;
      this.ci = 0;
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

  /** A string token: runs without escapes are taken from the pieces as they are. */
  private string(): string {
    this.next(); // the opening quote
    const big: string[] = [];
    let small: string[] = [];
    let smallLength = 0;
    const add = (part: string) => {
      if (part.length >= BIG_PART && big.length > 0) {
        if (small.length) big.push(small.join(''));
        small = [];
        smallLength = 0;
        big.push(part);
        return;
      }
      small.push(part);
      smallLength += part.length;
      if (smallLength >= (big.length === 0 ? HEAD_CHARS : BIG_PART)) {
        big.push(small.join(''));
        small = [];
        smallLength = 0;
      }
    };
    // Where the next quote and the next backslash of the current piece are (searched again only
    // once passed: a message given as one 50 MB piece has no backslash at all, and looking for
    // one from every string would read the rest of the message each time).
    let quotePiece = -1;
    let quote = -1;
    for (;;) {
      if (this.pi >= this.pieces.length) this.fail('unterminated string');
      const piece = this.pieces[this.pi];
      if (quotePiece !== this.pi || (quote !== -1 && quote < this.ci)) {
        quotePiece = this.pi;
        quote = piece.indexOf('"', this.ci);
      }
      if (this.escapePiece !== this.pi || (this.escape !== -1 && this.escape < this.ci)) {
        this.escapePiece = this.pi;
        this.escape = piece.indexOf('\\', this.ci);
      }
      const escape = this.escape;
      const end = quote === -1 ? (escape === -1 ? piece.length : escape) : escape === -1 ? quote : Math.min(quote, escape);
      if (end > this.ci) add(this.ci === 0 && end === piece.length ? piece : piece.slice(this.ci, end));
      if (end === piece.length) {
        this.pi++;
        this.ci = 0;
        continue;
      }
      this.ci = end;
      if (end === quote) {
        this.next();
        break;
      }
      this.next(); // the backslash
      add(this.escaped());
    }
    if (small.length) big.push(small.join(''));
    return combine(big);
  }

  private escaped(): string {
    const c = this.next();
    switch (c) {
      case '"':
      case '\\':
      case '/':
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.next() + this.next() + this.next() + this.next();
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail(`bad escape "\\${c}"`);
    }
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
