import * as assert from 'node:assert/strict';
import { RolePolicy } from '../../../../src/core/policy/rolePolicy';
import { role } from '../helpers';

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
