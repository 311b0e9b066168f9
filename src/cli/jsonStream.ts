import { stringParts } from '../core/mcp/flatHead';

/**
 * A JSON document written as a stream: the same text as `JSON.stringify(value, null, indent)`,
 * byte for byte, produced in pieces so that a large result (`call --json` of a 50 MB text) is never
 * held a second and third time as one document string. Long strings are escaped a slice at a
 * time (JSON.stringify of each slice, never splitting a surrogate pair, so a lone surrogate is
 * escaped exactly as the whole string would be). A long string the reader kept as a rope
 * (parseJsonPieces, with keepStringParts) is written from its parts: slicing the rope would make
 * V8 copy all of it into one flat string first (50 MB more at the peak of `call --json`).
 *
 * Follows JSON.stringify's rules: toJSON(key), Number/String/Boolean objects unwrapped, non-finite
 * numbers as null, undefined/functions/symbols left out of objects and null in arrays, a BigInt
 * or a cycle throws a TypeError.
 */

/** Characters of a long string escaped at once (and the size of the pieces written). */
export const JSON_SLICE = 1 << 16;

interface Options {
  /** Spaces per level, as JSON.stringify's third argument (0: one line). */
  readonly indent?: number;
  /** Characters per escaped slice of a long string (tests use tiny ones to cross every boundary). */
  readonly slice?: number;
}

type Lazy = { readonly skip: true } | { readonly skip: false; readonly value: unknown };
const SKIP: Lazy = { skip: true };

/** The value JSON.stringify would serialise for a member `key`, or SKIP when it leaves it out. */
function prepare(key: string, raw: unknown): Lazy {
  let value = raw;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (value instanceof Number) value = Number(value);
  else if (value instanceof String) value = String(value);
  else if (value instanceof Boolean) value = value.valueOf();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return SKIP;
  return { skip: false, value };
}

/** The pieces of the JSON text of `value`, in order; their concatenation is JSON.stringify(value, null, indent). */
export function* jsonPieces(value: unknown, options: Options = {}): Generator<string> {
  const gap = ' '.repeat(Math.min(10, Math.max(0, Math.floor(options.indent ?? 0))));
  const slice = Math.max(2, options.slice ?? JSON_SLICE);
  const stack: object[] = [];
  const top = prepare('', value);
  if (top.skip) return;
  yield* serialize(top.value, '');

  /** `holder`/`key`: where `v` is a member, so a rope's parts can be found (see flatHead). */
  function* serialize(v: unknown, indent: string, holder?: object, key?: string): Generator<string> {
    if (v === null) return yield 'null';
    switch (typeof v) {
      case 'boolean':
        return yield v ? 'true' : 'false';
      case 'number':
        return yield Number.isFinite(v) ? String(v) : 'null';
      case 'string':
        return yield* string((holder && stringParts(holder, key!)) ?? [v]);
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
    }
    const o = v as object;
    if (stack.includes(o)) throw new TypeError('Converting circular structure to JSON');
    stack.push(o);
    const inner = indent + gap;
    const open = gap ? `\n${inner}` : '';
    const comma = gap ? `,\n${inner}` : ',';
    if (Array.isArray(o)) {
      if (o.length === 0) yield '[]';
      else {
        yield '[' + open;
        for (let i = 0; i < o.length; i++) {
          if (i > 0) yield comma;
          const item = prepare(String(i), (o as unknown[])[i]);
          if (item.skip) yield 'null';
          else yield* serialize(item.value, inner);
        }
        yield gap ? `\n${indent}]` : ']';
      }
    } else {
      let first = true;
      for (const key of Object.keys(o)) {
        const member = prepare(key, (o as Record<string, unknown>)[key]);
        if (member.skip) continue;
        yield (first ? '{' + open : comma) + JSON.stringify(key) + (gap ? ': ' : ':');
        first = false;
        yield* serialize(member.value, inner, o, key);
      }
      yield first ? '{}' : gap ? `\n${indent}}` : '}';
    }
    stack.pop();
  }

  /** One string given as its flat parts in order, escaped a slice at a time. */
  function* string(parts: readonly string[]): Generator<string> {
    if (parts.length === 1 && parts[0].length <= slice) return yield JSON.stringify(parts[0]);
    yield '"';
    /** A high surrogate that ended the previous part: it goes with the next one. */
    let carry = '';
    for (let p = 0; p < parts.length; p++) {
      const s = carry + parts[p];
      const more = p < parts.length - 1;
      let start = 0;
      while (start < s.length) {
        let end = Math.min(s.length, start + slice);
        // A high surrogate last in the slice goes with the next one, so a pair is never cut in two.
        if ((end < s.length || more) && isHighSurrogate(s.charCodeAt(end - 1))) end--;
        if (end === start) break; // the part's last character, carried to the next part
        yield JSON.stringify(s.slice(start, end)).slice(1, -1);
        start = end;
      }
      carry = s.slice(start);
    }
    yield '"';
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where the pieces go: a stream's write (false: wait for 'drain'), e.g. process.stdout. */
export interface JsonSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Writes the JSON text of `value` and a newline to `sink`, in pieces of about {@link JSON_SLICE}
 * characters, waiting for 'drain' whenever the sink asks to, so the document is never whole in memory.
 */
export async function writeJson(sink: JsonSink, value: unknown, options: Options = {}): Promise<void> {
  const size = options.slice ?? JSON_SLICE;
  let pending = '';
  const flush = async () => {
    const chunk = pending;
    pending = '';
    if (!sink.write(chunk)) await new Promise<void>((resolve) => sink.once('drain', resolve));
  };
  for (const piece of jsonPieces(value, options)) {
    pending += piece;
    if (pending.length >= size) await flush();
  }
  pending += '\n';
  await flush();
}
