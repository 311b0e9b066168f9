import * as assert from 'node:assert/strict';
import { isValidGlob, literalServerPart } from '../../../../src/core/settings/globSyntax';

describe('globSyntax', () => {
  describe('isValidGlob', () => {
    it('accepts server/tool patterns', () => {
      for (const p of ['*/*', 'orders/get_*', 'kb/*', '*/search', '{orders,kb}/get_?', 'a-b/[a-z]*', 'x/**']) {
        assert.equal(isValidGlob(p), undefined, p);
      }
    });

    it('explains bad patterns', () => {
      assert.match(isValidGlob('')!, /empty/);
      assert.match(isValidGlob('orders')!, /no "\/"/);
      assert.match(isValidGlob('a/b/c')!, /more than one/);
      assert.match(isValidGlob('/b')!, /server part/);
      assert.match(isValidGlob('a/')!, /tool part/);
      assert.match(isValidGlob('a/(b')!, /"\(" is never closed/);
      assert.match(isValidGlob('a]/b')!, /no matching opening/);
      assert.match(isValidGlob('a/b\\')!, /lone/);
    });
  });

  describe('literalServerPart', () => {
    it('gives the server part of a pattern whose server part is a plain name', () => {
      assert.equal(literalServerPart('orders/get_*'), 'orders');
      assert.equal(literalServerPart('my.server/*'), 'my.server');
    });

    it('gives nothing for a glob server part, a negation, an escape or no server part', () => {
      for (const p of ['*/x', '{orders,kb}/y', 'ord*/z', 'o?/z', '[ab]/z', '!orders/x', 'or\\ders/x', '/x', 'orders']) {
        assert.equal(literalServerPart(p), undefined, p);
      }
    });
  });
});
