import * as assert from 'node:assert/strict';
import { redactArguments, summarize } from '../../../../src/core/audit/redactArguments';
import type { Any } from '../helpers';

describe('redactArguments', () => {
  it('redactArguments covers the usual secret names, deeply, without touching the input', () => {
    const input = {
      password: 'a',
      passwd: 'b',
      api_key: 'c',
      'api-key': 'd',
      Authorization: 'e',
      accessToken: 'f',
      client_secret: 'g',
      cookie: 'h',
      private_key: 'i',
      list: [{ token: 'j' }],
      keep: 'k',
      keyboard: 'l',
    };
    const out = redactArguments(input) as Any;
    for (const k of ['password', 'passwd', 'api_key', 'api-key', 'Authorization', 'accessToken', 'client_secret', 'cookie', 'private_key']) {
      assert.equal(out[k], '[redacted]', k);
    }
    assert.deepEqual(out.list, [{ token: '[redacted]' }]);
    assert.equal(out.keep, 'k');
    assert.equal(out.keyboard, 'l');
    assert.equal(input.password, 'a', 'the input is not modified');
  });

  it('summarize cuts on a character boundary', () => {
    assert.equal(summarize('short'), 'short');
    const cut = summarize('日本語'.repeat(1000));
    assert.ok(Buffer.byteLength(cut) <= 1024);
    assert.ok(!cut.includes('\uFFFD'));
  });
});
