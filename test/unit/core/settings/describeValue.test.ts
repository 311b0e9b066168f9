import * as assert from 'node:assert/strict';
import { describeValue, isSensitivePath, knownList } from '../../../../src/core/settings/describeValue';

describe('describeValue', () => {
  it('names the kind of value and shows short scalars', () => {
    assert.equal(describeValue(undefined), 'nothing');
    assert.equal(describeValue(null), 'null');
    assert.equal(describeValue([1]), 'an array');
    assert.equal(describeValue({ a: 1 }), 'an object');
    assert.equal(describeValue(5), 'number 5');
    assert.equal(describeValue(false), 'boolean false');
    assert.equal(describeValue('abc'), 'string "abc"');
  });

  it('cuts a long string to 60 characters', () => {
    const shown = describeValue('x'.repeat(100));
    assert.equal(shown, `string "${'x'.repeat(59)}…"`);
  });

  it('never shows a string under headers or env', () => {
    assert.ok(isSensitivePath(['servers', 'kb', 'headers', 'Authorization']));
    assert.ok(isSensitivePath(['servers', 'a', 'env']));
    assert.ok(!isSensitivePath(['servers', 'a', 'args', 0]));
    assert.equal(describeValue('Bearer sk-live-123', true), 'a string');
    assert.equal(describeValue(42, true), 'number 42');
  });

  it('lists the configured names for "unknown name" messages', () => {
    assert.equal(knownList('servers', new Set(['a', 'b'])), 'configured servers: "a", "b"');
    assert.equal(knownList('roles', new Set()), 'no roles are configured');
  });
});
