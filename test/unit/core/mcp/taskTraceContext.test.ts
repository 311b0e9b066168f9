/**
 * W3C trace context on legacy task calls (protocol 2025-11-25, taskCall.ts): while OpenTelemetry export
 * is on, the `tools/call` that creates a task carries `traceparent` in its `_meta` naming the call's own
 * span, as a plain call does (traceContext.test.ts). The tasks fixture logs the traceparent its task saw;
 * the host's OpenTelemetry SDK exports the call span to an OTLP receiver; both name the same ids.
 */
import * as assert from 'node:assert/strict';
import type { CallAuditRecord } from '../../../../src/core/audit/auditRecord';
import type { TelemetrySettings } from '../../../../src/core/settings/hostSettings';
import { TelemetryExport } from '../../../../src/core/telemetry/telemetryExport';
import { useOtlpReceiver } from '../telemetry/otlpReceiverHooks';
import { RecordingLogger, mapSecrets, settings, useTestEnv, waitFor, type Any } from '../helpers';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('traceparent on legacy task calls, tied to the call span (tasks fixture)', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  const otel = useOtlpReceiver();

  async function started(telemetry: TelemetrySettings | undefined) {
    const host = await env.started({ settings: settings({ servers: [env.stdio('tasks', 'tasks')], autoApprove: ['*/*'], ...(telemetry ? { telemetry } : {}) }) });
    const records: CallAuditRecord[] = [];
    host.onDidRecord((r) => r.kind === 'call' && records.push(r as CallAuditRecord));
    const t = new TelemetryExport({ logger: new RecordingLogger(), secrets: mapSecrets({}), env: {}, serviceVersion: '9.9.9', snapshot: () => host.snapshot(), pipeline: { scheduledDelayMs: 20 } });
    otel.exports.push(t);
    t.attach(host.onDidRecord);
    await t.configure(telemetry);
    const created = () => env.events('tasks').filter((e: Any) => e.event === 'taskCreated');
    return { host, records, telemetry: t, created };
  }

  it('the task-creating tools/call carries the trace id and span id of the exported call span', async () => {
    const { host, records, telemetry, created } = await started({ otlpEndpoint: otel.receiver.endpoint, headers: {}, captureContent: false });
    const r = await host.call({ name: 'tasks__research', args: { steps: 1, stepMs: 10 } });
    assert.equal(r.outcome, 'ok', r.modelText);
    const [task] = created();
    const ids = TRACEPARENT.exec(String(task?.traceparent));
    assert.ok(ids, `a W3C traceparent reached the task: ${JSON.stringify(task)}`);

    await telemetry.flush();
    await waitFor('the call span', () => otel.receiver.spans.some((s) => s.attributes['mcp.method.name'] === 'tools/call'), 10_000);
    const span = otel.receiver.spans.find((s) => s.attributes['mcp.method.name'] === 'tools/call');
    assert.deepEqual([span?.traceId, span?.spanId], [ids[1], ids[2]], 'the span the host exported is the parent the server was given');
    assert.deepEqual(records[0].trace, { traceId: ids[1], spanId: ids[2] });
  });

  it('telemetry off: the task-creating call carries no traceparent', async () => {
    const { host, created } = await started(undefined);
    assert.equal((await host.call({ name: 'tasks__research', args: { steps: 1, stepMs: 10 } })).outcome, 'ok');
    assert.equal(created().length, 1);
    assert.equal(created()[0].traceparent, undefined);
  });
});
