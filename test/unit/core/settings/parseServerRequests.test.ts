import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

const servers = { orders: { command: 'node' }, kb: { command: 'node' } };
const roles = { support: { servers: ['orders'] } };

function parse(extra: Record<string, unknown>) {
  const { settings, problems } = parseSettings({ servers, roles, ...extra });
  return { settings, problems: problems.map(formatProblem) };
}

describe('parseServerRequests (mcpHost.elicitation, mcpHost.sampling)', () => {
  it('unset: nothing in the settings (the policy uses the defaults: elicitation for all, sampling for none)', () => {
    const { settings, problems } = parse({});
    assert.deepEqual(problems, []);
    assert.equal(settings.elicitation, undefined);
    assert.equal(settings.sampling, undefined);
  });

  it('reads server lists, role lists and the model pin', () => {
    const { settings, problems } = parse({
      elicitation: { servers: ['orders', 'k*'], roles: { support: [] } },
      sampling: { servers: ['kb'], roles: { support: ['orders'] }, model: ' copilot/gpt-4o ' },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings.elicitation, { servers: ['orders', 'k*'], roles: { support: [] } });
    assert.deepEqual(settings.sampling, { servers: ['kb'], roles: { support: ['orders'] }, model: 'copilot/gpt-4o' });
  });

  it('an object without "servers" keeps the default list', () => {
    assert.deepEqual(parse({ sampling: { model: 'm' } }).settings.sampling, { servers: [], roles: {}, model: 'm' });
    assert.deepEqual(parse({ elicitation: { roles: { support: ['orders'] } } }).settings.elicitation, { servers: ['*'], roles: { support: ['orders'] } });
  });

  it('reports bad entries at their exact paths and keeps the good ones', () => {
    const { settings, problems } = parse({
      elicitation: { servers: ['orders', 'orders/get', 5, ''], roles: { support: 'orders' }, extra: true },
    });
    assert.deepEqual(settings.elicitation, { servers: ['orders'], roles: {} });
    assert.deepEqual(problems, [
      'mcpHost.elicitation.servers[1]: expected a server name or a glob over server names such as "*" or "orders-*", got string "orders/get" (server names have no "/" (this is not a "server/tool" pattern)); this entry is ignored',
      'mcpHost.elicitation.servers[2]: expected a server name or a glob over server names such as "*" or "orders-*", got number 5; this entry is ignored',
      'mcpHost.elicitation.servers[3]: expected a server name or a glob over server names such as "*" or "orders-*", got string "" (it is empty); this entry is ignored',
      'mcpHost.elicitation.roles.support: expected an array of server names (a server name or a glob over server names such as "*" or "orders-*"), got string "orders"; this entry is ignored',
      'mcpHost.elicitation.extra: unknown key "extra" (allowed: servers, roles); this entry is ignored',
    ]);
  });

  it('a value that is not an object falls back to the default with an error', () => {
    const { settings, problems } = parse({ sampling: ['kb'] });
    assert.deepEqual(settings.sampling, { servers: [], roles: {} });
    assert.deepEqual(problems, ['mcpHost.sampling: expected an object, got an array; using the default {"servers":[]}']);
  });

  it('warns about servers and roles that are not configured (they never match)', () => {
    const { problems } = parse({ sampling: { servers: ['kb', 'ordrs', 'o*'], roles: { suport: ['kb'] } } });
    assert.deepEqual(problems, [
      'mcpHost.sampling.servers[1]: "ordrs" is not a configured server, so it never matches (configured servers: "orders", "kb")',
      'mcpHost.sampling.roles.suport: "suport" is not a role of mcpHost.roles, so this list is never used (configured roles: "support")',
    ]);
  });
});
