import * as assert from 'node:assert/strict';
import { settingPath } from '../../../../src/core/settings/settingPath';

describe('settingPath', () => {
  it('settingPath quotes keys that are not plain', () => {
    assert.equal(settingPath(['servers', 'orders', 'args', 1]), 'mcpHost.servers.orders.args[1]');
    assert.equal(settingPath(['servers', 'my.server', 'env', 'A B']), 'mcpHost.servers["my.server"].env["A B"]');
  });
});
