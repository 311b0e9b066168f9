/**
 * Results read part by part: what is valid is kept, each dropped part is said in one line, a
 * structuredContent is checked against the output schema of the definition in force (any page),
 * and a binary-only result gives the model no base64.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { OutputSchemaValidator } from '../../../../src/core/calls/outputSchemaValidator';
import { readCallResult } from '../../../../src/core/calls/readCallResult';
import { convertResult } from '../../../../src/core/calls/resultConversion';

const ZOD_DUMP = /invalid_type|invalid_union|"path":|"expected":|"code":/;

describe('readCallResult', () => {
  it('keeps valid blocks and blocks of unknown types, drops malformed ones with a reason each', () => {
    const r = readCallResult({
      content: [
        { type: 'text', text: 'before' },
        { type: 'hologram', data: 'AAAA' },
        { type: 'text' },
        { type: 'image', data: 'AAAA' },
        'a string',
        { type: 'text', text: 'after', annotations: { priority: 0.5 } },
      ],
      structuredContent: [1, 2],
      isError: 'yes',
    });
    assert.ok(r.ok);
    assert.deepEqual(r.result.content.map((b) => b.type), ['text', 'hologram', 'text']);
    assert.equal(r.result.structuredContent, undefined);
    assert.equal(r.result.isError, false);
    assert.deepEqual(r.result.dropped, [
      'content block 3: a "text" block without a "text" string',
      'content block 4: a "image" block with a missing or malformed "mimeType"',
      'content block 5: a string, not a content block',
      'structuredContent is an array, not an object',
      'isError is a string, not true or false',
    ]);
    for (const d of r.result.dropped) assert.doesNotMatch(d, ZOD_DUMP);
    const converted = convertResult(r.result, 1000, r.result.dropped);
    assert.match(converted.modelText, /^before\n\[unsupported content type "hologram"\]\nafter\n\[MCP Host dropped part of the result: content block 3/);
  });

  it('content that is not an array is unusable, said in words; a missing content is an empty one', () => {
    const bad = readCallResult({ content: 'just a string' });
    assert.ok(!bad.ok);
    assert.equal(bad.error, `the server's result is malformed: "content" is a string, not an array of content blocks`);
    const none = readCallResult({});
    assert.ok(none.ok);
    assert.deepEqual(none.result.content, []);
  });

  it('a binary-only result: the model gets the image and the structured data without the base64 blob', () => {
    const data = Buffer.alloc(30_000, 0x5a).toString('base64');
    const r = readCallResult({ content: [{ type: 'image', data, mimeType: 'image/png' }], structuredContent: { image: data, width: 3 } });
    assert.ok(r.ok);
    const c = convertResult(r.result, 50_000);
    assert.equal(c.modelText, '[image image/png, 29.3 KB]\n{\n  "image": "[base64 data, 29.3 KB]",\n  "width": 3\n}');
    assert.equal(c.parts[0].type, 'data');
  });

  it('capped text is a copy of the head, not a view of the whole text', () => {
    const huge = 'h'.repeat(2_000_000);
    const c = convertResult({ content: [{ type: 'text', text: huge }] }, 10);
    assert.equal(c.parts[0].type === 'text' && c.parts[0].text, 'hhhhhhhhhh');
    assert.match(c.modelText, /output truncated by MCP Host: 10 of 2000000 characters shown/);
  });
});

describe('OutputSchemaValidator', () => {
  const tool = (outputSchema?: object): Tool => ({ name: 't', inputSchema: { type: 'object' }, ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}) });
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

  it('checks structuredContent against the definition in force, keyed by its hash', () => {
    const v = new OutputSchemaValidator();
    assert.deepEqual(v.check(tool(schema), 'h1', { n: 1 }, false), { ok: true });
    const bad = v.check(tool(schema), 'h1', { n: 'x' }, false);
    assert.ok(!bad.ok);
    assert.match(bad.error, /structuredContent does not match the tool's output schema: n must be number/);
    // A new definition (another hash) gets its own validator.
    assert.deepEqual(v.check(tool({ type: 'object', properties: { n: { type: 'string' } } }), 'h2', { n: 'x' }, false), { ok: true });
  });

  it('no schema, or an isError result: nothing to check; a schema but no structuredContent: said so', () => {
    const v = new OutputSchemaValidator();
    assert.deepEqual(v.check(tool(), 'h', undefined, false), { ok: true });
    assert.deepEqual(v.check(tool(schema), 'h', undefined, true), { ok: true });
    const missing = v.check(tool(schema), 'h', undefined, false);
    assert.ok(!missing.ok);
    assert.match(missing.error, /has an output schema but returned no structuredContent/);
  });

  it('a schema that cannot be compiled is reported, not thrown; two schemas with the same $id both work', () => {
    const v = new OutputSchemaValidator();
    const broken = v.check(tool({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }), 'b', { a: 1 }, false);
    assert.ok(!broken.ok);
    assert.match(broken.error, /cannot be compiled/);
    const a = { $id: 'https://example.com/same.json', type: 'object', properties: { v: { type: 'number' } } };
    const b = { $id: 'https://example.com/same.json', type: 'object', properties: { v: { type: 'string' } } };
    assert.deepEqual(v.check(tool(a), 'ida', { v: 1 }, false), { ok: true });
    assert.deepEqual(v.check(tool(b), 'idb', { v: 's' }, false), { ok: true });
  });
});
