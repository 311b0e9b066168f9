/**
 * Behaviour 3 (pure part): exposed tool names are unique, valid for model APIs, stable, and never
 * depend on which server connected first.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sanitizeNamePart } from '../../../../src/core/settings/serverPrefix';
import { candidateName, MAX_TOOL_NAME, stableHash } from '../../../../src/core/tools/toolNaming';
import { LONG_TOOL, MODEL_NAME } from '../helpers';

const sha6 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 6);

describe('toolNaming', () => {
  it('prefix mode is <server>__<tool>; reject mode keeps the bare name', () => {
    assert.equal(candidateName('prefix', 'github', 'search'), 'github__search');
    assert.equal(candidateName('reject', 'github', 'search'), 'search');
  });

  it('sanitizes characters a model API refuses, including non-ASCII, and never returns empty', () => {
    assert.equal(candidateName('prefix', 'db', 'get.data'), 'db__get_data');
    assert.equal(candidateName('prefix', 'my.server', 'x'), 'my_server__x');
    assert.equal(candidateName('prefix', 'db', '名前'), 'db____');
    assert.equal(candidateName('reject', 'db', 'café au lait'), 'caf__au_lait');
    assert.equal(sanitizeNamePart(''), '_');
    assert.match(candidateName('reject', 'db', '🙂'), MODEL_NAME);
  });

  it('shortens long names to 64 characters with a stable hash of the full identity', () => {
    const a = candidateName('prefix', 'collide', LONG_TOOL);
    assert.equal(a.length, MAX_TOOL_NAME);
    assert.match(a, MODEL_NAME);
    // Same input, same name: on every run and machine.
    assert.equal(candidateName('prefix', 'collide', LONG_TOOL), a);
    assert.equal(a, `${`collide__${LONG_TOOL}`.slice(0, 57)}_${sha6(`collide/${LONG_TOOL}`)}`);
    assert.equal(stableHash(`collide/${LONG_TOOL}`), sha6(`collide/${LONG_TOOL}`));
    // Two long names that share the kept prefix still differ.
    const b = candidateName('prefix', 'collide', `${LONG_TOOL}_v2`);
    assert.notEqual(a, b);
    assert.equal(a.slice(0, 57), b.slice(0, 57));
    // Names that fit are untouched.
    assert.equal(candidateName('prefix', 's', 'x'.repeat(61)), `s__${'x'.repeat(61)}`);
  });
});
