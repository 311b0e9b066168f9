/** The streamed JSON writer (call --json, check --json, audit verify --json) against JSON.stringify, the reference; and from the parts of strings parseJsonPieces read as ropes. */
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { jsonPieces, JSON_SLICE, writeJson } from '../../../src/cli/jsonStream';
import { keepStringParts, stringParts } from '../../../src/core/mcp/flatHead';
import { parseJsonPieces } from '../../../src/core/mcp/parseJsonPieces';

const streamed = (value: unknown, indent: number, slice?: number) => [...jsonPieces(value, { indent, slice })].join('');

/** Every shape at indents 0, 2 and 4 and slices that cut strings everywhere: the same text as JSON.stringify. */
function assertSame(value: unknown, label: string): void {
  for (const indent of [0, 2, 4]) {
    const expected = JSON.stringify(value, null, indent);
    for (const slice of [undefined, 2, 3, 5, 8]) {
      assert.equal(streamed(value, indent, slice), expected ?? '', `${label}, indent ${indent}, slice ${slice ?? JSON_SLICE}`);
    }
  }
}

/** xorshift32: the same "random" documents on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Characters that JSON escapes or that a slice boundary can cut badly. */
const TRICKY = ['"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f', '\u2028', '\u2029', 'é', '€', '中', '😀', '\ud83d', '\ude00', '\udbff\udfff', '/', '<', ' ', 'a'];

function randomString(rand: () => number, max: number): string {
  let s = '';
  const n = Math.floor(rand() * max);
  for (let i = 0; i < n; i++) s += TRICKY[Math.floor(rand() * TRICKY.length)];
  return s;
}

function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 7 : 10));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -0, 1.5, -1e21, 1e-7, NaN, Infinity, -Infinity, Number.MAX_VALUE, 2 ** 53 + 1][Math.floor(rand() * 10)];
    case 3:
    case 4:
      return randomString(rand, 20);
    case 5:
      return undefined;
    case 6:
      return [() => 1, Symbol('s'), new Date(Math.floor(rand() * 1e12)), new String('boxed'), new Number(4), new Boolean(false)][Math.floor(rand() * 6)];
    case 7:
    case 8: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(rand() * 5);
      for (let i = 0; i < n; i++) o[randomString(rand, 6)] = randomValue(rand, depth + 1);
      return o;
    }
    default:
      return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
  }
}

describe('jsonPieces / writeJson: JSON.stringify byte for byte, in pieces', () => {
  it('scalars, empty and nested containers, and what JSON.stringify leaves out or turns into null', () => {
    const cases: [string, unknown][] = [
      ['null', null],
      ['true', true],
      ['numbers', [0, -0, 1, -1.25, 1e21, 1e-7, 5e-324, NaN, Infinity, -Infinity]],
      ['empty string', ''],
      ['empty containers', { a: [], b: {}, c: [[]], d: [{}] }],
      ['undefined, functions and symbols', { a: undefined, b: () => 1, c: Symbol('x'), d: [undefined, () => 1, Symbol('y')], e: 1 }],
      ['an object whose members are all left out', { a: undefined, b: () => 1 }],
      ['toJSON with its key', { when: new Date(0), custom: { toJSON: (k: string) => `key ${k}` }, list: [{ toJSON: (k: string) => k }] }],
      ['toJSON returning undefined', { gone: { toJSON: () => undefined }, kept: 1 }],
      ['boxed primitives', [new String('s'), new Number(2), new Boolean(true)]],
      ['sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
      ['keys needing escapes and integer-like keys in their order', { '\n"': 1, '😀': 2, '\ud800': 3, b: 4, 2: 5, 1: 6 }],
      ['top-level string', 'plain'],
      ['top-level undefined', undefined],
    ];
    for (const [label, value] of cases) assertSame(value, label);
  });

  it('unicode, lone surrogates and control characters cut by a slice boundary anywhere', () => {
    const everyControl = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
    const strings = [
      everyControl,
      '😀😀😀😀😀',
      'a😀b😀c😀',
      '\ud83d', // a lone high surrogate, alone
      'abc\ud83d', // … last in the string
      '\ud83dabc', // … first
      '\ude00abc\ude00', // lone low surrogates
      '\ud83d\ud83d\ude00', // a lone high surrogate before a pair
      '\ude00\ud83d\ude00\ude00', // a pair between lone low surrogates
      '\udbff', // the highest high surrogate
      '\u2028\u2029"\\/',
      'é€中\u00ff\u0100',
    ];
    for (const s of strings) {
      assertSame(s, JSON.stringify(s));
      assertSame({ content: [{ type: 'text', text: s.repeat(7) }], modelText: s.repeat(3) }, `${JSON.stringify(s)} in a document`);
    }
  });

  it('500 random documents (seeded) of every shape', () => {
    const rand = prng(27);
    for (let i = 0; i < 500; i++) assertSame(randomValue(rand, 0), `document ${i}`);
  });

  it('huge strings: several slices each, every kind of character, the surrogate pairs across slice boundaries kept whole', () => {
    const rand = prng(7);
    // A pair straddles each default slice boundary: 'x' then pairs from an odd offset.
    const pairs = 'x' + '😀'.repeat(JSON_SLICE * 2);
    const mixed = Array.from({ length: JSON_SLICE * 3 + 17 }, () => TRICKY[Math.floor(rand() * TRICKY.length)]).join('');
    const ascii = 'The quick brown fox\n'.repeat(JSON_SLICE / 4);
    for (const [label, s] of [['pairs', pairs], ['mixed', mixed], ['ascii', ascii]] as const) {
      const doc = { name: 'big', content: [{ type: 'text', text: s }], modelText: s };
      assert.equal(streamed(doc, 2), JSON.stringify(doc, null, 2), label);
      assert.equal(streamed(s, 0), JSON.stringify(s), label);
    }
  });

  it('a long string goes out in slices: no piece is much longer than a slice', () => {
    const s = 'y'.repeat(JSON_SLICE * 4);
    const pieces = [...jsonPieces({ text: s }, { indent: 2 })];
    assert.ok(pieces.length > 4, `${pieces.length} pieces`);
    assert.ok(Math.max(...pieces.map((p) => p.length)) <= JSON_SLICE, 'one piece longer than a slice');
  });

  it('cycles and BigInt throw a TypeError, as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.throws(() => [...jsonPieces(cyclic)], TypeError);
    assert.throws(() => [...jsonPieces({ n: 1n })], TypeError);
    // The same object twice, not nested in itself, is not a cycle.
    const shared = { x: 1 };
    assertSame({ a: shared, b: [shared, shared] }, 'shared object');
  });

  it('writeJson waits for drain on a slow stream and writes the document and a newline', async () => {
    const chunks: string[] = [];
    let waits = 0;
    const sink = new Writable({
      highWaterMark: 1024,
      decodeStrings: false,
      write(chunk: string, _enc, done) {
        chunks.push(chunk);
        setImmediate(done);
      },
    });
    sink.on('drain', () => waits++);
    const doc = { content: [{ type: 'text', text: 'é😀\n'.repeat(JSON_SLICE) }], n: [1, 2, 3] };
    await writeJson(sink, doc, { indent: 2 });
    await new Promise<void>((resolve) => sink.end(resolve));
    assert.equal(chunks.join(''), JSON.stringify(doc, null, 2) + '\n');
    assert.ok(waits > 0, 'never waited for drain');
  });
});

describe('jsonPieces from the parts of strings parseJsonPieces read as ropes (call --json of a large result)', () => {
  afterEach(() => keepStringParts(false));

  const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
  /** Astral characters as \u escapes in a JSON text (lone surrogates JSON.stringify escapes already). */
  const escapePairs = (text: string) => text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, (p) => `\\u${p.charCodeAt(0).toString(16)}\\u${p.charCodeAt(1).toString(16)}`);
  const cut = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

  /** Strings of a few MB (ropes are made above 1 MiB): escapes, control characters, pairs and lone surrogates. */
  function largeDocument(): unknown {
    const rand = prng(29);
    const tricky = Array.from({ length: 1_500_000 }, () => TRICKY[Math.floor(rand() * TRICKY.length)]).join('');
    const pairs = 'x' + '😀'.repeat(700_000) + '\ud83d';
    const lines = 'line "q" \\ tab\t é \u0001 end\n'.repeat(60_000);
    return {
      jsonrpc: '2.0',
      id: 3,
      result: {
        content: [
          { type: 'text', text: tricky },
          { type: 'text', text: pairs },
        ],
        structuredContent: { nested: [[{ s: lines }, [1, [2, [lines.slice(0, 10)]]]], []] },
        modelText: 'short',
      },
    };
  }

  it('the same text as JSON.stringify of JSON.parse, however the message was cut into pieces, and written from the parts', function () {
    this.timeout(60_000); // documents of several MB, parsed and written 8 times
    const doc = largeDocument();
    for (const text of [JSON.stringify(doc), escapePairs(JSON.stringify(doc))]) {
      const expected = JSON.stringify(JSON.parse(text), null, 2);
      for (const size of [65_537, 300_007]) {
        for (const framedPieces of [false, true]) {
          keepStringParts();
          const pieces = cut(text, size);
          const value = parseJsonPieces(framedPieces ? pieces.map((p) => `"${p}"`) : pieces, { framed: framedPieces }) as {
            result: { content: { text: string }[]; structuredContent: { nested: [[{ s: string }]] } };
          };
          const label = `pieces of ${size}${framedPieces ? ', framed' : ''}${text.includes('\\ud83d\\ude00') ? ', pairs as escapes' : ''}`;
          const blocks = [...value.result.content, value.result.structuredContent.nested[0][0]];
          const parts = blocks.map((b) => stringParts(b, 'text' in b ? 'text' : 's'));
          assert.ok(
            parts.every((p) => p !== undefined && p.length > 1),
            `${label}: every large string has its parts`,
          );
          for (const slice of [undefined, 40_009]) {
            // Compared as text, but not printed whole when it differs (megabytes).
            const out = streamed(value, 2, slice);
            if (out !== expected) assert.fail(`${label}, slice ${slice ?? JSON_SLICE}: differs from JSON.stringify first at ${[...out].findIndex((c, i) => c !== expected[i])}`);
          }
          if (size === 65_537 && !framedPieces && !text.includes('\\ud83d\\ude00')) {
            // A pair cut by a piece end: the parts themselves split it, and the writer carries the high surrogate over.
            assert.ok(
              parts[1]!.slice(0, -1).some((p) => isHigh(p.charCodeAt(p.length - 1))),
              'a part ends in the middle of a pair',
            );
          }
        }
      }
    }
  });

  it('without keepStringParts no parts are kept (a rope flattened later would hold its text twice)', () => {
    const big = 'abc\n'.repeat(400_000);
    const value = parseJsonPieces(cut(JSON.stringify({ text: big }), 65_537)) as { text: string };
    assert.equal(stringParts(value, 'text'), undefined);
    keepStringParts();
    const kept = parseJsonPieces(cut(JSON.stringify({ text: big }), 65_537)) as { text: string };
    assert.equal(stringParts(kept, 'text')?.join(''), big);
    kept.text = 'replaced';
    assert.equal(stringParts(kept, 'text'), undefined, 'no parts for a string the parser did not make');
  });
});
