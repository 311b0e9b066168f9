import * as assert from 'node:assert/strict';
import { PolicySet } from '../../../../src/core/policy/activePolicies';
import { compileResourceGlobs } from '../../../../src/core/policy/catalogPolicy';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { nullLogger } from '../../../../src/core/util/logger';

describe('CatalogPolicy: which resources and prompts a role may use', () => {
  it('resource globs: the server part ends at the first "/", "*" in the URI part crosses slashes', () => {
    const m = compileResourceGlobs(['docs/file:///guides/*', '*/demo://resource/static/document/*.md', 'db/pg://host/table?']);
    assert.equal(m('docs', 'file:///guides/a/b/c.md'), true);
    assert.equal(m('docs', 'file:///other/a.md'), false);
    assert.equal(m('other', 'file:///guides/a.md'), false);
    assert.equal(m('everything', 'demo://resource/static/document/x.md'), true);
    assert.equal(m('everything', 'demo://resource/static/document/x.txt'), false);
    assert.equal(m('db', 'pg://host/table1'), true);
    assert.equal(m('db', 'pg://host/table12'), false);
    // Regex characters in a URI are literal.
    assert.equal(compileResourceGlobs(['s/a.b(c)'])('s', 'aXb(c)'), false);
    assert.equal(compileResourceGlobs([])('s', 'x'), false);
  });

  const policy = (roles: Record<string, unknown>, active: string | undefined) => {
    const { settings } = parseSettings({ servers: { a: { command: 'a' }, b: { command: 'b' } }, roles });
    return new PolicySet(settings, active, {}, nullLogger);
  };

  it('no role: every resource and prompt of every enabled server', () => {
    const p = policy({}, undefined);
    assert.equal(p.allowsResource('a', 'x://1'), true);
    assert.equal(p.allowsPrompt('b', 'any'), true);
  });

  it('a role without globs: none; with globs: only matches on its own servers; an unknown role: none', () => {
    const roles = { bare: {}, docs: { servers: ['a'], resources: ['*/x://*'], prompts: ['*/greet'] } };
    assert.equal(policy(roles, 'bare').allowsResource('a', 'x://1'), false);
    assert.equal(policy(roles, 'bare').allowsPrompt('a', 'greet'), false);
    const docs = policy(roles, 'docs');
    assert.equal(docs.allowsResource('a', 'x://1'), true);
    assert.equal(docs.allowsResource('b', 'x://1'), false, 'server b is not among the role servers');
    assert.equal(docs.allowsPrompt('a', 'greet'), true);
    assert.equal(docs.allowsPrompt('a', 'other'), false);
    assert.equal(policy(roles, 'ghost').allowsResource('a', 'x://1'), false);
  });
});
