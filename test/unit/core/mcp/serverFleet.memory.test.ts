/** ServerFleet's reconcile and settings diff, with in-process servers (fast; nothing here is about processes). */
import * as assert from 'node:assert/strict';
import { basicServer, dynamicServer, InMemoryServers, slowServer } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, role, settings, stateKind, useTestEnv } from '../helpers';

describe('ServerFleet (in-process servers)', function () {
  this.timeout(10_000);
  const env = useTestEnv();

  it('starts only what the role uses; a role switch starts and stops; untouched servers are not restarted', async () => {
    const servers = new InMemoryServers({ basic: () => basicServer(), slow: () => slowServer(), dynamic: () => dynamicServer() });
    const s = settings({
      servers: [servers.settings('basic'), servers.settings('slow'), servers.settings('dynamic')],
      roles: [role('a', { servers: ['basic', 'slow'] }), role('b', { servers: ['basic', 'dynamic'] })],
      activeRole: 'a',
    });
    const host = await env.started({ settings: s, ...memoryHostOptions(servers) });
    assert.deepEqual(host.snapshot().servers.map((v) => [v.name, v.state.kind, v.usedByRole]), [
      ['basic', 'connected', true],
      ['slow', 'connected', true],
      ['dynamic', 'idle', false],
    ]);
    await host.setRole('b');
    assert.equal(stateKind(host, 'slow'), 'stopped');
    assert.equal(stateKind(host, 'dynamic'), 'connected');
    assert.equal(servers.startCount('basic'), 1, 'a server both roles use keeps running');
    assert.ok(!host.snapshot().exposed.some((t) => t.entry.server === 'slow'), 'a stopped server offers nothing');
  });

  it('a server that failed is left alone by reconcile while used, and reset to stopped when no longer used', async () => {
    const servers = new InMemoryServers({ basic: () => basicServer() });
    const broken = { ...servers.settings('basic'), name: 'broken', command: '${env:NOT_SET_ANYWHERE}' };
    const s = settings({ servers: [servers.settings('basic'), broken], roles: [role('all'), role('basicOnly', { servers: ['basic'] })], activeRole: 'all' });
    const host = await env.started({ settings: s, ...memoryHostOptions(servers), env: {} });
    assert.equal(stateKind(host, 'broken'), 'error');
    await host.setRole('all');
    assert.equal(stateKind(host, 'broken'), 'error', 'no automatic retry of a configuration error');
    await host.setRole('basicOnly');
    assert.equal(stateKind(host, 'broken'), 'stopped');
  });

  it('applySettings: added starts, removed stops and forgets its history, changed restarts, the rest stays', async () => {
    const servers = new InMemoryServers({ basic: () => basicServer(), slow: () => slowServer(), dynamic: () => dynamicServer() });
    const host = await env.started({ settings: settings({ servers: [servers.settings('basic'), servers.settings('slow')] }), ...memoryHostOptions(servers) });
    await host.applySettings(settings({ servers: [servers.settings('basic'), servers.settings('dynamic', { timeoutMs: 5 })] }));
    assert.deepEqual(host.snapshot().servers.map((v) => [v.name, v.state.kind]), [
      ['basic', 'connected'],
      ['dynamic', 'connected'],
    ]);
    assert.equal(servers.startCount('basic'), 1);
    await host.applySettings(settings({ servers: [servers.settings('basic', { timeoutMs: 9 }), servers.settings('dynamic', { timeoutMs: 5 })] }));
    assert.equal(servers.startCount('basic'), 2, 'changed settings restart the server');
    assert.equal(servers.startCount('dynamic'), 1);
  });
});
