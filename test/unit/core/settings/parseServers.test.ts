import * as assert from 'node:assert/strict';
import { DEFAULTS, type SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { parseServers } from '../../../../src/core/settings/parseServers';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';
import { SEED_SERVERS, expectProblem, seedSettings, serverNames, withServer } from './seedSettings';

/** parseServers over `raw.servers`, shaped like parseSettings' result. */
function parse(raw: Record<string, unknown>): { settings: { servers: ReturnType<typeof parseServers> }; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const servers = parseServers(raw.servers, problems, new Set());
  return { settings: { servers }, problems };
}

describe('parseServers', () => {
  describe('valid servers', () => {
    it('keeps variables unresolved and fills server defaults', () => {
      const { settings } = parse(seedSettings());
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
      assert.equal(coupons.maxMessageBytes, undefined);
      const big = parse(withServer('big', { command: 'node', maxMessageBytes: 1024 })).settings.servers.find((s) => s.name === 'big');
      assert.equal(big?.maxMessageBytes, 1024, 'a per-server maxMessageBytes is kept');
    });

    it('preserves the key order of mcpHost.servers', () => {
      const servers: Record<string, unknown> = {};
      for (const n of ['zeta', 'alpha', 'mid', 'beta']) servers[n] = { command: n };
      const { settings } = parse({ servers });
      assert.deepEqual(serverNames(settings), ['zeta', 'alpha', 'mid', 'beta']);
    });

    it('defaults type to stdio and accepts an explicit stdio type', () => {
      const { settings, problems } = parse({ servers: { a: { command: 'x' }, b: { type: 'stdio', command: 'y', args: [] } } });
      assert.deepEqual(problems, []);
      assert.deepEqual(
        settings.servers.map((s) => s.type),
        ['stdio', 'stdio'],
      );
      assert.deepEqual(settings.servers[0].type === 'stdio' && settings.servers[0].args, []);
      assert.deepEqual(settings.servers[0].type === 'stdio' && settings.servers[0].env, {});
    });

    it('parses http and sse servers with headers, and a url with variables', () => {
      const { settings, problems } = parse({
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
  });

  describe('malformed servers: exact path, expected and found, the other servers still load', () => {
    it('1. a wrong type inside args', () => {
      const { settings, problems } = parse(withServer('orders', { command: 'node', args: ['ok', 5] }));
      const p = expectProblem(problems, 'mcpHost.servers.orders.args[1]', ['expected a string', 'got number 5']);
      assert.equal(p.server, 'orders');
      assert.equal(formatProblem(p).startsWith('mcpHost.servers.orders.args[1]: expected a string, got number 5'), true);
      assert.deepEqual(serverNames(settings), SEED_SERVERS.filter((n) => n !== 'orders'));
    });

    it('2. a missing command', () => {
      const { settings, problems } = parse(withServer('shipping', { args: ['x'] }));
      expectProblem(problems, 'mcpHost.servers.shipping.command', ['missing', 'expected a non-empty string']);
      assert.deepEqual(serverNames(settings), ['orders', 'kb', 'reports', 'coupons']);
    });

    it('3. an empty command', () => {
      const { settings, problems } = parse(withServer('shipping', { command: '' }));
      expectProblem(problems, 'mcpHost.servers.shipping.command', ['expected a non-empty string', 'got string ""']);
      assert.equal(settings.servers.length, 4);
    });

    it('4. an unknown key inside a server drops that server', () => {
      const { settings, problems } = parse(withServer('kb', { type: 'http', url: 'https://x/mcp', header: {} }));
      expectProblem(problems, 'mcpHost.servers.kb.header', ['unknown key "header"', 'headers', 'server "kb" is not loaded']);
      assert.deepEqual(serverNames(settings), ['orders', 'shipping', 'reports', 'coupons']);
    });

    it('5. an unknown server type', () => {
      const { settings, problems } = parse(withServer('kb', { type: 'websocket', url: 'ws://x' }));
      expectProblem(problems, 'mcpHost.servers.kb.type', ['expected "stdio", "http" or "sse"', 'got string "websocket"']);
      assert.equal(settings.servers.length, 4);
    });

    it('6. a url without a remote type', () => {
      const { settings, problems } = parse(withServer('kb', { url: 'https://x/mcp' }));
      expectProblem(problems, 'mcpHost.servers.kb.type', ['missing', '"http" or "sse"']);
      assert.equal(settings.servers.length, 4);
    });

    it('7. a url that is not http(s)', () => {
      const { settings, problems } = parse(withServer('kb', { type: 'http', url: 'ftp://files.example.com' }));
      expectProblem(problems, 'mcpHost.servers.kb.url', ['http:// or https://', 'got string "ftp://files.example.com"']);
      assert.equal(settings.servers.length, 4);
    });

    it('8. a header value that is not a string (and header text is never echoed)', () => {
      const { settings, problems } = parse(
        withServer('kb', { type: 'http', url: 'https://x/mcp', headers: { Authorization: 42, 'X-Other': 'ok' } }),
      );
      expectProblem(problems, 'mcpHost.servers.kb.headers.Authorization', ['expected a string', 'got number 42']);
      assert.equal(settings.servers.length, 4);

      const literal = parse(withServer('kb', { type: 'http', url: 'https://x/mcp', headers: 'Bearer sk-live-123456' }));
      const p = expectProblem(literal.problems, 'mcpHost.servers.kb.headers', ['expected an object of string values', 'got a string']);
      assert.ok(!p.message.includes('sk-live-123456'));
    });

    it('9. an env value that is not a string', () => {
      const { settings, problems } = parse(withServer('orders', { command: 'node', env: { DEBUG: true } }));
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
        const { settings, problems } = parse(withServer('reports', { type: 'sse', url: 'http://x/sse', timeoutMs: bad }));
        expectProblem(problems, 'mcpHost.servers.reports.timeoutMs', ['expected a positive integer', `got ${found}`]);
        assert.equal(settings.servers.length, 4);
      }
    });

    it('11. connectTimeoutMs and enabled with wrong types report both', () => {
      const { settings, problems } = parse(withServer('coupons', { command: 'node', connectTimeoutMs: 'soon', enabled: 'yes' }));
      expectProblem(problems, 'mcpHost.servers.coupons.connectTimeoutMs', ['expected a positive integer', 'got string "soon"']);
      expectProblem(problems, 'mcpHost.servers.coupons.enabled', ['expected true or false', 'got string "yes"']);
      assert.deepEqual(serverNames(settings), ['orders', 'shipping', 'kb', 'reports']);
    });

    it('12. a server definition that is not an object', () => {
      const { settings, problems } = parse(withServer('orders', 'node orders.js'));
      expectProblem(problems, 'mcpHost.servers.orders', ['expected an object', 'got string "node orders.js"']);
      assert.equal(settings.servers.length, 4);
    });

    it('13. an empty server name', () => {
      const { settings, problems } = parse(withServer('', { command: 'x' }));
      expectProblem(problems, 'mcpHost.servers[""]', 'must not be empty');
      assert.deepEqual(serverNames(settings), SEED_SERVERS);
    });

    it('14. a server name with "/"', () => {
      const { settings, problems } = parse(withServer('a/b', { command: 'x' }));
      expectProblem(problems, 'mcpHost.servers["a/b"]', 'must not contain "/"');
      assert.deepEqual(serverNames(settings), SEED_SERVERS);
    });

    it('15. two servers whose prefixes collide: the later one is dropped, both are named', () => {
      const raw = seedSettings();
      raw.servers = { 'my.server': { command: 'a' }, ...(raw.servers as object), 'my_server': { command: 'b' } };
      const { settings, problems } = parse(raw);
      const p = expectProblem(problems, 'mcpHost.servers.my_server', ['"my.server"', '"my_server"', 'prefix "my_server"']);
      assert.equal(p.server, 'my_server');
      assert.deepEqual(serverNames(settings), ['my.server', ...SEED_SERVERS]);
    });
  });
});
