/**
 * W3C trace context in `_meta` (issue 27, item 3): while OpenTelemetry export is on, every tool call
 * carries `traceparent` naming the call's own span, so the server's spans join the host's trace. Proved
 * end to end: the modern-only fixture logs the `traceparent` its tool handler saw, the host's real
 * OpenTelemetry SDK exports the call span to an OTLP receiver, and the two name the same trace and span
 * (the audit record keeps the ids too). With telemetry off nothing is sent.
 */
import * as assert from 'node:assert/strict';
import type { CallAuditRecord } from '../../../../src/core/audit/auditRecord';
import type { TelemetrySettings } from '../../../../src/core/settings/hostSettings';
import { TelemetryExport } from '../../../../src/core/telemetry/telemetryExport';
import { newTraceIds, traceparent } from '../../../../src/core/util/traceContext';
import { readFixtureLog } from '../../../fixtures/fixtureServers';
import { useOtlpReceiver } from './otlpReceiverHooks';
import { RecordingLogger, mapSecrets, settings, useTestEnv, waitFor, type TestEnv } from '../helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

for (const kind of ['stdio', 'http'] as const) {
  describe(`traceparent in _meta, tied to the call's span (modern fixture over ${kind})`, function () {
    this.timeout(60_000);
    const env = useTestEnv();
    const otel = useOtlpReceiver();
    const exports = otel.exports;

    async function started(e: TestEnv, telemetry: TelemetrySettings | undefined) {
      let log = e.file('modern.jsonl');
      let server;
      if (kind === 'stdio') {
        server = e.stdio('modern', 'modern/server', { connectTimeoutMs: 15_000 });
        log = e.logOf('modern');
      } else {
        server = { ...e.remote('modern', (await e.http({ FIXTURE_LOG: log }, { script: 'modern/server', args: ['--http'] })).url), connectTimeoutMs: 15_000 };
      }
      const host = await e.started({ settings: settings({ servers: [server], autoApprove: ['*/*'], ...(telemetry ? { telemetry } : {}) }) });
      const records: CallAuditRecord[] = [];
      host.onDidRecord((r) => r.kind === 'call' && records.push(r as CallAuditRecord));
      const t = new TelemetryExport({ logger: new RecordingLogger(), secrets: mapSecrets({}), env: {}, serviceVersion: '9.9.9', snapshot: () => host.snapshot(), pipeline: { scheduledDelayMs: 20 } });
      exports.push(t);
      t.attach(host.onDidRecord);
      await t.configure(telemetry);
      const handled = (tool: string) => readFixtureLog(log).filter((ev: Any) => ev.event === 'handled' && ev.tool === tool);
      return { host, records, telemetry: t, handled };
    }

    it('the server sees the trace id and span id of the exported tools/call span', async () => {
      const { host, records, telemetry, handled } = await started(env, { otlpEndpoint: otel.receiver.endpoint, headers: {}, captureContent: false });
      assert.equal((await host.call({ name: 'modern__echo', args: { text: 'traced' } })).outcome, 'ok');
      assert.equal((await host.call({ name: 'modern__echo', args: { text: 'again' } })).outcome, 'ok');

      const seen = handled('echo').map((ev: Any) => String(ev.traceparent));
      assert.equal(seen.length, 2);
      const [first, second] = seen.map((tp) => TRACEPARENT.exec(tp));
      assert.ok(first && second, `W3C traceparent values: ${seen.join(', ')}`);
      assert.notEqual(first[1], second[1], 'each call is its own trace');

      await telemetry.flush();
      await waitFor('two call spans', () => otel.receiver.spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call').length === 2, 10_000);
      const spans = otel.receiver.spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
      assert.deepEqual(
        spans.map((s) => [s.traceId, s.spanId]),
        [first, second].map((m) => [m[1], m[2]]),
        'the span the host exported is the parent the server was given',
      );
      assert.deepEqual(
        records.map((r) => r.trace),
        [first, second].map((m) => ({ traceId: m[1], spanId: m[2] })),
        'the audit record keeps the ids',
      );
    });

    it('telemetry off: no traceparent is sent and the audit record has no trace', async () => {
      const { host, records, handled } = await started(env, undefined);
      assert.equal((await host.call({ name: 'modern__echo', args: { text: 'quiet' } })).outcome, 'ok');
      assert.equal(handled('echo').length, 1);
      assert.equal(handled('echo')[0].traceparent, undefined);
      assert.equal(records[0].trace, undefined);
    });
  });
}

describe('traceContext ids', () => {
  it('are W3C lowercase hex, never all zero, and fresh each time', () => {
    const a = newTraceIds();
    const b = newTraceIds();
    assert.match(traceparent(a), TRACEPARENT);
    assert.notEqual(a.traceId, b.traceId);
    assert.notEqual(a.spanId, b.spanId);
  });
});
