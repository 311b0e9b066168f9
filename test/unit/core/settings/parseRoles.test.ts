import * as assert from 'node:assert/strict';
import type { SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { parseRoles } from '../../../../src/core/settings/parseRoles';
import { expectProblem, roleNames, withRole } from './seedSettings';

/** parseRoles over `raw.roles`, with the keys of `raw.servers` as the configured servers; shaped like parseSettings' result. */
function parse(raw: Record<string, unknown>): { settings: { roles: ReturnType<typeof parseRoles> }; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const configuredServers = new Set(Object.keys((raw.servers as object | undefined) ?? {}));
  const roles = parseRoles(raw.roles, problems, configuredServers, new Set());
  return { settings: { roles }, problems };
}

describe('parseRoles', () => {
  it('leaves a role without servers as "every enabled server"', () => {
    const { settings, problems } = parse({ servers: { a: { command: 'a' } }, roles: { all: {} } });
    assert.deepEqual(problems, []);
    assert.equal(settings.roles[0].servers, undefined);
    assert.deepEqual(settings.roles[0].tools, ['*/*']);
  });

  describe('malformed roles: exact path, expected and found, the other roles still load', () => {
    it('17. an unknown key inside a role', () => {
      const { settings, problems } = parse(withRole('audit', { servers: ['kb'], tool: ['kb/*'] }));
      expectProblem(problems, 'mcpHost.roles.audit.tool', ['unknown key "tool"', 'tools', 'role "audit" is not loaded']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('18. a role naming an unknown server', () => {
      const { settings, problems } = parse(withRole('billing', { servers: ['kb', 'invoices'] }));
      expectProblem(problems, 'mcpHost.roles.billing.servers[1]', ['unknown server "invoices"', '"orders"']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('19. a pattern without "/"', () => {
      const { settings, problems } = parse(withRole('r', { tools: ['kb/*', 'search'] }));
      expectProblem(problems, 'mcpHost.roles.r.tools[1]', ['expected a pattern like "server/tool"', 'got string "search"', 'no "/"']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('20. patterns with two "/" or an empty side', () => {
      const { settings, problems } = parse(withRole('r', { exclude: ['a/b/c', 'kb/', '/x'] }));
      expectProblem(problems, 'mcpHost.roles.r.exclude[0]', 'more than one "/"');
      expectProblem(problems, 'mcpHost.roles.r.exclude[1]', 'tool part after "/" is empty');
      expectProblem(problems, 'mcpHost.roles.r.exclude[2]', 'server part before "/" is empty');
      assert.equal(settings.roles.length, 2);
    });

    it('21. patterns with unbalanced brackets or braces', () => {
      const { settings, problems } = parse(withRole('r', { confirm: ['kb/[abc', 'kb/{a,b', 'kb/a}'] }));
      expectProblem(problems, 'mcpHost.roles.r.confirm[0]', ['"[" is never closed', 'got string "kb/[abc"']);
      expectProblem(problems, 'mcpHost.roles.r.confirm[1]', '"{" is never closed');
      expectProblem(problems, 'mcpHost.roles.r.confirm[2]', '"}" has no matching opening bracket');
      assert.equal(settings.roles.length, 2);
    });

    it('22. a role that is not an object, and a role with a wrong description type', () => {
      const raw = withRole('r', ['kb/*']);
      (raw.roles as Record<string, unknown>).q = { description: 7 };
      const { settings, problems } = parse(raw);
      expectProblem(problems, 'mcpHost.roles.r', ['expected an object', 'got an array']);
      expectProblem(problems, 'mcpHost.roles.q.description', ['expected a string', 'got number 7']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });
  });
});
