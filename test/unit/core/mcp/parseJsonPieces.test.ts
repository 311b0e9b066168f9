/**
 * parseJsonPieces gives what JSON.parse gives for the joined text, however the text is cut into
 * pieces (escapes, surrogate pairs and literals cut between pieces included), and fails where
 * JSON.parse fails.
 */
import * as assert from 'node:assert/strict';
import { flatHead } from '../../../../src/core/mcp/flatHead';
import { parseJsonPieces } from '../../../../src/core/mcp/parseJsonPieces';
import { convertResult } from '../../../../src/core/calls/resultConversion';

/** Pieces framed in quotes, as StdioMessageReader gives them (`{ framed: true }`). */
const framed = (pieces: string[]) => pieces.map((p) => `"${p}"`);

/** Every way of cutting `text` into two pieces, and a few into many. */
function cuts(text: string): string[][] {
  const out: string[][] = [];
  for (let i = 0; i <= text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  for (const size of [1, 2, 3, 7]) {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
    out.push(pieces);
  }
  return out;
}

const SAMPLES: unknown[] = [
  { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'line 1\nline "2"\t\\ end' }], isError: false, n: -1.5e-3 } },
  ['ünïcødé 🚀 \u0000 \u001f \u2028', true, false, null, 0, -0, 1234567890123456, 1e300, [], {}, [[{}]]],
  { '': 'empty key', 'a b': { 'c\nd': [1, { e: 'f' }] } },
  'just a string with \\u escapes: \u00e9 \ud83d\ude80',
  42,
];

describe('parseJsonPieces', () => {
  it('equals JSON.parse of the joined text for every cut', () => {
    for (const sample of SAMPLES) {
      for (const text of [JSON.stringify(sample), JSON.stringify(sample, null, 2), ` ${JSON.stringify(sample)}\n`]) {
        const expected = JSON.parse(text);
        for (const pieces of cuts(text)) {
          assert.deepEqual(parseJsonPieces(pieces), expected, JSON.stringify(pieces));
          assert.deepEqual(parseJsonPieces(framed(pieces), { framed: true }), expected, `framed: ${JSON.stringify(pieces)}`);
        }
      }
    }
  });

  it('framed pieces: a piece that is all string content is decoded as the literal it is; an escape or a quote next to the frame is not misread', () => {
    // Pieces whose text starts or ends with a backslash, an escaped quote or the closing quote.
    const text = '{"a":"x\\\\","b":"\\\\\\"","c":"q\\\\n\\\\"}';
    const expected = JSON.parse(text);
    for (const pieces of cuts(text)) assert.deepEqual(parseJsonPieces(framed(pieces), { framed: true }), expected, JSON.stringify(pieces));
    const long = 'é'.repeat(70_000) + '\\\\\\"' + 'z'.repeat(70_000);
    const pieces = [`{"t":"${long.slice(0, 70_000)}`, long.slice(70_000, 70_001), long.slice(70_001, 70_003), `${long.slice(70_003)}"}`];
    assert.equal((parseJsonPieces(framed(pieces), { framed: true }) as { t: string }).t, JSON.parse(`"${long}"`));
  });

  it('reads \\u escapes (surrogate pairs too) cut between pieces', () => {
    const text = '"a\\ud83d\\ude80b\\u00e9"';
    for (const pieces of cuts(text)) assert.equal(parseJsonPieces(pieces), 'a🚀bé');
  });

  it('a "__proto__" key is an own property, as JSON.parse makes it', () => {
    const v = parseJsonPieces(['{"__proto__":{"polluted":true},"x":1}']) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ['__proto__', 'x']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('a long string is assembled from the pieces: same text, any size', () => {
    const body = 'x'.repeat(3 * 1024 * 1024) + 'é\\n' + 'y'.repeat(100_000);
    const text = `{"t":"${body}"}`;
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += 65536) pieces.push(text.slice(i, i + 65536));
    const t = (parseJsonPieces(pieces) as { t: string }).t;
    assert.equal(t, JSON.parse(text).t);
    assert.equal(t.slice(0, 10), 'xxxxxxxxxx');
    assert.equal((parseJsonPieces(framed(pieces), { framed: true }) as { t: string }).t, t);
  });

  it('a long string with escapes cut at every piece end is decoded run by run; its flat head caps the model text', () => {
    const line = 'line "q" \\ tab\t é 🚀 \u0001 end\n';
    const body = JSON.stringify(line.repeat(100_000)).slice(1, -1);
    const text = `{"content":[{"type":"text","text":"${body}"}]}`;
    // Piece ends in every position of an escape (size 65536 + a prime drifts across them).
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += 65_537) pieces.push(text.slice(i, i + 65_537));
    const value = parseJsonPieces(pieces) as { content: { type: 'text'; text: string }[] };
    const block = value.content[0];
    assert.equal(block.text, JSON.parse(text).content[0].text);
    const head = flatHead(block, 'text');
    assert.ok(head !== undefined && head.length >= 1024 * 1024, 'a long string has a recorded head of at least 1 MiB');
    assert.equal(head, block.text.slice(0, head.length));
    const capped = convertResult({ content: value.content }, 50_000);
    assert.equal(capped.parts[0].type === 'text' && capped.parts[0].text, block.text.slice(0, 50_000));
    assert.ok(capped.truncated);
    block.text = 'replaced';
    assert.equal(flatHead(block, 'text'), undefined, 'no head for a string the parser did not make');
    assert.equal(flatHead(JSON.parse(text).content[0], 'text'), undefined);
  });

  it('fails where JSON.parse fails (a raw control character in a string without escapes too)', () => {
    for (const bad of ['', '{', '{"a":}', '[1,]', '{"a" 1}', '"unterminated', '"bad \\x escape"', '"a\\u12', '"tab\\n\t"', 'tru', '{} x', '01x', '"\\u12"', '"raw\ttab"', `{"k\u0001":1}`, `"${'long raw tab '.repeat(10)}\t"`]) {
      assert.throws(() => parseJsonPieces([bad]), SyntaxError, bad);
      for (const pieces of cuts(bad)) assert.throws(() => parseJsonPieces(framed(pieces), { framed: true }), SyntaxError, `framed: ${JSON.stringify(pieces)}`);
    }
  });

  it('refuses a value nested deeper than 2000 levels (no stack overflow)', () => {
    assert.throws(() => parseJsonPieces(['['.repeat(5000) + ']'.repeat(5000)]), /nested too deeply/);
  });
});
