/**
 * DirectToolCalls: `tools/call` sent on a connected SDK client's transport, its answer and progress
 * taken before the SDK's Protocol sees them. A real SDK Client and McpServer over the SDK's
 * InMemoryTransport (the host's paths over stdio and HTTP run through it in every call test);
 * only the malformed answers come from a hand-written responder, as a faulty server would send them.
 */
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import { DirectToolCalls } from '../../../../src/core/mcp/directToolCalls';
import { CallAbortController } from '../../../../src/core/util/callAbort';
import { waitFor } from '../helpers';

function progressServer(): McpServer {
  const server = new McpServer({ name: 'direct', version: '1.0.0' });
  server.registerTool('steps', { description: 'Reports progress, then answers.', inputSchema: { n: z.number() } }, async ({ n }, extra) => {
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined) {
      // A malformed report first: it must be dropped, not passed on or taken for the SDK's.
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 'half' as unknown as number } });
      for (let i = 1; i <= n; i++) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: i, total: n, message: `step ${i}` } });
    }
    return { content: [{ type: 'text', text: `did ${n}` }] };
  });
  server.registerTool('sleep', { description: 'Waits until cancelled.' }, async (extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    return { content: [{ type: 'text', text: 'woke' }] };
  });
  return server;
}

interface Wire {
  readonly client: Client;
  readonly direct: DirectToolCalls;
  /** Every message the client sent. */
  readonly sent: JSONRPCMessage[];
  /** Errors the SDK's Protocol reported (an answer or progress it did not expect would land here). */
  readonly sdkErrors: Error[];
  close(): Promise<void>;
}

async function connect(serverSide: (t: InMemoryTransport) => Promise<void>): Promise<Wire> {
  const [clientSide, other] = InMemoryTransport.createLinkedPair();
  await serverSide(other);
  const sent: JSONRPCMessage[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const client = new Client({ name: 'test', version: '0' }, { capabilities: {} });
  const sdkErrors: Error[] = [];
  client.onerror = (e) => sdkErrors.push(e);
  await client.connect(clientSide);
  const direct = DirectToolCalls.attach(client);
  assert.ok(direct);
  return { client, direct, sent, sdkErrors, close: () => client.close() };
}

const withServer = () => connect((t) => progressServer().connect(t));

/** A server that answers every tools/call with `reply` as given (`{result}` or `{error}`: a faulty server's reply). */
const withResponder = (reply: { result: unknown } | { error: unknown }) =>
  connect(async (t) => {
    t.onmessage = (m) => {
      const msg = m as { id?: number | string; method?: string };
      if (msg.method === 'initialize') void t.send({ jsonrpc: '2.0', id: msg.id!, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0' } } });
      else if (msg.method === 'tools/call') void t.send({ jsonrpc: '2.0', id: msg.id!, ...reply } as JSONRPCMessage);
    };
    await t.start();
  });

describe('DirectToolCalls', () => {
  it('sends tools/call with a string id (never one of the SDK\'s integers) and the same progressToken; the SDK\'s own requests go on beside it', async () => {
    const w = await withServer();
    try {
      const signal = new CallAbortController().signal;
      const [a, b, list] = await Promise.all([w.direct.call('steps', { n: 0 }, { signal }), w.direct.call('steps', { n: 1 }, { signal }), w.client.listTools()]);
      assert.deepEqual(a.content, [{ type: 'text', text: 'did 0' }]);
      assert.deepEqual(b.content, [{ type: 'text', text: 'did 1' }]);
      assert.deepEqual(list.tools.map((t) => t.name).sort(), ['sleep', 'steps']);
      const calls = w.sent.filter((m): m is JSONRPCMessage & { id: string; params: { _meta: { progressToken: unknown } } } => 'method' in m && m.method === 'tools/call');
      assert.equal(calls.length, 2);
      for (const c of calls) {
        assert.match(c.id, /^h\d+$/);
        assert.equal(c.params._meta.progressToken, c.id);
      }
      const sdkIds = w.sent.filter((m) => 'id' in m && 'method' in m && m.method !== 'tools/call').map((m) => (m as { id: unknown }).id);
      assert.ok(sdkIds.length >= 2 && sdkIds.every((id) => typeof id === 'number'), `the SDK's ids: ${JSON.stringify(sdkIds)}`);
      assert.notEqual(calls[0].id, calls[1].id);
      assert.deepEqual(w.sdkErrors, []);
    } finally {
      await w.close();
    }
  });

  it('passes progress to the caller (a malformed report is dropped) and never to the SDK', async () => {
    const w = await withServer();
    try {
      const seen: CallProgress[] = [];
      const result = await w.direct.call('steps', { n: 3 }, { signal: new CallAbortController().signal, onProgress: (p) => seen.push(p) });
      assert.deepEqual(result.content, [{ type: 'text', text: 'did 3' }]);
      assert.deepEqual(seen, [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
      assert.deepEqual(w.sdkErrors, [], 'no "unknown progress token" at the SDK');
    } finally {
      await w.close();
    }
  });

  it('an aborted call tells the server (notifications/cancelled with its id) and rejects with the reason', async () => {
    const w = await withServer();
    try {
      const clock = new CallAbortController();
      const pending = w.direct.call('sleep', {}, { signal: clock.signal });
      await waitFor('the call to be sent', () => w.sent.some((m) => 'method' in m && m.method === 'tools/call'));
      const reason = new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 5 });
      clock.abort(reason);
      await assert.rejects(pending, (e) => e === reason);
      const id = (w.sent.find((m) => 'method' in m && m.method === 'tools/call') as { id: string }).id;
      const cancelled = w.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
      assert.deepEqual(cancelled.map((m) => (m as unknown as { params: { requestId: unknown } }).params.requestId), [id]);
      // An abort for another reason (the caller's Stop) rejects as the SDK does: a RequestTimeout McpError with its text.
      const stop = new CallAbortController();
      const second = w.direct.call('sleep', {}, { signal: stop.signal });
      stop.abort('stopped by the user');
      await assert.rejects(second, (e) => e instanceof McpError && e.code === ErrorCode.RequestTimeout && /stopped by the user/.test(e.message));
      // An already aborted signal: nothing is sent.
      const before = w.sent.length;
      await assert.rejects(w.direct.call('sleep', {}, { signal: stop.signal }), (e) => e === stop.signal.reason);
      assert.equal(w.sent.length, before);
      assert.deepEqual(w.sdkErrors, []);
    } finally {
      await w.close();
    }
  });

  it("a server's JSON-RPC error is an McpError with its code, message and data", async () => {
    const w = await withResponder({ error: { code: -32042, message: 'own trouble', data: { detail: 1 } } });
    try {
      await assert.rejects(w.direct.call('x', {}, { signal: new CallAbortController().signal }), (e) => e instanceof McpError && e.code === -32042 && /own trouble/.test(e.message) && (e.data as { detail: number }).detail === 1);
    } finally {
      await w.close();
    }
  });

  it('a result that is not a JSON object fails the call with what it was', async () => {
    for (const [result, what] of [[[1, 2], 'an array'], ['text', 'a string'], [null, 'null']] as const) {
      const w = await withResponder({ result });
      try {
        await assert.rejects(w.direct.call('x', {}, { signal: new CallAbortController().signal }), new RegExp(`not a JSON object \\(${what}\\)`));
      } finally {
        await w.close();
      }
    }
  });

  it('closing the connection rejects the calls in flight with ConnectionClosed, and any call after it', async () => {
    const w = await withServer();
    const pending = w.direct.call('sleep', {}, { signal: new CallAbortController().signal });
    await waitFor('the call to be sent', () => w.sent.some((m) => 'method' in m && m.method === 'tools/call'));
    await w.close();
    await assert.rejects(pending, (e) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
    await assert.rejects(w.direct.call('steps', { n: 0 }, { signal: new CallAbortController().signal }), (e) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
  });
});
