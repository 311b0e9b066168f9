import * as assert from 'node:assert/strict';
import { redactSecrets } from '../../../../src/core/settings/redactSecrets';

const TOKEN = 'tok-3f9a1c77e2b4d0aa';

describe('redactSecrets', () => {
  it('replaces every occurrence of each secret', () => {
    assert.equal(redactSecrets(`a ${TOKEN} b ${TOKEN}`, [TOKEN]), 'a [secret] b [secret]');
  });

  it('ignores values shorter than 4 characters', () => {
    assert.equal(redactSecrets('abc abcd', ['abc', 'abcd']), 'abc [secret]');
  });

  it('replaces the longer secret first when one contains another', () => {
    assert.equal(redactSecrets('x secret-long y secret', ['secret', 'secret-long']), 'x [secret] y [secret]');
  });

  it('catches JSON-escaped and URL-encoded forms', () => {
    const s = 'p@ss"w/rd\\1';
    assert.equal(redactSecrets(JSON.stringify({ h: s }), [s]), '{"h":"[secret]"}');
    assert.equal(redactSecrets(`https://x/?k=${encodeURIComponent(s)}`, [s]), 'https://x/?k=[secret]');
  });

  it('returns the text unchanged without secrets', () => {
    assert.equal(redactSecrets('nothing', []), 'nothing');
  });
});
