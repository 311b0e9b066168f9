/**
 * Behaviour 4: a role sees, starts and may call only its servers and tools; outside the role looks
 * exactly like an unknown tool.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { RolePolicy } from '../../../src/core/policy/rolePolicy';
import { RecordingConfirmer, role, settings, stateKind, useTestEnv } from './helpers';

describe('McpHost: role filter', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  describe('RolePolicy (pure)', () => {
    const servers = [
      { name: 'orders', enabled: true },
      { name: 'kb', enabled: true },
      { name: 'coupons', enabled: true },
      { name: 'off', enabled: false },
    ] as never;

    it('no role: every enabled server, every tool', () => {
      const p = new RolePolicy(undefined, servers);
      assert.deepEqual(p.servers(), ['orders', 'kb', 'coupons']);
      assert.equal(p.allows('coupons', 'issue'), true);
      assert.equal(p.allows('off', 'x'), false);
      assert.equal(p.roleName, undefined);
    });

    it('tools and exclude globs over server/tool; servers limits what runs', () => {
      const p = new RolePolicy(
        role('support', { servers: ['orders', 'kb', 'off'], tools: ['orders/get_*', 'orders/list*', 'kb/*'], exclude: ['kb/admin_*', '*/list_all'] }),
        servers,
      );
      assert.deepEqual(p.servers(), ['orders', 'kb'], 'a disabled server is not started even when listed');
      assert.equal(p.usesServer('coupons'), false);
      assert.equal(p.allows('orders', 'get_order'), true);
      assert.equal(p.allows('orders', 'get_shipment'), true);
      assert.equal(p.allows('orders', 'list.v2'), true, 'dots in tool names match');
      assert.equal(p.allows('orders', 'cancel_order'), false);
      assert.equal(p.allows('orders', 'list_all'), false, 'exclude wins');
      assert.equal(p.allows('kb', 'search'), true);
      assert.equal(p.allows('kb', 'admin_reindex'), false);
      assert.equal(p.allows('coupons', 'issue'), false, 'outside the role’s servers, even if a glob would match');
      const wide = new RolePolicy(role('ops', { servers: ['coupons'], tools: ['*/*'] }), servers);
      assert.equal(wide.allows('orders', 'get_order'), false);
      assert.equal(wide.allows('coupons', 'issue'), true);
    });
  });

  it('the role sees only its tools, a server outside the role is never spawned, and calls are filtered too', async () => {
    const confirmer = new RecordingConfirmer();
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow'), env.stdio('dynamic', 'dynamic')],
        roles: [role('support', { servers: ['basic', 'dynamic'], tools: ['basic/*', 'dynamic/alpha'], exclude: ['basic/fail', 'basic/secret_*'] })],
        activeRole: 'support',
        autoApprove: ['*/*'],
      }),
      confirmer,
    });
    assert.equal(host.roleName, 'support');
    assert.equal(stateKind(host, 'slow'), 'idle');
    assert.equal(fs.existsSync(env.logOf('slow')), false, 'the slow server was never started');
    assert.deepEqual(
      host.exposedTools().map((t) => t.entry.name),
      ['basic__echo', 'basic__add', 'basic__noop', 'basic__wait', 'basic__image', 'basic__resource_link', 'basic__embedded_resource', 'dynamic__alpha'],
    );
    // The registry knows excluded tools (connect to all tools) but the model never sees them.
    assert.ok(host.registry.lookup('basic__fail'));
    assert.ok(host.registry.lookup('dynamic__control'));

    const unknown = await host.call({ name: 'basic__nonexistent', args: { reason: 'x' } });
    for (const name of ['basic__fail', 'dynamic__control', 'slow__sleep']) {
      const r = await host.call({ name, args: { reason: 'x' } });
      assert.equal(r.outcome, unknown.outcome, name);
      assert.equal(r.isError, unknown.isError);
      assert.equal(r.confirmedBy, unknown.confirmedBy);
      assert.equal(r.server, undefined, 'nothing about the hidden tool leaks');
      assert.equal(r.tool, undefined);
      assert.deepEqual(r.content, unknown.content);
      assert.equal(r.modelText, unknown.modelText.replace('basic__nonexistent', name), 'same text as an unknown tool');
      assert.deepEqual(r.parts, [{ type: 'text', text: r.modelText }]);
    }
    assert.ok(!env.events('basic').some((e) => e.event === 'call'), 'the excluded tool never reached the server');
    assert.ok(!env.events('dynamic').some((e) => e.event === 'call'));
    assert.equal(confirmer.requests.length, 0, 'nor was the user asked');

    assert.equal((await host.call({ name: 'dynamic__alpha' })).outcome, 'ok');
    assert.equal((await host.call({ name: 'basic__echo', args: { text: 'in role' } })).modelText, 'echo: in role');
  });

  it('a role switch changes what is visible and callable at once', async () => {
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic')],
        roles: [role('reader', { tools: ['basic/echo'] }), role('all')],
        activeRole: 'reader',
        autoApprove: ['*/*'],
      }),
    });
    assert.deepEqual(
      host.exposedTools().map((t) => t.entry.name),
      ['basic__echo'],
    );
    assert.equal((await host.call({ name: 'basic__add', args: { a: 1, b: 2 } })).outcome, 'notFound');
    await host.setRole('all');
    assert.equal(host.exposedTools().length, 9);
    assert.equal((await host.call({ name: 'basic__add', args: { a: 1, b: 2 } })).outcome, 'ok');
    await assert.rejects(host.setRole('nope'), /no role named "nope"/);
  });

  it('an unknown active role fails closed: nothing starts, nothing is offered, an error is logged', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')], activeRole: 'ghost', autoApprove: ['*/*'] }) });
    assert.equal(host.log.matching(/role "ghost" is not defined/, 'error').length, 1);
    assert.equal(stateKind(host, 'basic'), 'idle');
    assert.equal(fs.existsSync(env.logOf('basic')), false, 'never spawned');
    assert.deepEqual(host.exposedTools(), []);
    assert.equal((await host.call({ name: 'basic__echo', args: { text: 'x' } })).outcome, 'notFound');
  });
});
