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

  it('resource globs match the canonical URI: dot segments resolved, scheme and host case, unreserved escapes; ambiguous URIs refused', () => {
    const guides = policy({ g: { servers: ['a'], resources: ['a/file:///guides/*', 'a/CAT://Docs/%7Eann/*'] } }, 'g');
    for (const uri of ['file:///guides/../private/keys.txt', 'file:///guides/%2e%2e/private/keys.txt', 'file:///guides/%2E%2E/private/keys.txt', 'file:///guides/a/../../private/keys.txt']) {
      assert.deepEqual(guides.resourceAccess('a', uri), { allowed: false, ambiguous: false, uri: 'file:///private/keys.txt' }, uri);
    }
    assert.equal(guides.allowsResource('a', 'file:///private/keys.txt'), false);
    assert.deepEqual(guides.resourceAccess('a', 'FILE:///guides/./a/%62.md'), { allowed: true, uri: 'file:///guides/a/b.md' });
    assert.deepEqual(guides.resourceAccess('a', 'cat://docs/~ann/x'), { allowed: true, uri: 'cat://docs/~ann/x' });
    for (const uri of ['file:///guides/..%2Fprivate/keys.txt', 'file:///guides/..%5Cprivate', 'file:///guides/%252e%252e/private', 'file:///guides/a%00', 'file:///guides/../../../etc/passwd']) {
      const access = guides.resourceAccess('a', uri);
      assert.equal(access.allowed, false, uri);
      assert.equal(!access.allowed && access.ambiguous, true, uri);
    }
    // Without a role every canonical URI is allowed, an ambiguous one still is not.
    const none = policy({}, undefined);
    assert.equal(none.allowsResource('a', 'file:///anything/../else'), true);
    assert.equal(none.allowsResource('a', 'file:///guides/..%2Fprivate'), false);
  });

  it('a resource glob that no canonical URI could match is a settings error', () => {
    const { settings, problems } = parseSettings({
      servers: { a: { command: 'a' } },
      roles: { dots: { resources: ['a/file:///guides/../private/*'] }, slash: { resources: ['a/file:///x%2Fy/*'] }, fine: { resources: ['a/file:///x/*', 'a/pg://h/t?q=../x'] } },
    });
    assert.match(problems.find((p) => p.setting === 'mcpHost.roles.dots.resources[0]')?.message ?? '', /could never match.*"\." or "\.\." segments/);
    assert.match(problems.find((p) => p.setting === 'mcpHost.roles.slash.resources[0]')?.message ?? '', /could never match.*encoded "\/"/);
    assert.deepEqual(settings.roles.map((r) => r.name), ['fine']);
  });

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
