/**
 * A one-shot call (CLI `call NAME`) starts only the server the name can only mean and lists its tools
 * up to that tool. Naming, role and pin checks must answer exactly as after a full discovery.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Server, type Tool as ServedTool } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/client';
import { actor } from '../../../../src/core/audit/actor';
import { oneShotTarget } from '../../../../src/core/host/oneShotTarget';
import { FileLockfileStore, MemoryLockfileStore } from '../../../../src/core/pinning/lockfileStore';
import { ReviewError } from '../../../../src/core/pinning/toolPins';
import { PolicySet } from '../../../../src/core/policy/activePolicies';
import type { HostSettings } from '../../../../src/core/settings/hostSettings';
import { assignToolNames } from '../../../../src/core/tools/assignToolNames';
import { nullLogger } from '../../../../src/core/util/logger';
import { basicServer, InMemoryServers } from '../../../fixtures/inMemoryServers';
import { listedTools, memoryHostOptions, RecordingLogger, role, settings, stateKind, useTestEnv, type Any } from '../helpers';

const PAGE = 3;
/** A low-level server listing `count` tools in pages of PAGE, as large servers do. */
function pagedServer(count: number, describe = (i: number) => `Tool ${i}`, listed: (tools: Tool[]) => unknown[] = (t) => t): Server {
  const tools = listed(Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, description: describe(i), inputSchema: { type: 'object' } })));
  const s = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler('tools/list', (req) => {
    const offset = Number(req.params?.cursor ?? 0);
    const next = offset + PAGE;
    return { tools: tools.slice(offset, next) as ServedTool[], ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });
  s.setRequestHandler('tools/call', (req) => ({ content: [{ type: 'text', text: `${req.params.name} ok` }] }));
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

  const make = (
    count = 10,
    describe?: (i: number) => string,
    lockfile: MemoryLockfileStore | FileLockfileStore = new MemoryLockfileStore(),
    pinning: 'off' | 'review' = 'off',
    listed?: (tools: Tool[]) => unknown[],
  ) => {
    const servers = new InMemoryServers({ paged: () => pagedServer(count, describe, listed), other: () => basicServer('other') });
    const logger = new RecordingLogger();
    const host = env.host({
      logger,
      settings: settings({ servers: [servers.settings('other'), servers.settings('paged')], autoApprove: ['*/*'], pinning }),
      lockfile,
      ...memoryHostOptions(servers),
    });
    const lists = () => servers.server('paged').received.filter((m: Any) => m.method === 'tools/list').length;
    return { host, servers, lists, logger };
  };

  /** A lockfile with the 10 tools of "paged" reviewed, as a full start and its review leave it. */
  const reviewedLockfile = async () => {
    const lockfile = new MemoryLockfileStore();
    const full = make(10, undefined, lockfile, 'review');
    await full.host.start();
    full.host.definitions.approve('paged', full.host.definitions.review('paged')!.token, actor('cli'));
    await full.host.close();
    return lockfile;
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
    const lockfile = await reviewedLockfile();

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

  it('keeps only the named tool: the other entries of its page are not checked, kept or reported; a malformed named entry is reported and never called', async () => {
    // Page 2 holds tool_3 (malformed: no inputSchema), tool_4 and tool_5 (malformed).
    const broken = (tools: Tool[]) => tools.map((t) => (t.name === 'tool_3' || t.name === 'tool_5' ? { name: t.name, description: t.description } : t));
    const one = make(10, undefined, new MemoryLockfileStore(), 'off', broken);
    await one.host.start('paged__tool_4');
    assert.equal(one.lists(), 2);
    assert.deepEqual(listedTools(one.host, 'paged').map((t) => t.name), ['tool_4']);
    assert.equal((await one.host.call({ name: 'paged__tool_4' })).outcome, 'ok');
    assert.equal((await one.host.call({ name: 'paged__tool_1' })).outcome, 'notFound', 'offered to nobody in this process');
    assert.equal(one.logger.lines.filter((l) => /tool_3|tool_5/.test(l.message)).length, 0, JSON.stringify(one.logger.lines));
    await one.host.close();

    // Named tool malformed (first entry) and listed again, well-formed, on a later page: the first usable one is taken, as a full listing would.
    const twice = (tools: Tool[]) => [{ name: 'tool_4' }, ...tools];
    const two = make(10, undefined, new MemoryLockfileStore(), 'off', twice);
    await two.host.start('paged__tool_4');
    assert.equal(two.lists(), 2, 'stops after the page with the usable tool_4');
    assert.ok(two.logger.lines.some((l) => /tool "tool_4" is not loaded: its inputSchema is not an object/.test(l.message)), JSON.stringify(two.logger.lines));
    assert.equal((await two.host.call({ name: 'paged__tool_4' })).outcome, 'ok');
    await two.host.close();

    const bad = make(10, undefined, new MemoryLockfileStore(), 'off', broken);
    await bad.host.start('paged__tool_3');
    assert.equal(bad.lists(), 4, 'no usable tool_3: every page listed');
    assert.ok(bad.logger.lines.some((l) => /tool "tool_3" is not loaded/.test(l.message)));
    assert.equal((await bad.host.call({ name: 'paged__tool_3' })).outcome, 'notFound');
    assert.equal(bad.servers.calls('paged').length, 0, 'never called');
  });

  it('a tool the lockfile does not have, or a lockfile that cannot be used, is refused on the one-shot path as after a full start', async () => {
    const lockfile = await reviewedLockfile();

    const more = make(12, undefined, lockfile, 'review');
    await more.host.start('paged__tool_11');
    const r = await more.host.call({ name: 'paged__tool_11' });
    assert.equal(r.outcome, 'quarantined');
    assert.match(r.modelText, /tool "tool_11" is new since server "paged" was reviewed/);
    assert.equal((await more.host.call({ name: 'paged__tool_10' })).outcome, 'notFound');
    assert.equal(more.servers.calls('paged').length, 0, 'never called');
    await more.host.close();

    const file = path.join(env.dir, 'mcp-host.lock.json');
    fs.writeFileSync(file, '{"version": 1, "servers": {"paged": {"identity": {"type": "http", "url": "x"}, "tools": {"tool_9": {"hash": "h"}}}}}');
    const unusable = make(10, undefined, new FileLockfileStore(file), 'review');
    await unusable.host.start('paged__tool_1');
    const u = await unusable.host.call({ name: 'paged__tool_1' });
    assert.equal(u.outcome, 'quarantined', 'an invalid entry of another tool still makes the lockfile unusable');
    assert.match(u.modelText, /the lockfile cannot be used/);
  });

  it('what a one-shot start listed is never reviewed, approved or locked (it is not the server\'s whole list)', async () => {
    const lockfile = new MemoryLockfileStore();
    const one = make(10, (i) => `Tool ${i}`, lockfile, 'review');
    await one.host.start('paged__tool_4');
    assert.equal((await one.host.call({ name: 'paged__tool_4' })).outcome, 'quarantined', 'not reviewed yet');
    assert.throws(() => one.host.definitions.lockAll(actor('cli')), ReviewError);
    const review = one.host.definitions.review('paged');
    assert.deepEqual(review?.removed ?? [], [], 'nothing counts as removed');
    assert.ok(review?.firstReview, 'an unreviewed server has a review to show');
    assert.throws(() => one.host.definitions.approve('paged', review.token, actor('cli')), ReviewError);
    assert.equal(lockfile.writes, 0);
  });
});
