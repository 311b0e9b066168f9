import * as assert from 'node:assert/strict';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import type { TelemetrySettings } from '../../../../src/core/settings/hostSettings';
import { TelemetryExport, tracesUrl } from '../../../../src/core/telemetry/telemetryExport';
import type { ReceivedSpan } from '../../../fixtures/otlpReceiver';
import { useOtlpReceiver } from './otlpReceiverHooks';
import { mapSecrets, RecordingConfirmer, RecordingLogger, settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

const KIND = { internal: 1, server: 2, client: 3 } as const;
const ERROR = 2;

describe('TelemetryExport: the audit stream as OpenTelemetry spans over OTLP/HTTP', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  const otel = useOtlpReceiver();
  const exports = otel.exports;

  async function hostWithTelemetry(
    e: TestEnv,
    telemetry: Partial<TelemetrySettings>,
    opts: { confirmer?: RecordingConfirmer; secrets?: Record<string, string>; pipeline?: Record<string, number> } = {},
  ): Promise<{ host: McpHost; telemetry: TelemetryExport; logger: RecordingLogger }> {
    const http = await e.http();
    const host = await e.started({
      settings: settings({
        servers: [e.stdio('basic', 'basic'), e.stdio('dyn', 'dynamic'), e.remote('web', http.url)],
        autoApprove: ['basic/echo', 'basic/fail', 'basic/secret_echo', 'dyn/*', 'web/echo'],
      }),
      confirmer: opts.confirmer ?? new RecordingConfirmer(() => 'deny'),
    });
    const logger = new RecordingLogger();
    const t = new TelemetryExport({
      logger,
      secrets: mapSecrets(opts.secrets ?? {}),
      env: {},
      serviceVersion: '9.9.9',
      snapshot: () => host.snapshot(),
      pipeline: { scheduledDelayMs: 20, exportTimeoutMs: 5000, ...opts.pipeline },
    });
    exports.push(t);
    t.attach(host.onDidRecord);
    await t.configure({ otlpEndpoint: otel.receiver.endpoint, headers: {}, captureContent: false, ...telemetry });
    return { host, telemetry: t, logger };
  }

  const callSpans = () => otel.receiver.spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
  async function exported(t: TelemetryExport, count: number, which: () => ReceivedSpan[] = callSpans): Promise<ReceivedSpan[]> {
    await t.flush();
    await waitFor(`${count} spans at the receiver`, () => which().length >= count, 10_000);
    return which();
  }

  it('one CLIENT span per call with the MCP/GenAI attributes and the host\'s own; no content by default', async () => {
    const { host, telemetry } = await hostWithTelemetry(env, {});
    const ok = await host.call({ name: 'basic__echo', args: { text: 'hello' } });
    const failed = await host.call({ name: 'basic__fail', args: { reason: 'boom' } });
    const denied = await host.call({ name: 'basic__add', args: { a: 1, b: 2 } });
    const remote = await host.call({ name: 'web__echo', args: { text: 'over http' } });
    assert.deepEqual([ok.outcome, failed.outcome, denied.outcome, remote.outcome], ['ok', 'isError', 'denied', 'ok']);


    const spans = await exported(telemetry, 4);
    assert.equal(spans.length, 4, 'exactly one span per call');
    const [echo, fail, add, web] = spans;
    assert.equal(echo.name, 'tools/call echo');
    assert.equal(echo.kind, KIND.client);
    assert.deepEqual(
      {
        method: echo.attributes['mcp.method.name'],
        op: echo.attributes['gen_ai.operation.name'],
        tool: echo.attributes['gen_ai.tool.name'],
        exposed: echo.attributes['mcp_host.tool.exposed_name'],
        server: echo.attributes['mcp_host.server'],
        outcome: echo.attributes['mcp_host.outcome'],
        confirmedBy: echo.attributes['mcp_host.confirmed_by'],
        rule: echo.attributes['mcp_host.rule'],
        transport: echo.attributes['network.transport'],
      },
      { method: 'tools/call', op: 'execute_tool', tool: 'echo', exposed: 'basic__echo', server: 'basic', outcome: 'ok', confirmedBy: 'policy', rule: 'auto', transport: 'pipe' },
    );
    assert.match(String(echo.attributes['mcp_host.definition_hash']), /^[0-9a-f]{8,}$/);
    assert.equal(echo.attributes['mcp.protocol.version'], host.snapshot().server('basic')?.info?.protocolVersion);
    assert.equal(echo.attributes['error.type'], undefined);
    assert.equal(echo.status.code, 0);
    assert.ok(echo.endTimeUnixNano >= echo.startTimeUnixNano);
    assert.equal(echo.resource['service.name'], 'mcp-host');
    assert.equal(echo.resource['service.version'], '9.9.9');

    assert.deepEqual([fail.attributes['error.type'], fail.status.code, fail.attributes['mcp_host.outcome']], ['tool_error', ERROR, 'isError']);
    assert.deepEqual([add.attributes['error.type'], add.attributes['mcp_host.confirmed_by'], add.attributes['mcp_host.rule']], ['denied', 'none', 'ask']);

    const session = host.snapshot().server('web')?.sessionId;
    assert.ok(session, 'the HTTP fixture assigned a session id');
    assert.equal(web.attributes['mcp.session.id'], session);
    assert.deepEqual([web.attributes['network.transport'], web.attributes['network.protocol.name'], web.attributes['server.address']], ['tcp', 'http', '127.0.0.1']);
    assert.equal(typeof web.attributes['server.port'], 'number');

    for (const s of spans) {
      assert.equal(s.attributes['gen_ai.tool.call.arguments'], undefined, 'arguments only with captureContent');
      assert.equal(s.attributes['gen_ai.tool.call.result'], undefined, 'results only with captureContent');
      assert.ok(!JSON.stringify(s.attributes).includes('hello'), 'no argument text anywhere');
    }
    assert.equal(telemetry.stats().exported >= 4, true);
    assert.equal(telemetry.stats().dropped, 0);
  });

  it('captureContent adds arguments and results, redacted like the audit', async () => {
    const { host, telemetry } = await hostWithTelemetry(env, { captureContent: true });
    await host.call({ name: 'basic__secret_echo', args: { token: 'tok-very-secret', text: 'visible' } });
    const [span] = await exported(telemetry, 1);
    assert.deepEqual(JSON.parse(String(span.attributes['gen_ai.tool.call.arguments'])), { token: '[redacted]', text: 'visible' });
    assert.equal(span.attributes['gen_ai.tool.call.result'], 'secret_echo: visible');
    assert.ok(!JSON.stringify(otel.receiver.spans.map((x) => x.attributes)).includes('tok-very-secret'));
  });

  it('list_changed becomes a SERVER span; other record kinds map by kind and unknown ones still export, content-free', async () => {
    const { host, telemetry } = await hostWithTelemetry(env, {});
    await host.call({ name: 'dyn__control', args: { action: 'add', name: 'gamma' } });
    const now = new Date().toISOString();
    telemetry.record({ kind: 'elicitation', ts: now, server: 'basic', outcome: 'accept', durationMs: 12, message: 'Your password please', requestedSchema: { type: 'object' } } as never);
    telemetry.record({ kind: 'somethingNew', ts: now, server: 'dyn', detail: 'x', count: 3, apiToken: 'never' } as never);
    const all = () => otel.receiver.spans;
    await exported(telemetry, 4, all);
    const list = otel.receiver.spans.find((s) => s.name === 'notifications/tools/list_changed');
    assert.ok(list);
    assert.equal(list.kind, KIND.server);
    assert.deepEqual(list.attributes['mcp_host.tools.added'], ['gamma']);
    assert.equal(list.attributes['mcp_host.server'], 'dyn');
    const elicitation = otel.receiver.spans.find((s) => s.name === 'elicitation/create');
    assert.ok(elicitation);
    assert.deepEqual([elicitation.kind, elicitation.attributes['mcp.method.name'], elicitation.attributes['mcp_host.outcome']], [KIND.server, 'elicitation/create', 'accept']);
    assert.equal(elicitation.attributes['mcp_host.message'], undefined, 'content-like fields only with captureContent');
    const unknown = otel.receiver.spans.find((s) => s.name === 'mcp_host somethingNew');
    assert.ok(unknown);
    assert.deepEqual([unknown.kind, unknown.attributes['mcp_host.detail'], unknown.attributes['mcp_host.count'], unknown.attributes['mcp_host.api_token']], [KIND.internal, 'x', 3, undefined]);
  });

  it('headers may use ${secret:NAME}; the endpoint gets /v1/traces unless it has it', async () => {
    const { host, telemetry } = await hostWithTelemetry(env, { headers: { Authorization: 'Bearer ${secret:otel-token}' } }, { secrets: { 'otel-token': 'abc123' } });
    await host.call({ name: 'basic__echo', args: { text: 'x' } });
    const [span] = await exported(telemetry, 1);
    assert.equal(span.headers.authorization, 'Bearer abc123');
    assert.equal(tracesUrl('http://c:4318'), 'http://c:4318/v1/traces');
    assert.equal(tracesUrl('http://c:4318/'), 'http://c:4318/v1/traces');
    assert.equal(tracesUrl('http://c:4318/v1/traces'), 'http://c:4318/v1/traces');
  });

  it('a missing header secret turns the export off with the reason; calls are unaffected', async () => {
    const { host, telemetry, logger } = await hostWithTelemetry(env, { headers: { Authorization: 'Bearer ${secret:nope}' } });
    const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
    assert.equal(r.outcome, 'ok');
    await telemetry.flush();
    assert.ok(logger.lines.some((l) => l.level === 'error' && /OpenTelemetry export is off: secret "nope" is not set \(mcpHost\.telemetry\.headers\.Authorization\)/.test(l.message)), JSON.stringify(logger.lines));
    assert.deepEqual(otel.receiver.requests, []);
  });

  it('a 503 from the collector is retried with backoff by the exporter', async () => {
    otel.receiver.failNext(1, 503);
    const { host, telemetry } = await hostWithTelemetry(env, {});
    await host.call({ name: 'basic__echo', args: { text: 'retry me' } });
    await exported(telemetry, 1);
    assert.deepEqual(otel.receiver.requests.map((r) => r.status), [503, 200]);
    assert.equal(otel.receiver.requests[1].contentType, 'application/json');
    assert.equal(telemetry.stats().failed, 0);
  });

  it('a dead collector: calls complete, failed exports are counted, the bounded queue drops and counts', async () => {
    await otel.receiver.close();
    const { host, telemetry } = await hostWithTelemetry(env, {}, { pipeline: { exportTimeoutMs: 300, maxQueueSize: 5 } });
    for (let i = 0; i < 3; i++) assert.equal((await host.call({ name: 'basic__echo', args: { text: `n${i}` } })).outcome, 'ok');
    await telemetry.flush();
    await waitFor('the failed export to be counted', () => telemetry.stats().failed >= 3, 10_000);
    // 20 records at once with 5 places in the queue: 5 wait for export, 15 are dropped and counted.
    for (let i = 0; i < 20; i++) telemetry.record({ kind: 'burst', ts: new Date().toISOString() } as never);
    await telemetry.flush();
    const s = telemetry.stats();
    assert.equal(s.dropped, 15, JSON.stringify(s));
    assert.equal(s.exported, 0);
  });

  it('configure(undefined) stops the export; nothing is sent afterwards', async () => {
    const { host, telemetry } = await hostWithTelemetry(env, {});
    await host.call({ name: 'basic__echo', args: { text: 'one' } });
    await exported(telemetry, 1);
    await telemetry.configure(undefined);
    await host.call({ name: 'basic__echo', args: { text: 'two' } });
    await telemetry.flush();
    assert.equal(callSpans().length, 1);
    assert.deepEqual(telemetry.stats(), { exported: 0, failed: 0, dropped: 0, queued: 0, pending: 0 });
  });
});
