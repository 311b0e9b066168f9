/** The read model every view shares: one snapshot, recomputed after each change. */
import * as assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import { basicServer, dynamicServer, InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, nextToolsChanged, role, settings, useTestEnv } from '../helpers';

function duplicateServer(): McpServer {
  const server = new McpServer({ name: 'dup', version: '1.0.0' });
  server.registerTool('echo', { description: 'a tool whose name basic also uses' }, async () => ({ content: [] }));
  return server;
}

describe('HostSnapshot', function () {
  this.timeout(10_000);
  const env = useTestEnv();

  it('servers with state, role use, counts and transport; tools with exposed name, visibility, rule and hash', async () => {
    const servers = new InMemoryServers({ basic: () => basicServer(), dynamic: () => dynamicServer() });
    const host = await env.started({
      settings: settings({
        servers: [servers.settings('basic'), servers.settings('dynamic')],
        roles: [role('r', { servers: ['basic'], tools: ['basic/echo', 'basic/add'], autoApprove: ['basic/echo'] })],
        activeRole: 'r',
      }),
      ...memoryHostOptions(servers),
    });
    const snap = host.snapshot();
    assert.equal(snap.role, 'r');
    assert.equal(snap.trusted, true);
    const basic = snap.server('basic')!;
    assert.deepEqual([basic.connected, basic.running, basic.settling, basic.canStart, basic.usedByRole], [true, true, false, false, true]);
    assert.equal(basic.transport, 'inMemory');
    assert.equal(basic.toolCount, 9);
    assert.equal(basic.visibleToolCount, 2);
    assert.equal(basic.info?.serverInfo?.name, 'basic');
    const dynamic = snap.server('dynamic')!;
    assert.deepEqual([dynamic.state.kind, dynamic.usedByRole, dynamic.canStart, dynamic.toolCount], ['idle', false, true, 0]);

    const echo = snap.tool('basic', 'echo')!;
    assert.deepEqual([echo.exposedName, echo.visible, echo.rule], ['basic__echo', true, 'auto']);
    assert.match(echo.definitionHash!, /^[0-9a-f]{64}$/);
    const fail = snap.tool('basic', 'fail')!;
    assert.deepEqual([fail.exposedName, fail.visible, fail.rule], ['basic__fail', false, 'ask']);
    assert.deepEqual(snap.exposed.map((t) => t.entry.name), ['basic__echo', 'basic__add']);
    assert.equal(host.snapshot(), snap, 'the same snapshot until something changes');
  });

  it('a refused duplicate name is a structured problem on the tool, not prose to search', async () => {
    const servers = new InMemoryServers({ basic: () => basicServer(), dup: () => duplicateServer() });
    const host = await env.started({ settings: settings({ servers: [servers.settings('basic'), servers.settings('dup')], toolNames: 'reject' }), ...memoryHostOptions(servers) });
    const view = host.snapshot().tool('dup', 'echo')!;
    assert.equal(view.exposedName, undefined);
    assert.deepEqual([view.problem?.reason, view.problem?.takenBy, view.problem?.server, view.problem?.tool], ['taken', 'basic', 'dup', 'echo']);
    assert.equal(host.snapshot().problems.length, 1);
  });

  it('a list_changed produces a new snapshot with the change in the server history', async () => {
    const servers = new InMemoryServers({ dynamic: () => dynamicServer() });
    const host = await env.started({ settings: settings({ servers: [servers.settings('dynamic')] }), ...memoryHostOptions(servers) });
    const before = host.snapshot();
    const changed = nextToolsChanged(host, 'dynamic');
    servers.server('dynamic').server.registerTool('gamma', { description: 'new' }, async () => ({ content: [] }));
    await changed;
    const after = host.snapshot();
    assert.notEqual(after, before);
    assert.deepEqual(after.server('dynamic')!.history.map((e) => e.added), [['gamma']]);
    assert.ok(after.tool('dynamic', 'gamma')?.exposedName);
    assert.equal(before.server('dynamic')!.history.length, 0, 'an old snapshot keeps what it showed');
  });
});
