import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';
import { SEED_SERVERS, expectProblem, roleNames, seedSettings, serverNames, withServer } from './seedSettings';

// The parts have their own tests (parseServers, parseRoles, parsePatternList, parseAuditPath,
// warnUnreachablePatterns); these are about putting them together.
describe('parseSettings', () => {
  describe('valid settings', () => {
    it('parses the seed example without problems', () => {
      const { settings, problems } = parseSettings(seedSettings());
      assert.deepEqual(problems, []);
      assert.deepEqual(serverNames(settings), SEED_SERVERS);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
      assert.equal(settings.activeRole, 'support');
      assert.equal(settings.auditPath, '.mcp-host/audit.jsonl');
      assert.deepEqual(settings.confirm, ['*/delete_*', 'coupons/issue_*']);
      assert.deepEqual(settings.autoApprove, ['kb/search']);

      const support = settings.roles[0];
      assert.deepEqual(support.servers, ['orders', 'shipping', 'kb']);
      assert.deepEqual(support.tools, ['orders/get_*', 'orders/list_*', 'shipping/*', 'kb/search']);
      assert.deepEqual(support.exclude, ['*/delete_*']);
      assert.deepEqual(support.autoApprove, ['*/*']);
      assert.deepEqual(support.confirm, []);

      const ops = settings.roles[1];
      assert.deepEqual(ops.servers, ['reports', 'coupons']);
      assert.deepEqual(ops.tools, ['*/*'], 'tools defaults to every tool of the role servers');
      assert.deepEqual(ops.confirm, ['coupons/*']);
      assert.deepEqual(ops.autoApprove, []);
      assert.deepEqual(ops.exclude, []);
    });

    it('gives the defaults for empty settings', () => {
      const { settings, problems } = parseSettings({});
      assert.deepEqual(problems, []);
      assert.deepEqual(settings, {
        servers: [],
        roles: [],
        autoApprove: [],
        confirm: [],
        toolNames: 'prefix',
        timeoutMs: 20000,
        maxToolRounds: 10,
        maxResultChars: 50000,
        maxMessageBytes: 64 * 1024 * 1024,
        auditMaxBytes: 10 * 1024 * 1024,
        pinning: 'review',
      });
      assert.ok(!('activeRole' in settings));
      assert.ok(!('auditPath' in settings));
    });

    it('treats an empty or null activeRole as no role', () => {
      for (const activeRole of ['', null]) {
        const { settings, problems } = parseSettings({ ...seedSettings(), activeRole });
        assert.deepEqual(problems, []);
        assert.equal(settings.activeRole, undefined);
      }
    });

    it('accepts toolNames "reject", custom limits and a nested audit object', () => {
      const { settings, problems } = parseSettings({
        toolNames: 'reject',
        timeoutMs: 5000,
        maxToolRounds: 3,
        maxResultChars: 1000,
        maxMessageBytes: 1_000_000,
        audit: { path: '/tmp/audit.jsonl' },
      });
      assert.deepEqual(problems, []);
      assert.equal(settings.toolNames, 'reject');
      assert.equal(settings.timeoutMs, 5000);
      assert.equal(settings.maxToolRounds, 3);
      assert.equal(settings.maxResultChars, 1000);
      assert.equal(settings.maxMessageBytes, 1_000_000);
      assert.equal(settings.auditPath, '/tmp/audit.jsonl');
    });

    it('lets a role name a disabled server without a problem', () => {
      const raw = withServer('coupons', { command: 'node', enabled: false });
      const { settings, problems } = parseSettings(raw);
      assert.deepEqual(problems, []);
      assert.equal(settings.servers.find((s) => s.name === 'coupons')?.enabled, false);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });
  });

  describe('malformed settings: exact path, expected and found, the rest still loads', () => {
    it('16. mcpHost.servers that is not an object', () => {
      const { settings, problems } = parseSettings({ servers: [{ command: 'x' }], roles: { any: {} } });
      expectProblem(problems, 'mcpHost.servers', ['expected an object', 'got an array']);
      assert.deepEqual(settings.servers, []);
      assert.deepEqual(roleNames(settings), ['any']);
    });

    it('23. an activeRole naming an unknown role fails closed', () => {
      const { settings, problems } = parseSettings({ ...seedSettings(), activeRole: 'suport' });
      expectProblem(problems, 'mcpHost.activeRole', ['unknown role "suport"', '"support"', 'no tools']);
      assert.equal(settings.activeRole, 'suport');
      // Not invented as a role: McpHost fails closed on it (see test/unit/core/roles.test.ts).
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('24. an activeRole naming an invalid role fails closed too', () => {
      const raw = seedSettings();
      (raw.roles as Record<string, Record<string, unknown>>).support.tools = ['orders'];
      const { settings, problems } = parseSettings(raw);
      expectProblem(problems, 'mcpHost.roles.support.tools[0]', 'no "/"');
      expectProblem(problems, 'mcpHost.activeRole', ['role "support" is invalid', 'no tools']);
      assert.equal(settings.activeRole, 'support');
      // The invalid role is dropped; McpHost fails closed on the name it cannot find.
      assert.equal(settings.roles.find((r) => r.name === 'support'), undefined);
      assert.ok(settings.roles.some((r) => r.name === 'operations'));
    });

    it('25. an activeRole that is not a string means no role', () => {
      const { settings, problems } = parseSettings({ ...seedSettings(), activeRole: 3 });
      expectProblem(problems, 'mcpHost.activeRole', ['expected a role name', 'got number 3']);
      assert.equal(settings.activeRole, undefined);
    });

    it('26. bad global scalars fall back to their defaults', () => {
      const { settings, problems } = parseSettings({
        ...seedSettings(),
        toolNames: 'bare',
        timeoutMs: -1,
        maxToolRounds: '10',
        maxResultChars: 0,
        maxMessageBytes: 1.5,
      });
      expectProblem(problems, 'mcpHost.toolNames', ['expected "prefix" or "reject"', 'got string "bare"', 'default "prefix"']);
      expectProblem(problems, 'mcpHost.timeoutMs', ['expected a positive integer', 'got number -1', 'default 20000']);
      expectProblem(problems, 'mcpHost.maxToolRounds', ['expected a positive integer', 'got string "10"', 'default 10']);
      expectProblem(problems, 'mcpHost.maxResultChars', ['got number 0', 'default 50000']);
      expectProblem(problems, 'mcpHost.maxMessageBytes', ['got number 1.5', 'default 67108864']);
      assert.equal(settings.maxMessageBytes, 64 * 1024 * 1024);
      assert.equal(settings.toolNames, 'prefix');
      assert.equal(settings.timeoutMs, 20000);
      assert.equal(settings.maxToolRounds, 10);
      assert.equal(settings.maxResultChars, 50000);
      assert.equal(settings.servers.length, 5);
      assert.equal(settings.roles.length, 2);
    });

    it('28. an unknown top-level key', () => {
      const { settings, problems } = parseSettings({ ...seedSettings(), maxRounds: 4 });
      expectProblem(problems, 'mcpHost.maxRounds', 'unknown setting');
      assert.equal(settings.servers.length, 5);
    });

    it('30. several bad servers and roles at once: each reported, the good ones load', () => {
      const { settings, problems } = parseSettings({
        servers: {
          good1: { command: 'a' },
          bad1: { command: 5 },
          good2: { type: 'http', url: 'https://x/mcp' },
          bad2: { type: 'sse' },
        },
        roles: { r1: { servers: ['good1'] }, r2: { servers: 'good2' }, r3: { tools: ['good2/*'] } },
      });
      expectProblem(problems, 'mcpHost.servers.bad1.command', 'got number 5');
      expectProblem(problems, 'mcpHost.servers.bad2.url', 'missing');
      expectProblem(problems, 'mcpHost.roles.r2.servers', ['expected an array of server names', 'got string "good2"']);
      assert.deepEqual(serverNames(settings), ['good1', 'good2']);
      assert.deepEqual(roleNames(settings), ['r1', 'r3']);
      assert.equal(problems.length, 3, problems.map(formatProblem).join('\n'));
    });

    it('a role may name a server whose own definition is bad (the server problem is reported once)', () => {
      const { settings, problems } = parseSettings(withServer('kb', { type: 'http' }));
      expectProblem(problems, 'mcpHost.servers.kb.url', 'missing');
      assert.equal(problems.length, 1, problems.map(formatProblem).join('\n'));
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });
  });
});
