'use strict';
const assert = require('assert');
const h = require('../helpers');

// The Servers tree is drawn from the McpHost's snapshot (servers, tools, history of tool-list events).
// An extension host test can only read it if activate() returns it, e.g. `return { host: c.host }`.
describe('exported test API (activate() return value)', () => {
  it('activate() returns the McpHost (as { host } or { controller }) so tests can read the snapshot the tree shows', async () => {
    const api = await h.hostApi();
    if (!api) {
      const ext = await h.mcpHostExtension();
      const got = ext.exports === undefined ? 'undefined' : `an object with keys ${Object.keys(ext.exports).join(', ')}`;
      assert.fail(`activate() of ${h.EXTENSION_ID} returned ${got}; expected { host } (the McpHost) or { controller } with .host`);
    }
    assert.strictEqual(typeof api.host.snapshot, 'function');
    assert.ok(Array.isArray(api.host.snapshot().servers));
  });

  it('the snapshot and the tree\'s event list hold the list_changed events of "dynamic"', async function () {
    const api = await h.hostApi();
    if (!api) this.skip();
    const { host } = api;
    const history = host.snapshot().server('dynamic').history;
    assert.ok(history.some((e) => e.added.includes('gamma')), JSON.stringify(history));
    assert.ok(history.some((e) => e.removed.includes('gamma')), JSON.stringify(history));
    assert.ok(history.some((e) => e.changed.some((c) => c.tool === 'alpha')), JSON.stringify(history));
    assert.ok(!host.snapshot().exposed.some((t) => t.entry.name === 'dynamic__gamma'));
    assert.strictEqual(host.snapshot().server('basic').state.kind, 'connected');
  });
});
