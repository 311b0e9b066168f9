/**
 * subscriptions/listen (issue 27, item 3): a 2026-07-28 server has no standalone stream and sends no
 * notification outside a request, so the host opens a listen subscription for the list changes and
 * resource updates it cares about. Against the modern-only fixture (SDK v2 server), over stdio and
 * Streamable HTTP: toggle_extra changes the tools list → the host's registry sees `extra` appear and
 * disappear; write_note → the resource update reaches the host's resource subscription; a stream that
 * drops is opened again and the lists are read again; stop closes it; a legacy server is never sent one.
 */
import * as assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { ResourceUpdatedEvent } from '../../../../src/core/mcp/serverFleet';
import { ListenSubscription, listenFilter } from '../../../../src/core/mcp/listenSubscription';
import { readFixtureLog, startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { RecordingLogger, loaded, settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const NOTES = 'modern://notes';

for (const kind of ['stdio', 'http'] as const) {
  describe(`subscriptions/listen with a 2026-07-28 server over ${kind}`, function () {
    this.timeout(60_000);
    const env = useTestEnv();
    let log = '';

    async function modernServer(e: TestEnv) {
      if (kind === 'stdio') {
        const server = e.stdio('modern', 'modern/server', { env: { FIXTURE_LOG_REQUESTS: '1' }, connectTimeoutMs: 15_000 });
        log = e.logOf('modern');
        return server;
      }
      log = e.file('modern.jsonl');
      const f = await e.http({ FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1' }, { script: 'modern/server', args: ['--http'] });
      return { ...e.remote('modern', f.url), connectTimeoutMs: 15_000 };
    }

    /** The listen requests the fixture received (stdio: its request log; HTTP: the Mcp-Method of each POST). */
    const listens = () => readFixtureLog(log).filter((e: Any) => (e.event === 'request' ? e.method : e.event === 'http' ? e.mcpMethod : undefined) === 'subscriptions/listen').length;

    async function started(e: TestEnv) {
      const server = await modernServer(e);
      const host = await e.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }) });
      assert.equal(host.snapshot().servers[0].info?.era, 'modern', 'the fixture speaks only 2026-07-28');
      return host;
    }

    it('a tools list change announced on the stream reaches the registry: extra appears, then disappears', async () => {
      const host = await started(env);
      const names = () => loaded(host).map((t) => t.name);
      assert.ok(!names().includes('modern__extra'));
      assert.equal((await host.call({ name: 'modern__toggle_extra', args: {} })).outcome, 'ok');
      await waitFor('extra to be listed', () => names().includes('modern__extra'), 15_000);
      assert.equal((await host.call({ name: 'modern__extra', args: {} })).modelText, 'extra');
      assert.equal((await host.call({ name: 'modern__toggle_extra', args: {} })).outcome, 'ok');
      await waitFor('extra to be gone', () => !names().includes('modern__extra'), 15_000);
      assert.ok(host.log.matching(/\[modern\] notifications\/tools\/list_changed/).length >= 2, 'the change came as the legacy notification does');
    });

    it('write_note: the update of a followed resource reaches the host\'s subscription', async () => {
      const host = await started(env);
      const updates: ResourceUpdatedEvent[] = [];
      host.catalog.onDidUpdateResource((u) => updates.push(u));
      assert.equal(await host.catalog.subscribe('modern', NOTES), true);
      // Following a resource replaces the stream by one whose filter names it (no resources/subscribe in 2026-07-28).
      await waitFor('a stream that follows the notes', () => host.log.matching(/subscriptions\/listen open: .*modern:\/\/notes/).length > 0, 15_000);
      assert.equal((await host.call({ name: 'modern__write_note', args: { name: 'a', text: 'one' } })).outcome, 'ok');
      await waitFor('the notes update', () => updates.length > 0, 15_000);
      assert.deepEqual(updates[0], { server: 'modern', uri: NOTES });

      // No longer followed: the stream is replaced by one without it, and the next write is not announced.
      await host.catalog.unsubscribe('modern', NOTES);
      await waitFor('a stream without the notes', () => host.log.matching(/subscriptions\/listen open: (?!.*modern:\/\/notes)/).length > 1, 15_000);
      const before = updates.length;
      assert.equal((await host.call({ name: 'modern__write_note', args: { name: 'b', text: 'two' } })).outcome, 'ok');
      assert.equal((await host.call({ name: 'modern__echo', args: { text: 'x' } })).outcome, 'ok');
      assert.equal(updates.length, before);
    });

    it('one stream per connection: stop closes it, a restart opens a new one', async () => {
      const host = await started(env);
      assert.equal(listens(), 1);
      await host.servers.stopServer('modern');
      assert.equal(host.log.matching(/subscriptions\/listen (dropped|ended)/).length, 0, 'a stop is not a drop: nothing is re-opened');
      await host.servers.startServer('modern');
      assert.equal(listens(), 2);
      assert.equal((await host.call({ name: 'modern__toggle_extra', args: {} })).outcome, 'ok');
      await waitFor('extra to be listed after the restart', () => loaded(host).some((t) => t.name === 'modern__extra'), 15_000);
      await host.call({ name: 'modern__toggle_extra', args: {} }); // the fixture's state is per process over HTTP: leave it off
    });
  });
}

describe('ListenSubscription (the SDK client over Streamable HTTP, the modern fixture)', function () {
  this.timeout(60_000);
  let fixture: HttpFixture | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    await fixture?.close();
  });

  it('a dropped stream is opened again with backoff, and the lists are read again', async () => {
    fixture = await startHttpFixture({ script: 'modern/server', args: ['--http'] });
    /** The response bodies of listen requests, so the test can cut them (as a proxy or a network would). */
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(fixture.url), {
      fetch: async (url: string | URL, init?: RequestInit) => {
        const response = await fetch(url, init);
        if (typeof init?.body !== 'string' || !init.body.includes('"subscriptions/listen"') || !response.body) return response;
        const reader = response.body.getReader();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            streams.push(controller);
            void (async () => {
              for (;;) {
                const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
                if (done) return controller.close();
                controller.enqueue(value);
              }
            })().catch(() => undefined);
          },
          cancel: () => reader.cancel(),
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    client = new Client({ name: 'listen-test', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport as Transport);
    const logger = new RecordingLogger();
    let reopened = 0;
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
    const sub = new ListenSubscription(client, {
      server: 'modern',
      logger,
      redact: (t) => t,
      timeoutMs: 10_000,
      resourceUris: () => [],
      onReopened: () => reopened++,
      backoff: { initialDelayMs: 50, maxDelayMs: 200, maxFailures: Number.POSITIVE_INFINITY },
    });
    await sub.start();
    assert.ok(sub.open);
    assert.deepEqual(sub.honored, { toolsListChanged: true, resourcesListChanged: true });

    streams[0].error(new Error('cut by the test'));
    await waitFor('a second listen stream', () => streams.length === 2 && sub.open, 15_000);
    assert.equal(reopened, 1, 're-opened once, then the lists are read again');
    assert.equal(logger.matching(/subscriptions\/listen dropped; listening again/).length, 1);

    await client.callTool({ name: 'toggle_extra', arguments: {} });
    await waitFor('the change on the new stream', () => changes > 0, 15_000);
    await client.callTool({ name: 'toggle_extra', arguments: {} });

    await sub.close();
    assert.ok(!sub.open);
    assert.equal(streams.length, 2, 'closed for good: not opened again');
  });

  it('the filter asks only for what the server declares', () => {
    assert.equal(listenFilter({}, [NOTES]), undefined);
    assert.equal(listenFilter({ tools: {} }, []), undefined);
    assert.deepEqual(listenFilter({ tools: { listChanged: true }, prompts: { listChanged: false } }, [NOTES]), { toolsListChanged: true });
    assert.deepEqual(listenFilter({ resources: { subscribe: true } }, ['b://2', 'a://1']), { resourceSubscriptions: ['a://1', 'b://2'] });
  });
});

/** A legacy server is never sent subscriptions/listen: its notifications come unsolicited. */
describe('subscriptions/listen: not for a legacy server', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  it('the dynamic (2025-11-25) fixture gets no listen request and its list changes still arrive', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('dynamic', 'dynamic', { env: { FIXTURE_LOG_REQUESTS: '1' } })], autoApprove: ['*/*'] }) });
    assert.equal((await host.call({ name: 'dynamic__control', args: { action: 'add', name: 'gamma' } })).outcome, 'ok');
    await waitFor('gamma', () => loaded(host).some((t) => t.name === 'dynamic__gamma'), 10_000);
    assert.ok(!env.events('dynamic').some((e: Any) => e.method === 'subscriptions/listen'));
  });
});
