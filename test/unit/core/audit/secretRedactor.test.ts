/** SecretRedactor: THE masking rule, on its own. */
import * as assert from 'node:assert/strict';
import { SecretRedactor } from '../../../../src/core/audit/secretRedactor';

describe('SecretRedactor', () => {
  it('with nothing to mask, returns its input itself (no scan, no copy)', () => {
    const r = new SecretRedactor();
    const value = { a: ['x'], b: 'y' };
    assert.equal(r.active, false);
    assert.equal(r.deep(value), value);
    assert.equal(r.text('plain'), 'plain');
  });

  it('masks server secrets as [secret], also JSON-escaped and URL-encoded, longest first, in one pass', () => {
    const r = new SecretRedactor();
    r.setServerSecrets('a', ['pa"ss/word', 'abcd']);
    r.setServerSecrets('b', ['abcdefgh']);
    assert.equal(r.text('x pa"ss/word y'), 'x [secret] y');
    assert.equal(r.text(JSON.stringify({ v: 'pa"ss/word' })), '{"v":"[secret]"}');
    assert.equal(r.text(`?k=${encodeURIComponent('pa"ss/word')}`), '?k=[secret]');
    assert.equal(r.text('abcdefgh and abcd'), '[secret] and [secret]');
  });

  it('values shorter than 4 characters are never masked', () => {
    const r = new SecretRedactor();
    r.setServerSecrets('a', ['ab']);
    r.noteArguments({ token: 'xyz' });
    assert.equal(r.active, false);
  });

  it('a server keeps its earlier secret values masked after a restart with new ones', () => {
    const r = new SecretRedactor();
    r.setServerSecrets('a', ['first-secret']);
    r.setServerSecrets('a', ['second-secret']);
    assert.equal(r.text('first-secret second-secret'), '[secret] [secret]');
  });

  it('argument values of secret-looking keys are masked as [redacted], deeply, numbers too', () => {
    const r = new SecretRedactor();
    r.noteArguments({ q: 'visible', auth: { apiKey: 'k-123456', nested: { password: 987654 } }, list: [{ token: 'tok-abcdef' }] });
    assert.equal(r.text('visible k-123456 987654 tok-abcdef'), 'visible [redacted] [redacted] [redacted]');
  });

  it('deep: masks every string of a JSON value, shares what did not change, leaves skipped keys alone', () => {
    const r = new SecretRedactor();
    r.setServerSecrets('a', ['s3cr3t']);
    const clean = { n: 1, list: ['a'] };
    const value = { clean, hit: ['x s3cr3t'], block: { type: 'image', data: 's3cr3t-as-base64' } };
    const out = r.deep(value, new Set(['data']));
    assert.deepEqual(out, { clean, hit: ['x [secret]'], block: { type: 'image', data: 's3cr3t-as-base64' } });
    assert.equal(out.clean, clean, 'unchanged parts are the same objects');
    assert.equal(value.hit[0], 'x s3cr3t', 'the input is not changed');
  });

  it('remembers at most 512 argument values, forgetting the oldest', () => {
    const r = new SecretRedactor();
    for (let i = 0; i < 600; i++) r.noteArguments({ token: `value-${i}` });
    assert.equal(r.text('value-0'), 'value-0');
    assert.equal(r.text('value-599'), '[redacted]');
  });
});
