/**
 * The seam of the tasks extension (src/core/mcp/call/tasksExtension.ts) against SDK v2 2.4.0, with
 * a real SDK v2 client and the modern tasks fixture (test/fixtures/servers/modern/tasks.mjs) over
 * stdio, so an SDK upgrade that changes what the seam relies on fails here first:
 * - the SDK still rejects a `tools/call` answered with `resultType: "task"` (when it stops, the
 *   host should use the SDK's own support and drop acceptTaskResults);
 * - through acceptTaskResults the CreateTaskResult arrives as the server sent it, other answers
 *   unchanged, and a task answer to a request that did not declare the extension stays refused;
 * - a modern result without `resultType` is rejected by the SDK, and read as complete through the
 *   seam (the spec's default; conformance sep-2322);
 * - answerInputRequest reaches the handler registered with setRequestHandler, through the SDK's
 *   stored chain (which validates the embedded request), with the given signal; a method that is
 *   not an input request, or has no handler, is refused.
 */
import * as assert from 'node:assert/strict';
import { Client, InMemoryTransport, SdkError, SdkErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AnyObjectSchema } from '../../../../src/core/mcp/anyObjectSchema';
import { acceptTaskResults, answerInputRequest, createdTask, TASKS_EXTENSION_ID } from '../../../../src/core/mcp/call/tasksExtension';
import { fixturePath, nodeEnv } from '../../../fixtures/fixtureServers';

const TASKS = { extensions: { [TASKS_EXTENSION_ID]: {} } };

describe('SDK v2 contract of the tasks extension seam', function () {
  this.timeout(20_000);
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  async function open(o: { seam: boolean; capabilities?: Record<string, unknown> }): Promise<Client> {
    const client = new Client({ name: 'contract', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: o.capabilities ?? TASKS });
    clients.push(client);
    const stdio: Transport = new StdioClientTransport({ command: process.execPath, args: [fixturePath('modern/tasks')], env: nodeEnv(), stderr: 'ignore' });
    await client.connect(o.seam ? acceptTaskResults(stdio) : stdio);
    assert.equal(client.getProtocolEra(), 'modern');
    return client;
  }
  const call = (client: Client, name: string, args: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params: { name, arguments: args } }, AnyObjectSchema);

  it('without the seam the SDK rejects resultType "task" (UnsupportedResultType)', async () => {
    const client = await open({ seam: false });
    await assert.rejects(call(client, 'research', { steps: 1, stepMs: 0 }), (e: unknown) => e instanceof SdkError && e.code === SdkErrorCode.UnsupportedResultType);
  });

  it('with the seam the CreateTaskResult arrives as sent; a plain result passes unchanged; tasks/get is answered', async () => {
    const client = await open({ seam: true });
    const result = await call(client, 'research', { steps: 1, stepMs: 0 });
    const task = createdTask(result);
    assert.ok(task, JSON.stringify(result));
    assert.equal(task.resultType, 'task');
    assert.equal(typeof task.taskId, 'string');
    assert.equal(task.pollIntervalMs, 100);
    const plain = await call(client, 'echo', { text: 'hi' });
    assert.equal(createdTask(plain), undefined);
    assert.deepEqual(plain.content, [{ type: 'text', text: 'echo: hi' }]);
    const got = await client.request({ method: 'tasks/get', params: { taskId: task.taskId as string } }, AnyObjectSchema);
    assert.equal(got.taskId, task.taskId);
  });

  it('a request that did not declare the extension is not given a task (the fixture refuses its task tools)', async () => {
    const client = await open({ seam: true, capabilities: {} });
    const result = await call(client, 'research', { steps: 1, stepMs: 0 });
    assert.equal(createdTask(result), undefined);
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /needs the io\.modelcontextprotocol\/tasks extension/);
  });

  it('answerInputRequest goes through the registered handler and its validation, with the signal', async () => {
    const client = new Client({ name: 'contract', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { ...TASKS, elicitation: {} } });
    const asked: { message: string; signal: AbortSignal }[] = [];
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      asked.push({ message: (request.params as { message: string }).message, signal: ctx.mcpReq.signal });
      return { action: 'accept', content: { confirm: true } };
    });
    clients.push(client);
    await client.connect(acceptTaskResults(new StdioClientTransport({ command: process.execPath, args: [fixturePath('modern/tasks')], env: nodeEnv(), stderr: 'ignore' })));
    const signal = new AbortController().signal;
    const form = { mode: 'form', message: 'Allow?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } };
    assert.deepEqual(await answerInputRequest(client, 'k1', 'elicitation/create', form, signal), { action: 'accept', content: { confirm: true } });
    assert.equal(asked[0].message, 'Allow?');
    assert.equal(asked[0].signal, signal);
    await assert.rejects(answerInputRequest(client, 'k2', 'elicitation/create', { mode: 'form' }, signal), /Invalid/);
    assert.equal(asked.length, 1, 'an invalid request never reaches the handler');
    await assert.rejects(answerInputRequest(client, 'k3', 'tools/call', {}, signal), /not a request a task may embed/);
    await assert.rejects(answerInputRequest(client, 'k4', 'sampling/createMessage', { messages: [], maxTokens: 1 }, signal), /does not answer for this server/);
  });

  it('a tools/call result without resultType: the SDK rejects it, through the seam it is complete (the spec default)', async () => {
    // The SDK's servers always write resultType, so the peer is a few raw JSON-RPC answers.
    async function rawPeer(seam: boolean): Promise<Client> {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const answer = (id: unknown, result: Record<string, unknown>) => void serverSide.send({ jsonrpc: '2.0', id, result } as JSONRPCMessage);
      serverSide.onmessage = (m) => {
        const r = m as { id?: unknown; method?: string };
        if (r.method === 'server/discover') answer(r.id, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } });
        else if (r.method === 'tools/call') answer(r.id, { content: [{ type: 'text', text: 'no resultType' }] });
      };
      await serverSide.start();
      const client = new Client({ name: 'contract', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: TASKS });
      clients.push(client);
      await client.connect(seam ? acceptTaskResults(clientSide) : clientSide);
      return client;
    }
    await assert.rejects(call(await rawPeer(false), 'x', {}), SdkError);
    const result = await call(await rawPeer(true), 'x', {});
    assert.deepEqual(result.content, [{ type: 'text', text: 'no resultType' }]);
    assert.equal(createdTask(result), undefined);
  });
});
