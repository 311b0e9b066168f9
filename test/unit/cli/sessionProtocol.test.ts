/** Parsing of session request lines, in-process. */
import * as assert from 'node:assert/strict';
import { parseRequestLine } from '../../../src/cli/sessionProtocol';

describe('cli session protocol', () => {
  it('parses the ops', () => {
    assert.deepEqual(parseRequestLine('{"id":1,"op":"tools"}'), { ok: true, request: { op: 'tools', id: 1 } });
    assert.deepEqual(parseRequestLine('{"id":"a","op":"servers"}'), { ok: true, request: { op: 'servers', id: 'a' } });
    assert.deepEqual(parseRequestLine('{"id":2,"op":"call","name":"x","args":{"a":1}}'), {
      ok: true,
      request: { op: 'call', id: 2, name: 'x', args: { a: 1 } },
    });
    assert.deepEqual(parseRequestLine('{"op":"refresh"}'), { ok: true, request: { op: 'refresh', id: null } });
    assert.deepEqual(parseRequestLine('{"op":"refresh","server":"s"}'), { ok: true, request: { op: 'refresh', id: null, server: 's' } });
    assert.deepEqual(parseRequestLine('{"id":3,"op":"role","name":"ops"}'), { ok: true, request: { op: 'role', id: 3, name: 'ops' } });
    assert.deepEqual(parseRequestLine('{"id":3,"op":"role","name":""}'), { ok: true, request: { op: 'role', id: 3, name: null } });
    assert.deepEqual(parseRequestLine('{"id":null,"op":"role","name":null}'), { ok: true, request: { op: 'role', id: null, name: null } });
    assert.deepEqual(parseRequestLine('{"id":4,"op":"call","name":"x"}'), { ok: true, request: { op: 'call', id: 4, name: 'x' } });
    assert.deepEqual(parseRequestLine('{"id":5,"op":"tools","extra":true}'), { ok: true, request: { op: 'tools', id: 5 } }, 'other fields are ignored');
  });

  it('reads a call line the same way whether or not it takes the schemas', () => {
    // Well-formed call lines skip the schemas (the per-call fast path); these are what the schemas give.
    const cases: [string, unknown][] = [
      ['{"op":"call","name":"x","args":null,"extra":1}', { op: 'call', id: null, name: 'x', args: null }],
      ['{"id":"s","op":"call","name":"x","args":[1]}', { op: 'call', id: 's', name: 'x', args: [1] }],
      ['{"id":null,"op":"call","name":"x","args":"{\\"a\\":1}"}', { op: 'call', id: null, name: 'x', args: '{"a":1}' }],
      ['{"id":0,"name":"x","op":"call"}', { op: 'call', id: 0, name: 'x' }],
    ];
    for (const [line, request] of cases) assert.deepEqual(parseRequestLine(line), { ok: true, request }, line);
    // Not well formed: the schemas answer, with their messages.
    assert.deepEqual(parseRequestLine('{"id":true,"op":"call","name":"x"}'), { ok: false, id: null, error: '"id" must be a string or a number, got boolean true' });
    assert.deepEqual(parseRequestLine('{"id":{},"op":"call","name":"x"}'), { ok: false, id: null, error: '"id" must be a string or a number, got an object' });
  });

  it('answers malformed lines with id null and bad requests with their id', () => {
    const cases: [string, unknown, RegExp][] = [
      ['nope', null, /not valid JSON/],
      ['[1]', null, /expected a JSON object/],
      ['{"id":{},"op":"tools"}', null, /"id" must be a string or a number/],
      ['{"id":1}', 1, /missing "op"/],
      ['{"id":1,"op":"fly"}', 1, /unknown op "fly"; ops: tools, servers, call, refresh, role/],
      ['{"id":1,"op":"call"}', 1, /"call" needs "name"/],
      ['{"id":1,"op":"call","name":""}', 1, /"call" needs "name", the tool name \(a non-empty string\)/],
      ['{"id":1,"op":"call","name":7}', 1, /"call" needs "name"/],
      ['{"id":1,"op":5}', 1, /unknown op 5; ops:/],
      ['"text"', null, /expected a JSON object like \{"id":1,"op":"tools"\}, got a string/],
      ['{"id":[1],"op":"tools"}', null, /"id" must be a string or a number, got an array/],
      ['{"id":1,"op":"role"}', 1, /"role" needs "name"/],
      ['{"id":1,"op":"role","name":5}', 1, /"name" must be a role name or null/],
      ['{"id":1,"op":"refresh","server":5}', 1, /"server" must be a server name/],
    ];
    for (const [line, id, message] of cases) {
      const r = parseRequestLine(line);
      assert.equal(r.ok, false, line);
      if (r.ok) continue;
      assert.equal(r.id, id, line);
      assert.match(r.error, message, line);
    }
  });
});
