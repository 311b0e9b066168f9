import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, RandomIdGenerator, TracerProvider, type IdGenerator, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { TraceIds } from '../util/traceContext';
import type { PipelineOptions, TelemetryPipeline } from './telemetryPipeline';
import type { SpanSpec } from './spanSpec';

/**
 * The only module that touches the OpenTelemetry SDK (it is bundled apart, as dist/otel.js, and loaded
 * only when an endpoint is set: see loadOtelPipeline.ts). Spans go through the SDK's
 * BatchSpanProcessor to the official OTLP/HTTP (JSON) exporter, which retries with exponential
 * backoff (429/502/503/504 and network errors such as ECONNREFUSED, within its timeout).
 *
 * Bounded: a span waits in the processor's queue until its export settles; at `maxQueueSize`
 * waiting spans a new one is dropped and counted instead of queued, so a dead collector costs
 * memory up to the bound and never blocks or fails the caller (`emit` is synchronous and cheap).
 */
export function createOtelPipeline(o: PipelineOptions): TelemetryPipeline {
  const stats = { queued: 0, exported: 0, failed: 0, dropped: 0 };
  const exporter = new CountingExporter(
    new OTLPTraceExporter({ url: o.url, headers: { ...o.headers }, timeoutMillis: o.exportTimeoutMs ?? 10_000 }),
    (n, result) => {
      stats.queued -= n;
      if (result.code === ExportResultCode.SUCCESS) stats.exported += n;
      else {
        stats.failed += n;
        o.onExportError?.(result.error ?? new Error('export failed'));
      }
    },
  );
  const maxQueueSize = o.maxQueueSize ?? 2048;
  const processor = new BatchSpanProcessor({
    exporter,
    maxQueueSize,
    maxExportBatchSize: Math.min(512, maxQueueSize),
    scheduledDelayMillis: o.scheduledDelayMs ?? 1000,
    // Longer than the exporter's own timeout, so the exporter's retries decide.
    exportTimeoutMillis: (o.exportTimeoutMs ?? 10_000) + 5_000,
  });
  const ids = new PresetIds();
  const provider = new TracerProvider({
    idGenerator: ids,
    resource: resourceFromAttributes({ 'service.name': o.serviceName, 'service.version': o.serviceVersion, ...(o.resourceAttributes ?? {}) }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('mcp-host', o.serviceVersion);

  return {
    emit(spec: SpanSpec): boolean {
      if (stats.queued >= maxQueueSize) {
        stats.dropped++;
        return false;
      }
      stats.queued++;
      // A span whose ids were taken when its operation started (sent to the server as traceparent) gets exactly those.
      ids.next = spec.ids;
      let span;
      try {
        span = tracer.startSpan(spec.name, { kind: KINDS[spec.kind], startTime: spec.startTimeMs, attributes: spec.attributes as Attributes, root: true });
      } finally {
        ids.next = undefined;
      }
      if (spec.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: spec.error });
      span.end(spec.endTimeMs);
      return true;
    },
    stats: () => ({ ...stats }),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

const KINDS: Record<SpanSpec['kind'], SpanKind> = { client: SpanKind.CLIENT, server: SpanKind.SERVER, internal: SpanKind.INTERNAL };

/** Random ids, except for the one span being started with ids of its own (`next`, set around startSpan). */
class PresetIds implements IdGenerator {
  next?: TraceIds;
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    return this.next?.traceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.next?.spanId ?? this.random.generateSpanId();
  }
}

/** Counts what each export did with its spans (the processor keeps no public count). */
class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly settled: (count: number, result: ExportResult) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    let reported = false;
    this.inner.export(spans, (result) => {
      if (!reported) this.settled(spans.length, result);
      reported = true;
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

