import * as assert from 'node:assert/strict';
import { parseRequestLine } from '../../../src/cli/sessionProtocol';

describe('session protocol: answers to servers\' questions', () => {
  it('parses elicitation and sampling answers', () => {
    assert.deepEqual(parseRequestLine('{"id":1,"op":"elicitation","request":"elicitation-1","action":"accept","content":{"a":1}}'), {
      ok: true,
      request: { id: 1, op: 'elicitation', request: 'elicitation-1', action: 'accept', content: { a: 1 } },
    });
    assert.deepEqual(parseRequestLine('{"op":"elicitation","request":"e","action":"cancel"}'), { ok: true, request: { id: null, op: 'elicitation', request: 'e', action: 'cancel' } });
    assert.deepEqual(parseRequestLine('{"id":"s","op":"sampling","request":"sampling-2","action":"accept","text":"hi","model":"m","stopReason":"maxTokens"}'), {
      ok: true,
      request: { id: 's', op: 'sampling', request: 'sampling-2', action: 'accept', text: 'hi', model: 'm', stopReason: 'maxTokens' },
    });
  });

  for (const [line, error] of [
    ['{"id":1,"op":"elicitation","action":"accept"}', '"elicitation" needs "request": the id of the elicitation event it answers'],
    ['{"id":1,"op":"sampling","request":"","action":"accept"}', '"request" must not be empty'],
    ['{"id":1,"op":"elicitation","request":"e"}', '"action" must be "accept", "decline" or "cancel"'],
    ['{"id":1,"op":"elicitation","request":"e","action":"accept","content":"x"}', '"content" must be an object of field values, got a string'],
    ['{"id":1,"op":"sampling","request":"e","action":"accept","text":5}', '"text" must be a string, got number 5'],
  ] as const) {
    it(`explains ${line}`, () => {
      assert.deepEqual(parseRequestLine(line), { ok: false, id: 1, error });
    });
  }
});
