/**
 * What the host's call unit (src/core/mcp/call/) relies on from SDK v2's public request API, checked
 * against a real SDK v2 server over the SDK's in-memory transport, so an SDK upgrade that changes
 * any of it fails here first: the abort reason (the host's own timeout, with its data) is what a
 * request rejects with; an abort sends `notifications/cancelled` for that request on a legacy
 * connection; `onprogress` puts a progressToken on the request and delivers the server's progress;
 * a lenient result schema gets the result as sent; the task methods of 2025-11-25 may be sent on a
 * legacy connection; the negotiated version and era are readable after connect.
 */
import * as assert from 'node:assert/strict';
import { Client, InMemoryTransport, SdkError, SdkErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AnyObjectSchema } from '../../../../src/core/mcp/anyObjectSchema';
import { waitFor } from '../helpers';

async function connected(): Promise<{ client: Client; seen: JSONRPCMessage[]; close: () => Promise<void> }> {
  const server = new McpServer({ name: 'contract', version: '1.0.0' });
  server.registerTool('wait', { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { content: [{ type: 'text', text: `waited ${ms}` }], extra: { kept: true } };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const seen: JSONRPCMessage[] = [];
  await server.connect(serverSide);
  const onServer = serverSide.onmessage!;
  serverSide.onmessage = (m, extra) => {
    seen.push(m);
    onServer(m, extra);
  };
  const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
  await client.connect(clientSide);
  return { client, seen, close: async () => (await client.close(), await server.close()) };
}

describe('SDK v2 contract of the call unit', function () {
  this.timeout(20_000);

  it('a legacy connection says its version and era', async () => {
    const c = await connected();
    try {
      assert.equal(c.client.getProtocolEra(), 'legacy');
      assert.match(c.client.getNegotiatedProtocolVersion() ?? '', /^2025-/);
    } finally {
      await c.close();
    }
  });

  it('a lenient schema gets the result as sent; onprogress adds a progressToken and gets the progress', async () => {
    const c = await connected();
    try {
      const progress: unknown[] = [];
      const r = await c.client.request({ method: 'tools/call', params: { name: 'wait', arguments: { ms: 1 } } }, AnyObjectSchema, { onprogress: (p) => progress.push(p) });
      assert.deepEqual(r.extra, { kept: true }, 'a member the strict schema does not know is kept');
      assert.equal(progress.length, 1);
      const sent = c.seen.find((m) => (m as { method?: string }).method === 'tools/call') as { params: { _meta?: { progressToken?: unknown } } };
      assert.notEqual(sent.params._meta?.progressToken, undefined);
    } finally {
      await c.close();
    }
  });

  it("an abort rejects with the signal's SdkError (its data kept) and sends notifications/cancelled for that request", async () => {
    const c = await connected();
    try {
      const ac = new AbortController();
      const pending = c.client.request({ method: 'tools/call', params: { name: 'wait', arguments: { ms: 5000 } } }, AnyObjectSchema, { signal: ac.signal, timeout: 2_147_483_647 });
      await waitFor('the call to reach the server', () => c.seen.some((m) => (m as { method?: string }).method === 'tools/call'));
      const reason = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 5 });
      ac.abort(reason);
      await assert.rejects(pending, (e: unknown) => e === reason);
      const id = (c.seen.find((m) => (m as { method?: string }).method === 'tools/call') as { id: unknown }).id;
      await waitFor('notifications/cancelled', () => c.seen.some((m) => (m as { method?: string }).method === 'notifications/cancelled'));
      const cancelled = c.seen.find((m) => (m as { method?: string }).method === 'notifications/cancelled') as unknown as { params: { requestId: unknown } };
      assert.equal(cancelled.params.requestId, id);
    } finally {
      await c.close();
    }
  });

  it('the task methods of 2025-11-25 go out on a legacy connection (the server answers them, here with an error)', async () => {
    const c = await connected();
    try {
      await assert.rejects(c.client.request({ method: 'tasks/get', params: { taskId: 'none' } }, AnyObjectSchema), (e: unknown) => !(e instanceof SdkError));
      assert.ok(c.seen.some((m) => (m as { method?: string }).method === 'tasks/get'));
    } finally {
      await c.close();
    }
  });
});
