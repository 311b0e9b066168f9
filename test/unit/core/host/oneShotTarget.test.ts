/**
 * A one-shot call (CLI `call NAME`) starts only the server the name can only mean and lists its tools
 * up to that tool. Naming, role and pin checks must answer exactly as after a full discovery.
 */
import * as assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { actor } from '../../../../src/core/audit/actor';
import { oneShotTarget } from '../../../../src/core/host/oneShotTarget';
import { MemoryLockfileStore } from '../../../../src/core/pinning/lockfileStore';
import { PolicySet } from '../../../../src/core/policy/activePolicies';
import type { HostSettings } from '../../../../src/core/settings/hostSettings';
import { assignToolNames } from '../../../../src/core/tools/assignToolNames';
import { nullLogger } from '../../../../src/core/util/logger';
import { basicServer, InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, role, settings, stateKind, useTestEnv, type Any } from '../helpers';

const PAGE = 3;
/** A low-level server listing `count` tools in pages of PAGE, as large servers do. */
function pagedServer(count: number, describe = (i: number) => `Tool ${i}`): Server {
  const tools: Tool[] = Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, description: describe(i), inputSchema: { type: 'object' } }));
  const s = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler(ListToolsRequestSchema, (req) => {
    const offset = Number(req.params?.cursor ?? 0);
    const next = offset + PAGE;
    return { tools: tools.slice(offset, next), ...(next < count ? { nextCursor: String(next) } : {}) };
  });
  s.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: 'text', text: `${req.params.name} ok` }] }));
  return s;
}

const serverSettings = (name: string) => ({ name, type: 'stdio' as const, enabled: true, command: 'x', args: [], env: {}, connectTimeoutMs: 1 });
const target = (name: string, s: Partial<HostSettings> & { servers: HostSettings['servers'] }) => {
  const all = settings(s);
  return oneShotTarget(name, all, new PolicySet(all, all.activeRole, {}, nullLogger));
};

describe('oneShotTarget', () => {
  it('names the server and tool of an exact prefix name, and nothing when other tools could change it', () => {
    const servers = ['orders', 'kb', 'a', 'a__b', 'my.srv'].map(serverSettings);
    assert.deepEqual(target('orders__search', { servers }), { server: 'orders', tool: 'search' });
    assert.deepEqual(target('kb__get-page_2', { servers }), { server: 'kb', tool: 'get-page_2' });
    assert.equal(target('a__b__c', { servers }), undefined, 'two server prefixes start the name');
    assert.equal(target('my_srv__x', { servers }), undefined, 'a server name changed by sanitizing is not exact');
    assert.equal(target('orders__search_0a1b2c', { servers }), undefined, 'a made-up (hash-suffixed) name');
    assert.equal(target(`orders__${'x'.repeat(60)}`, { servers }), undefined, 'longer than a model name');
    assert.equal(target('nope__x', { servers }), undefined);
    assert.equal(target('orders__search', { servers, toolNames: 'reject' }), undefined, 'reject mode depends on every earlier server');
    assert.equal(target('orders__search', { servers, roles: [role('r', { servers: ['kb'] })], activeRole: 'r' }), undefined, 'the role does not use it');
  });

  it('property: whenever it names (server, tool), a full naming of any tool lists gives that name to exactly that tool or to none', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const parts = ['a', 'b', 'a_b', 'a.b', 'get', 'get_x', 'get.x', 'x__y', 'x', 'y', 'long'.repeat(9), 'a__b'];
    for (let run = 0; run < 400; run++) {
      const names = [...new Set(Array.from({ length: 1 + rand(4) }, () => parts[rand(parts.length)]))];
      const lists = names.map((server) => ({ server, tools: Array.from({ length: rand(5) }, () => ({ name: parts[rand(parts.length)], inputSchema: { type: 'object' } }) as Tool) }));
      const full = assignToolNames(lists, 'prefix').tools;
      const s = settings({ servers: names.map(serverSettings) });
      const policy = new PolicySet(s, undefined, {}, nullLogger);
      for (const t of full) {
        const shortcut = oneShotTarget(t.name, s, policy);
        if (shortcut) assert.deepEqual(shortcut, { server: t.server, tool: t.tool.name }, `${t.name} in ${JSON.stringify(lists)}`);
      }
      for (const server of names) {
        for (const tool of parts) {
          const shortcut = oneShotTarget(`${server}__${tool}`, s, policy);
          if (!shortcut) continue;
          const owner = full.find((t) => t.name === `${server}__${tool}`);
          if (owner) assert.deepEqual({ server: owner.server, tool: owner.tool.name }, shortcut);
        }
      }
    }
  });
});

describe('McpHost.start(forCall)', () => {
  const env = useTestEnv();

  const make = (count = 10, describe?: (i: number) => string, lockfile = new MemoryLockfileStore(), pinning: 'off' | 'review' = 'off') => {
    const servers = new InMemoryServers({ paged: () => pagedServer(count, describe), other: () => basicServer('other') });
    const host = env.host({
      settings: settings({ servers: [servers.settings('other'), servers.settings('paged')], autoApprove: ['*/*'], pinning }),
      lockfile,
      ...memoryHostOptions(servers),
    });
    const lists = () => servers.server('paged').received.filter((m: Any) => m.method === 'tools/list').length;
    return { host, servers, lists };
  };

  it('starts only the named server and stops listing after the page that names the tool', async () => {
    const { host, servers, lists } = make(10);
    await host.start('paged__tool_4');
    assert.equal(stateKind(host, 'other'), 'idle', 'the other server is not started');
    assert.equal(servers.startCount('other'), 0);
    assert.equal(lists(), 2, 'pages 1 and 2 (tools 0–5) only');
    const r = await host.call({ name: 'paged__tool_4' });
    assert.deepEqual([r.outcome, r.modelText], ['ok', 'tool_4 ok']);
  });

  it('a name the server does not list: everything is listed and the answer is "not found", as after a full start', async () => {
    const { host, lists } = make(10);
    await host.start('paged__tool_99');
    assert.equal(lists(), 4);
    assert.equal((await host.call({ name: 'paged__tool_99' })).outcome, 'notFound');
  });

  it('pin checks are the same: a changed definition is quarantined on the one-shot path too, an unchanged one runs', async () => {
    const lockfile = new MemoryLockfileStore();
    const full = make(10, undefined, lockfile, 'review');
    await full.host.start();
    full.host.definitions.approve('paged', full.host.definitions.review('paged')!.token, actor('cli'));
    await full.host.close();

    const changed = make(10, (i) => (i === 4 ? 'Now also exfiltrates' : `Tool ${i}`), lockfile, 'review');
    await changed.host.start('paged__tool_4');
    assert.equal(changed.lists(), 2);
    const r = await changed.host.call({ name: 'paged__tool_4' });
    assert.equal(r.outcome, 'quarantined');
    assert.match(r.modelText, /definition of tool "tool_4" changed/);
    await changed.host.close();

    const same = make(10, undefined, lockfile, 'review');
    await same.host.start('paged__tool_1');
    assert.equal(same.lists(), 1);
    assert.equal((await same.host.call({ name: 'paged__tool_1' })).outcome, 'ok');
  });
});
