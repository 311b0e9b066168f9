import * as assert from 'node:assert/strict';
import { ConfirmationPolicy } from '../../../../src/core/policy/confirmationPolicy';
import { SessionApprovals } from '../../../../src/core/policy/sessionApprovals';
import { role } from '../helpers';

describe('ConfirmationPolicy and SessionApprovals (pure)', () => {
  it('ask by default; autoApprove (global or role) lets a call run; confirm always wins', () => {
    assert.equal(new ConfirmationPolicy({ autoApprove: [], confirm: [] }).rule('s', 'read_file'), 'ask');
    const global = new ConfirmationPolicy({ autoApprove: ['kb/*', 'orders/get_*'], confirm: ['kb/delete_*'] });
    assert.equal(global.rule('kb', 'search'), 'auto');
    assert.equal(global.rule('kb', 'delete_doc'), 'ask');
    assert.equal(global.rule('orders', 'get_order'), 'auto');
    assert.equal(global.rule('orders', 'cancel'), 'ask');
    const withRole = new ConfirmationPolicy({ autoApprove: [], confirm: ['*/issue'] }, role('ops', { autoApprove: ['coupons/*'], confirm: ['coupons/void'] }));
    assert.equal(withRole.rule('coupons', 'list'), 'auto');
    assert.equal(withRole.rule('coupons', 'void'), 'ask', 'role confirm beats role autoApprove');
    assert.equal(withRole.rule('coupons', 'issue'), 'ask', 'global confirm beats role autoApprove');
  });

  it('session approvals are per role and tool', () => {
    const a = new SessionApprovals();
    a.add('ops', 's', 't');
    assert.equal(a.has('ops', 's', 't'), true);
    assert.equal(a.has('support', 's', 't'), false);
    assert.equal(a.has(undefined, 's', 't'), false);
    assert.equal(a.has('ops', 's', 'u'), false);
    a.clear();
    assert.equal(a.has('ops', 's', 't'), false);
  });
});
