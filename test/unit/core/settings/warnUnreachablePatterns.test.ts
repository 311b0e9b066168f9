import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { expectProblem, seedSettings, withRole } from './seedSettings';

// Through parseSettings, which runs warnUnreachablePatterns over the parsed servers, roles and lists.
describe('warnUnreachablePatterns', () => {
  it('warns when a pattern names a server that is not configured', () => {
    const { settings, problems } = parseSettings({ ...seedSettings(), confirm: ['payments/*', '*/delete_*'] });
    expectProblem(problems, 'mcpHost.confirm[0]', ['"payments" is not a configured server', 'never matches'], 'warning');
    assert.deepEqual(settings.confirm, ['payments/*', '*/delete_*']);
    assert.equal(problems.length, 1);
  });

  it('warns when a role pattern names a server outside the role', () => {
    const { settings, problems } = parseSettings(withRole('r', { servers: ['kb'], tools: ['kb/*', 'coupons/issue'] }));
    expectProblem(problems, 'mcpHost.roles.r.tools[1]', ['does not include server "coupons"'], 'warning');
    assert.ok(settings.roles.some((r) => r.name === 'r'));
  });

  it('does not warn for glob server parts', () => {
    const { problems } = parseSettings({ ...seedSettings(), confirm: ['*/x', '{orders,kb}/y', 'ord*/z'] });
    assert.deepEqual(problems, []);
  });
});
