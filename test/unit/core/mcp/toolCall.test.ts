/**
 * One tool call at the connection: the caller's signal is linked per call and unlinked when the
 * call settles (listener count after N calls), Ctrl-C cancels only calls in flight, and a
 * server's own -32001/-32000 are its errors, not our timeout or a closed connection.
 */
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { McpServer, ProtocolError } from '@modelcontextprotocol/server';
import { InMemoryServers, basicServer, slowServer } from '../../../fixtures/inMemoryServers';
import { settings, useTestEnv, waitFor } from '../helpers';

/** A server whose tools/call answers with the JSON-RPC error the tool is named after. */
function erringServer(): McpServer {
  const server = new McpServer({ name: 'erring', version: '1.0.0' });
  for (const name of ['e32000', 'e32001', 'e42']) server.registerTool(name, { description: name }, async () => ({ content: [] }));
  server.server.setRequestHandler('tools/call', async (req) => {
    // -32000 and -32001 are the codes SDK 1.x used for a closed connection and a timeout: a server may send them too
    const code = req.params.name === 'e32000' ? -32000 : req.params.name === 'e32001' ? -32001 : 42;
    throw new ProtocolError(code, `own trouble ${req.params.name}`);
  });
  return server;
}

describe('tool calls at the connection', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  async function host(factory: InMemoryServers, names: string[], extra: Record<string, unknown> = {}) {
    return env.started({ settings: settings({ servers: names.map((n) => factory.settings(n)), autoApprove: ['*/*'], ...extra }), transports: factory });
  }

  it('no abort listener outlives its call: after 200 calls (sequential and concurrent) the caller\'s signal has none', async () => {
    const factory = new InMemoryServers({ basic: () => basicServer() });
    const h = await host(factory, ['basic']);
    const abort = new AbortController();
    for (let i = 0; i < 100; i++) assert.equal((await h.call({ name: 'basic__noop', signal: abort.signal })).outcome, 'ok');
    assert.equal(getEventListeners(abort.signal, 'abort').length, 0, 'after sequential calls');
    const concurrent = Array.from({ length: 100 }, () => h.call({ name: 'basic__wait', args: { ms: 20 }, signal: abort.signal }));
    assert.equal(getEventListeners(abort.signal, 'abort').length, 1, 'the calls in flight share one listener');
    for (const r of await Promise.all(concurrent)) assert.equal(r.outcome, 'ok');
    assert.equal(getEventListeners(abort.signal, 'abort').length, 0, 'after concurrent calls');
  });

  it('aborting after many finished calls cancels only the call in flight (one notifications/cancelled)', async () => {
    const factory = new InMemoryServers({ slow: () => slowServer() });
    const h = await host(factory, ['slow']);
    const abort = new AbortController();
    for (let i = 0; i < 50; i++) assert.equal((await h.call({ name: 'slow__quick', signal: abort.signal })).outcome, 'ok');
    const pending = h.call({ name: 'slow__sleep', args: { ms: 10_000 }, signal: abort.signal });
    await waitFor('the call to reach the server', () => factory.calls('slow').includes('sleep'));
    abort.abort();
    assert.equal((await pending).outcome, 'cancelled');
    const cancelled = factory.server('slow').received.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    assert.equal(cancelled.length, 1);
  });

  it("a server's own -32001 and -32000 are its errors (its message), not a timeout or a closed connection", async () => {
    const factory = new InMemoryServers({ erring: erringServer });
    const h = await host(factory, ['erring']);
    for (const [name, code] of [['e32001', -32001], ['e32000', -32000], ['e42', 42]] as const) {
      const r = await h.call({ name: `erring__${name}` });
      assert.equal(r.outcome, 'error', `${name}: ${r.modelText}`);
      // SDK 1.x put "MCP error <code>: " before the server's message; SDK v2's ProtocolError is the message alone.
      assert.match(r.modelText, new RegExp(`^Tool "erring__${name}" failed: (MCP error ${code}: )?.*own trouble ${name}$`));
      assert.doesNotMatch(r.modelText, /timed out|closed the connection/);
    }
    assert.equal(h.snapshot().server('erring')?.state.kind, 'connected', 'a server error does not end the connection');
  });

  it('our own timeout is still a timeout, and says how long it waited', async () => {
    const factory = new InMemoryServers({ slow: () => slowServer() });
    const h = await host(factory, ['slow'], { timeoutMs: 150 });
    const r = await h.call({ name: 'slow__sleep', args: { ms: 5000 } });
    assert.equal(r.outcome, 'timeout');
    assert.match(r.modelText, /timed out after 150 ms/);
  });
});
