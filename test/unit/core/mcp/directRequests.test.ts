/**
 * A 2025-era `tools/call` on a stdio server goes past the SDK's request path (DirectRequests):
 * held here to the plain path, outcome for outcome. Every case runs the same call on two hosts,
 * each with its own copy of the same raw JSON-RPC server (the faulty fixture: it can answer
 * anything, including what no SDK server sends): one as shipped, one with the SDK's request path
 * only (`directRequests: false`). What the caller gets (outcome, texts, content, structured
 * content, `_meta`, progress) must be the same, and so must what the server sees
 * (`notifications/cancelled` on a timeout and a Stop) — and the shipped host must really have
 * taken the direct path (its request ids are its own).
 */
import * as assert from 'node:assert/strict';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import { createDefaultTransportFactory } from '../../../../src/core/mcp/defaultTransportFactory';
import type { ToolCallResult } from '../../../../src/core/calls/toolRouter';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { FAULTY_STDIO, type FaultyOptions } from '../../../fixtures/faulty/cliFaultHarness';
import { nodeEnv, readFixtureLog } from '../../../fixtures/fixtureServers';
import { settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

type Json = Record<string, unknown>;

const TOOL = { name: 't', description: 't', inputSchema: { type: 'object' } };

/** The faulty server answering `t` with `steps`, its log in the test's temp dir. */
function faultyServer(env: TestEnv, side: string, steps: readonly Json[] | undefined, extra: Partial<StdioServerSettings> = {}) {
  const log = env.file(`${side}.jsonl`);
  const options: FaultyOptions = { tools: [TOOL], ...(steps ? { calls: { t: steps } } : {}), log };
  const server: StdioServerSettings = {
    name: 'f',
    type: 'stdio',
    enabled: true,
    command: process.execPath,
    args: [FAULTY_STDIO, `--options=${JSON.stringify(options)}`],
    env: nodeEnv(),
    connectTimeoutMs: 8000,
    ...extra,
  };
  return { server, events: () => readFixtureLog(log) as Json[] };
}

/** What a caller gets from a call, without its timings. */
function seen(r: ToolCallResult) {
  return { outcome: r.outcome, isError: r.isError, modelText: r.modelText, content: r.content, structuredContent: r.structuredContent, meta: r.meta, parts: r.parts };
}

describe('tools/call past the SDK (DirectRequests) holds to the SDK request path', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  /** The two hosts, each with its own copy of the server. */
  async function pair(steps: readonly Json[] | undefined, extra: Partial<StdioServerSettings> = {}, hostExtra: Json = {}) {
    const direct = faultyServer(env, 'direct', steps, extra);
    const plain = faultyServer(env, 'plain', steps, extra);
    const hosts = {
      direct: await env.started({ settings: settings({ servers: [direct.server], autoApprove: ['*/*'], ...hostExtra }) }),
      plain: await env.started({ settings: settings({ servers: [plain.server], autoApprove: ['*/*'], ...hostExtra }), transports: createDefaultTransportFactory(undefined, { directRequests: false }) }),
    };
    return { hosts, events: { direct: direct.events, plain: plain.events } };
  }

  async function same(steps: readonly Json[] | undefined, args: Json = { q: 1 }) {
    const { hosts, events } = await pair(steps);
    const direct = await hosts.direct.call({ name: 'f__t', args });
    const plain = await hosts.plain.call({ name: 'f__t', args });
    assert.deepEqual(seen(direct), seen(plain));
    return { direct, events };
  }

  it('takes the direct path on the shipped host only: its own ids, the id as progressToken; the plain host numbers its requests', async () => {
    const { direct, events } = await same(undefined);
    assert.equal(direct.outcome, 'ok', direct.modelText);
    assert.equal(direct.modelText, JSON.stringify({ q: 1 }));
    const [d] = events.direct().filter((e) => e.event === 'call');
    const [p] = events.plain().filter((e) => e.event === 'call');
    assert.match(String(d.id), /^mcp-host-\d+$/);
    assert.equal(d.progressToken, d.id);
    assert.equal(typeof p.id, 'number');
    assert.equal(p.progressToken, p.id);
  });

  it('the same result: content of every kind, structuredContent, isError, _meta, and a resultType the 2025 era does not have', async () => {
    const result = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
      ],
      structuredContent: { n: 1 },
      isError: true,
      _meta: { 'example.com/k': 'v' },
      resultType: 'complete',
    };
    const { direct } = await same([{ reply: { result } }]);
    assert.equal(direct.outcome, 'isError');
    assert.deepEqual(direct.meta, { 'example.com/k': 'v' });
  });

  it('the same failure for a JSON-RPC error (code, message, data), a malformed error and a result that is not an object', async () => {
    for (const reply of [{ error: { code: -32603, message: 'broke', data: { why: 'x' } } }, { error: { code: -32602, message: 'bad' } }, { rawError: 'oops' }, { result: 5 }, { result: null }]) {
      const { direct } = await same([{ reply }]);
      assert.equal(direct.outcome, 'error', JSON.stringify(reply));
    }
  });

  it('the same progress, in order; a malformed progress notification is dropped by both', async () => {
    const steps = [{ progress: [{ progress: 1, total: 3, message: 'one' }, { progress: 'x' }, { progress: 2, total: 3 }, { progress: 3, total: 3, message: 7 }] }, { sleep: 50 }, { reply: { text: 'done' } }];
    const { hosts } = await pair(steps);
    const got: Record<string, CallProgress[]> = { direct: [], plain: [] };
    for (const side of ['direct', 'plain'] as const) {
      const r = await hosts[side].call({ name: 'f__t', args: {}, onProgress: (p) => got[side].push(p) });
      assert.equal(r.modelText, 'done');
    }
    assert.deepEqual(got.direct, got.plain);
    assert.deepEqual(got.direct, [
      { progress: 1, total: 3, message: 'one' },
      { progress: 2, total: 3, message: undefined },
    ]);
  });

  it('a timeout: the same outcome and text, and the server is told to cancel that request', async () => {
    const { hosts, events } = await pair([{ hang: true }], { timeoutMs: 300 });
    for (const side of ['direct', 'plain'] as const) {
      const r = await hosts[side].call({ name: 'f__t', args: {} });
      assert.equal(r.outcome, 'timeout', r.modelText);
      assert.match(r.modelText, /timed out after 300 ms/);
      await waitFor(`${side}: notifications/cancelled`, () => events[side]().some((e) => e.event === 'cancelled'));
      const call = events[side]().find((e) => e.event === 'call')!;
      const cancelled = events[side]().find((e) => e.event === 'cancelled')!;
      assert.equal(cancelled.requestId, call.id);
    }
  });

  it('a Stop: cancelled on both, the server told once, and the connection goes on', async () => {
    const { hosts, events } = await pair([{ hang: true }]);
    for (const side of ['direct', 'plain'] as const) {
      const stop = new AbortController();
      const pending = hosts[side].call({ name: 'f__t', args: {}, signal: stop.signal });
      await waitFor(`${side}: the call to reach the server`, () => events[side]().some((e) => e.event === 'call'));
      stop.abort();
      assert.equal((await pending).outcome, 'cancelled');
      await waitFor(`${side}: notifications/cancelled`, () => events[side]().some((e) => e.event === 'cancelled'));
      assert.equal(events[side]().filter((e) => e.event === 'cancelled').length, 1);
      assert.equal(hosts[side].snapshot().server('f')?.state.kind, 'connected');
    }
  });

  it('the server exits during the call: the same outcome and text on both', async () => {
    const { hosts } = await pair([{ sleep: 50 }, { exit: 3 }]);
    const direct = await hosts.direct.call({ name: 'f__t', args: {} });
    const plain = await hosts.plain.call({ name: 'f__t', args: {} });
    assert.equal(direct.outcome, 'error', direct.modelText);
    assert.match(direct.modelText, /closed the connection during the call/);
    assert.deepEqual(seen(direct), seen(plain));
  });

  it('an answer over maxMessageBytes: the same error for that call, and the next call works', async () => {
    const { hosts } = await pair([{ reply: { textBytes: 300_000 } }], { maxMessageBytes: 100_000 });
    const direct = await hosts.direct.call({ name: 'f__t', args: {} });
    const plain = await hosts.plain.call({ name: 'f__t', args: {} });
    assert.equal(direct.outcome, 'error');
    assert.match(direct.modelText, /sent a message of 293\.\d KiB; the limit is 97\.7 KiB/);
    // The direct request's id is longer ("mcp-host-0" against 1), and so is the answer that echoes it.
    const size = (r: ToolCallResult) => JSON.parse(JSON.stringify(seen(r)).replace(/293\.\d KiB/g, '293 KiB')) as unknown;
    assert.deepEqual(size(direct), size(plain));
    assert.equal((await hosts.direct.call({ name: 'f__t', args: {} })).outcome, 'error', 'the same reply again');
  });

  it('many calls at once: each gets its own answer on both paths', async () => {
    const { hosts } = await pair(undefined);
    for (const side of ['direct', 'plain'] as const) {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => hosts[side].call({ name: 'f__t', args: { i } })));
      assert.deepEqual(
        results.map((r) => r.modelText),
        Array.from({ length: 40 }, (_, i) => JSON.stringify({ i })),
      );
    }
  });
});
