import * as assert from 'node:assert/strict';
import type { HostSettings, SettingsProblem } from '../../../src/core/settings/hostSettings';
import { DEFAULTS } from '../../../src/core/settings/hostSettings';
import {
  KNOWN_SETTING_KEYS,
  formatProblem,
  isValidGlob,
  parseSettings,
  settingPath,
} from '../../../src/core/settings/parseSettings';

/** The example of the source document: a read-only support role and an operations role whose writes need confirmation. */
function seedSettings(): Record<string, unknown> {
  return {
    servers: {
      orders: { command: 'node', args: ['${workspaceFolder}/servers/orders.js'], env: { ORDERS_DB: '${env:ORDERS_DB}' } },
      shipping: { type: 'stdio', command: 'node', args: ['servers/shipping.js'], cwd: 'servers' },
      kb: { type: 'http', url: 'https://kb.example.com/mcp', headers: { Authorization: 'Bearer ${secret:KB_TOKEN}' } },
      reports: { type: 'sse', url: 'http://127.0.0.1:8123/sse', timeoutMs: 60000 },
      coupons: { command: 'node', args: ['servers/coupons.js'], connectTimeoutMs: 5000, enabled: true },
    },
    roles: {
      support: {
        description: 'Answers customers: order lookup, shipment lookup, knowledge base. Read only.',
        servers: ['orders', 'shipping', 'kb'],
        tools: ['orders/get_*', 'orders/list_*', 'shipping/*', 'kb/search'],
        exclude: ['*/delete_*'],
        autoApprove: ['*/*'],
      },
      operations: {
        description: 'Reports and coupons.',
        servers: ['reports', 'coupons'],
        confirm: ['coupons/*'],
      },
    },
    activeRole: 'support',
    autoApprove: ['kb/search'],
    confirm: ['*/delete_*', 'coupons/issue_*'],
    toolNames: 'prefix',
    timeoutMs: 20000,
    maxToolRounds: 10,
    maxResultChars: 50000,
    'audit.path': '.mcp-host/audit.jsonl',
  };
}

function find(problems: readonly SettingsProblem[], setting: string): SettingsProblem[] {
  return problems.filter((p) => p.setting === setting);
}

/** Exactly one problem at `setting` whose message contains every fragment. */
function expectProblem(
  problems: readonly SettingsProblem[],
  setting: string,
  fragments: string | string[],
  severity: 'error' | 'warning' = 'error',
): SettingsProblem {
  const at = find(problems, setting);
  assert.equal(at.length, 1, `expected one problem at ${setting}, got:\n${problems.map(formatProblem).join('\n')}`);
  const p = at[0];
  assert.equal(p.severity, severity, formatProblem(p));
  for (const f of [fragments].flat()) assert.ok(p.message.includes(f), `"${p.message}" should contain "${f}"`);
  return p;
}

function serverNames(s: HostSettings): string[] {
  return s.servers.map((x) => x.name);
}

function roleNames(s: HostSettings): string[] {
  return s.roles.map((x) => x.name);
}

/** The seed with one server replaced/added. */
function withServer(name: string, def: unknown): Record<string, unknown> {
  const raw = seedSettings();
  raw.servers = { ...(raw.servers as object), [name]: def };
  return raw;
}

function withRole(name: string, def: unknown): Record<string, unknown> {
  const raw = seedSettings();
  raw.roles = { ...(raw.roles as object), [name]: def };
  return raw;
}

const SEED_SERVERS = ['orders', 'shipping', 'kb', 'reports', 'coupons'];

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

    it('keeps variables unresolved and fills server defaults', () => {
      const { settings } = parseSettings(seedSettings());
      const [orders, shipping, kb, reports, coupons] = settings.servers;
      assert.deepEqual(orders, {
        name: 'orders',
        type: 'stdio',
        enabled: true,
        connectTimeoutMs: DEFAULTS.connectTimeoutMs,
        command: 'node',
        args: ['${workspaceFolder}/servers/orders.js'],
        env: { ORDERS_DB: '${env:ORDERS_DB}' },
      });
      assert.equal(orders.timeoutMs, undefined);
      assert.equal(shipping.type, 'stdio');
      assert.equal(shipping.type === 'stdio' && shipping.cwd, 'servers');
      assert.deepEqual(kb, {
        name: 'kb',
        type: 'http',
        enabled: true,
        connectTimeoutMs: 15000,
        url: 'https://kb.example.com/mcp',
        headers: { Authorization: 'Bearer ${secret:KB_TOKEN}' },
      });
      assert.equal(reports.type, 'sse');
      assert.equal(reports.timeoutMs, 60000);
      assert.deepEqual(reports.headers, {});
      assert.equal(coupons.connectTimeoutMs, 5000);
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

    it('preserves the key order of mcpHost.servers', () => {
      const servers: Record<string, unknown> = {};
      for (const n of ['zeta', 'alpha', 'mid', 'beta']) servers[n] = { command: n };
      const { settings } = parseSettings({ servers });
      assert.deepEqual(serverNames(settings), ['zeta', 'alpha', 'mid', 'beta']);
    });

    it('defaults type to stdio and accepts an explicit stdio type', () => {
      const { settings, problems } = parseSettings({ servers: { a: { command: 'x' }, b: { type: 'stdio', command: 'y', args: [] } } });
      assert.deepEqual(problems, []);
      assert.deepEqual(
        settings.servers.map((s) => s.type),
        ['stdio', 'stdio'],
      );
      assert.deepEqual(settings.servers[0].type === 'stdio' && settings.servers[0].args, []);
      assert.deepEqual(settings.servers[0].type === 'stdio' && settings.servers[0].env, {});
    });

    it('parses http and sse servers with headers, and a url with variables', () => {
      const { settings, problems } = parseSettings({
        servers: {
          h: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { 'X-Api-Key': '${secret:K}' } },
          s: { type: 'sse', url: 'https://example.com/sse', enabled: false },
          v: { type: 'http', url: '${env:BASE_URL}/mcp' },
        },
      });
      assert.deepEqual(problems, []);
      const [h, s, v] = settings.servers;
      assert.equal(h.type, 'http');
      assert.deepEqual(h.headers, { 'X-Api-Key': '${secret:K}' });
      assert.equal(s.type, 'sse');
      assert.equal(s.enabled, false);
      assert.equal(v.type !== 'stdio' && v.url, '${env:BASE_URL}/mcp');
    });

    it('accepts toolNames "reject", custom limits and a nested audit object', () => {
      const { settings, problems } = parseSettings({
        toolNames: 'reject',
        timeoutMs: 5000,
        maxToolRounds: 3,
        maxResultChars: 1000,
        audit: { path: '/tmp/audit.jsonl' },
      });
      assert.deepEqual(problems, []);
      assert.equal(settings.toolNames, 'reject');
      assert.equal(settings.timeoutMs, 5000);
      assert.equal(settings.maxToolRounds, 3);
      assert.equal(settings.maxResultChars, 1000);
      assert.equal(settings.auditPath, '/tmp/audit.jsonl');
    });

    it('lets a role name a disabled server without a problem', () => {
      const raw = withServer('coupons', { command: 'node', enabled: false });
      const { settings, problems } = parseSettings(raw);
      assert.deepEqual(problems, []);
      assert.equal(settings.servers.find((s) => s.name === 'coupons')?.enabled, false);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('leaves a role without servers as "every enabled server"', () => {
      const { settings, problems } = parseSettings({ servers: { a: { command: 'a' } }, roles: { all: {} } });
      assert.deepEqual(problems, []);
      assert.equal(settings.roles[0].servers, undefined);
      assert.deepEqual(settings.roles[0].tools, ['*/*']);
    });

    it('exports the known setting keys', () => {
      assert.deepEqual(
        [...KNOWN_SETTING_KEYS].sort(),
        ['activeRole', 'audit.path', 'autoApprove', 'confirm', 'maxResultChars', 'maxToolRounds', 'roles', 'servers', 'timeoutMs', 'toolNames'],
      );
    });
  });

  describe('malformed settings: exact path, expected and found, the rest still loads', () => {
    it('1. a wrong type inside args', () => {
      const { settings, problems } = parseSettings(withServer('orders', { command: 'node', args: ['ok', 5] }));
      const p = expectProblem(problems, 'mcpHost.servers.orders.args[1]', ['expected a string', 'got number 5']);
      assert.equal(p.server, 'orders');
      assert.equal(formatProblem(p).startsWith('mcpHost.servers.orders.args[1]: expected a string, got number 5'), true);
      assert.deepEqual(serverNames(settings), SEED_SERVERS.filter((n) => n !== 'orders'));
    });

    it('2. a missing command', () => {
      const { settings, problems } = parseSettings(withServer('shipping', { args: ['x'] }));
      expectProblem(problems, 'mcpHost.servers.shipping.command', ['missing', 'expected a non-empty string']);
      assert.deepEqual(serverNames(settings), ['orders', 'kb', 'reports', 'coupons']);
    });

    it('3. an empty command', () => {
      const { settings, problems } = parseSettings(withServer('shipping', { command: '' }));
      expectProblem(problems, 'mcpHost.servers.shipping.command', ['expected a non-empty string', 'got string ""']);
      assert.equal(settings.servers.length, 4);
    });

    it('4. an unknown key inside a server drops that server', () => {
      const { settings, problems } = parseSettings(withServer('kb', { type: 'http', url: 'https://x/mcp', header: {} }));
      expectProblem(problems, 'mcpHost.servers.kb.header', ['unknown key "header"', 'headers', 'server "kb" is not loaded']);
      assert.deepEqual(serverNames(settings), ['orders', 'shipping', 'reports', 'coupons']);
    });

    it('5. an unknown server type', () => {
      const { settings, problems } = parseSettings(withServer('kb', { type: 'websocket', url: 'ws://x' }));
      expectProblem(problems, 'mcpHost.servers.kb.type', ['expected "stdio", "http" or "sse"', 'got string "websocket"']);
      assert.equal(settings.servers.length, 4);
    });

    it('6. a url without a remote type', () => {
      const { settings, problems } = parseSettings(withServer('kb', { url: 'https://x/mcp' }));
      expectProblem(problems, 'mcpHost.servers.kb.type', ['missing', '"http" or "sse"']);
      assert.equal(settings.servers.length, 4);
    });

    it('7. a url that is not http(s)', () => {
      const { settings, problems } = parseSettings(withServer('kb', { type: 'http', url: 'ftp://files.example.com' }));
      expectProblem(problems, 'mcpHost.servers.kb.url', ['http:// or https://', 'got string "ftp://files.example.com"']);
      assert.equal(settings.servers.length, 4);
    });

    it('8. a header value that is not a string (and header text is never echoed)', () => {
      const { settings, problems } = parseSettings(
        withServer('kb', { type: 'http', url: 'https://x/mcp', headers: { Authorization: 42, 'X-Other': 'ok' } }),
      );
      expectProblem(problems, 'mcpHost.servers.kb.headers.Authorization', ['expected a string', 'got number 42']);
      assert.equal(settings.servers.length, 4);

      const literal = parseSettings(withServer('kb', { type: 'http', url: 'https://x/mcp', headers: 'Bearer sk-live-123456' }));
      const p = expectProblem(literal.problems, 'mcpHost.servers.kb.headers', ['expected an object of string values', 'got a string']);
      assert.ok(!p.message.includes('sk-live-123456'));
    });

    it('9. an env value that is not a string', () => {
      const { settings, problems } = parseSettings(withServer('orders', { command: 'node', env: { DEBUG: true } }));
      expectProblem(problems, 'mcpHost.servers.orders.env.DEBUG', ['expected a string', 'got boolean true']);
      assert.equal(settings.servers.length, 4);
    });

    it('10. timeoutMs that is not a positive integer', () => {
      for (const [bad, found] of [
        [0, 'number 0'],
        [1.5, 'number 1.5'],
        [-3, 'number -3'],
        ['100', 'string "100"'],
      ] as const) {
        const { settings, problems } = parseSettings(withServer('reports', { type: 'sse', url: 'http://x/sse', timeoutMs: bad }));
        expectProblem(problems, 'mcpHost.servers.reports.timeoutMs', ['expected a positive integer', `got ${found}`]);
        assert.equal(settings.servers.length, 4);
      }
    });

    it('11. connectTimeoutMs and enabled with wrong types report both', () => {
      const { settings, problems } = parseSettings(withServer('coupons', { command: 'node', connectTimeoutMs: 'soon', enabled: 'yes' }));
      expectProblem(problems, 'mcpHost.servers.coupons.connectTimeoutMs', ['expected a positive integer', 'got string "soon"']);
      expectProblem(problems, 'mcpHost.servers.coupons.enabled', ['expected true or false', 'got string "yes"']);
      assert.deepEqual(serverNames(settings), ['orders', 'shipping', 'kb', 'reports']);
    });

    it('12. a server definition that is not an object', () => {
      const { settings, problems } = parseSettings(withServer('orders', 'node orders.js'));
      expectProblem(problems, 'mcpHost.servers.orders', ['expected an object', 'got string "node orders.js"']);
      assert.equal(settings.servers.length, 4);
    });

    it('13. an empty server name', () => {
      const { settings, problems } = parseSettings(withServer('', { command: 'x' }));
      expectProblem(problems, 'mcpHost.servers[""]', 'must not be empty');
      assert.deepEqual(serverNames(settings), SEED_SERVERS);
    });

    it('14. a server name with "/"', () => {
      const { settings, problems } = parseSettings(withServer('a/b', { command: 'x' }));
      expectProblem(problems, 'mcpHost.servers["a/b"]', 'must not contain "/"');
      assert.deepEqual(serverNames(settings), SEED_SERVERS);
    });

    it('15. two servers whose prefixes collide: the later one is dropped, both are named', () => {
      const raw = seedSettings();
      raw.servers = { 'my.server': { command: 'a' }, ...(raw.servers as object), 'my_server': { command: 'b' } };
      const { settings, problems } = parseSettings(raw);
      const p = expectProblem(problems, 'mcpHost.servers.my_server', ['"my.server"', '"my_server"', 'prefix "my_server"']);
      assert.equal(p.server, 'my_server');
      assert.deepEqual(serverNames(settings), ['my.server', ...SEED_SERVERS]);
    });

    it('16. mcpHost.servers that is not an object', () => {
      const { settings, problems } = parseSettings({ servers: [{ command: 'x' }], roles: { any: {} } });
      expectProblem(problems, 'mcpHost.servers', ['expected an object', 'got an array']);
      assert.deepEqual(settings.servers, []);
      assert.deepEqual(roleNames(settings), ['any']);
    });

    it('17. an unknown key inside a role', () => {
      const { settings, problems } = parseSettings(withRole('audit', { servers: ['kb'], tool: ['kb/*'] }));
      expectProblem(problems, 'mcpHost.roles.audit.tool', ['unknown key "tool"', 'tools', 'role "audit" is not loaded']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('18. a role naming an unknown server', () => {
      const { settings, problems } = parseSettings(withRole('billing', { servers: ['kb', 'invoices'] }));
      expectProblem(problems, 'mcpHost.roles.billing.servers[1]', ['unknown server "invoices"', '"orders"']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('19. a pattern without "/"', () => {
      const { settings, problems } = parseSettings(withRole('r', { tools: ['kb/*', 'search'] }));
      expectProblem(problems, 'mcpHost.roles.r.tools[1]', ['expected a pattern like "server/tool"', 'got string "search"', 'no "/"']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
    });

    it('20. patterns with two "/" or an empty side', () => {
      const { settings, problems } = parseSettings(withRole('r', { exclude: ['a/b/c', 'kb/', '/x'] }));
      expectProblem(problems, 'mcpHost.roles.r.exclude[0]', 'more than one "/"');
      expectProblem(problems, 'mcpHost.roles.r.exclude[1]', 'tool part after "/" is empty');
      expectProblem(problems, 'mcpHost.roles.r.exclude[2]', 'server part before "/" is empty');
      assert.equal(settings.roles.length, 2);
    });

    it('21. patterns with unbalanced brackets or braces', () => {
      const { settings, problems } = parseSettings(withRole('r', { confirm: ['kb/[abc', 'kb/{a,b', 'kb/a}'] }));
      expectProblem(problems, 'mcpHost.roles.r.confirm[0]', ['"[" is never closed', 'got string "kb/[abc"']);
      expectProblem(problems, 'mcpHost.roles.r.confirm[1]', '"{" is never closed');
      expectProblem(problems, 'mcpHost.roles.r.confirm[2]', '"}" has no matching opening bracket');
      assert.equal(settings.roles.length, 2);
    });

    it('22. a role that is not an object, and a role with a wrong description type', () => {
      const raw = withRole('r', ['kb/*']);
      (raw.roles as Record<string, unknown>).q = { description: 7 };
      const { settings, problems } = parseSettings(raw);
      expectProblem(problems, 'mcpHost.roles.r', ['expected an object', 'got an array']);
      expectProblem(problems, 'mcpHost.roles.q.description', ['expected a string', 'got number 7']);
      assert.deepEqual(roleNames(settings), ['support', 'operations']);
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
      });
      expectProblem(problems, 'mcpHost.toolNames', ['expected "prefix" or "reject"', 'got string "bare"', 'default "prefix"']);
      expectProblem(problems, 'mcpHost.timeoutMs', ['expected a positive integer', 'got number -1', 'default 20000']);
      expectProblem(problems, 'mcpHost.maxToolRounds', ['expected a positive integer', 'got string "10"', 'default 10']);
      expectProblem(problems, 'mcpHost.maxResultChars', ['got number 0', 'default 50000']);
      assert.equal(settings.toolNames, 'prefix');
      assert.equal(settings.timeoutMs, 20000);
      assert.equal(settings.maxToolRounds, 10);
      assert.equal(settings.maxResultChars, 50000);
      assert.equal(settings.servers.length, 5);
      assert.equal(settings.roles.length, 2);
    });

    it('27. global autoApprove / confirm: a non-array falls back, a bad entry is skipped', () => {
      const { settings, problems } = parseSettings({ ...seedSettings(), autoApprove: 'kb/*', confirm: ['coupons/*', 'oops', 12] });
      expectProblem(problems, 'mcpHost.autoApprove', ['expected an array of patterns', 'got string "kb/*"']);
      expectProblem(problems, 'mcpHost.confirm[1]', ['got string "oops"', 'ignored']);
      expectProblem(problems, 'mcpHost.confirm[2]', ['got number 12']);
      assert.deepEqual(settings.autoApprove, []);
      assert.deepEqual(settings.confirm, ['coupons/*']);
    });

    it('28. an unknown top-level key', () => {
      const { settings, problems } = parseSettings({ ...seedSettings(), maxRounds: 4 });
      expectProblem(problems, 'mcpHost.maxRounds', 'unknown setting');
      assert.equal(settings.servers.length, 5);
    });

    it('29. a bad audit path, flat or nested', () => {
      const flat = parseSettings({ 'audit.path': 5 });
      expectProblem(flat.problems, 'mcpHost.audit.path', ['expected a non-empty string', 'got number 5']);
      assert.equal(flat.settings.auditPath, undefined);

      const nested = parseSettings({ audit: { path: 'a.jsonl', rotate: true } });
      expectProblem(nested.problems, 'mcpHost.audit.rotate', 'unknown setting');
      assert.equal(nested.settings.auditPath, 'a.jsonl');

      const notObject = parseSettings({ audit: 'a.jsonl' });
      expectProblem(notObject.problems, 'mcpHost.audit', ['expected an object', 'got string "a.jsonl"']);
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

  describe('warnings', () => {
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

  it('settingPath quotes keys that are not plain', () => {
    assert.equal(settingPath(['servers', 'orders', 'args', 1]), 'mcpHost.servers.orders.args[1]');
    assert.equal(settingPath(['servers', 'my.server', 'env', 'A B']), 'mcpHost.servers["my.server"].env["A B"]');
  });
});
