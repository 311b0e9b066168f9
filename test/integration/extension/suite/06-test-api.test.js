'use strict';
const assert = require('assert');
const h = require('../helpers');

// The Servers tree is drawn from the McpHost (registry, connections, history of tool-list events).
// An extension host test can only read it if activate() returns it, e.g. `return { host: c.host }`.
describe('exported test API (activate() return value)', () => {
  it('activate() returns the McpHost (as { host } or { controller }) so tests can read the registry and the tree\'s data', async () => {
    const api = await h.hostApi();
    if (!api) {
      const ext = await h.mcpHostExtension();
      const got = ext.exports === undefined ? 'undefined' : `an object with keys ${Object.keys(ext.exports).join(', ')}`;
      assert.fail(`activate() of ${h.EXTENSION_ID} returned ${got}; expected { host } (the McpHost) or { controller } with .host`);
    }
    assert.strictEqual(typeof api.host.exposedTools, 'function');
    assert.strictEqual(typeof api.host.registry.history, 'function');
  });

  it('the registry and the tree\'s event list hold the list_changed events of "dynamic"', async function () {
    const api = await h.hostApi();
    if (!api) this.skip();
    const { host } = api;
    const history = host.registry.history('dynamic');
    assert.ok(history.some((e) => e.added.includes('gamma')), JSON.stringify(history));
    assert.ok(history.some((e) => e.removed.includes('gamma')), JSON.stringify(history));
    assert.ok(history.some((e) => e.changed.some((c) => c.tool === 'alpha')), JSON.stringify(history));
    assert.ok(!host.exposedTools().some((t) => t.entry.name === 'dynamic__gamma'));
    assert.strictEqual(host.connection('basic').state.kind, 'connected');
  });
});
