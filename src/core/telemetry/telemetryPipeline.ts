import type { SpanSpec } from './spanSpec';

/** Where spans go: the OpenTelemetry SDK behind a port, so the rest of the host never loads it. */
export interface TelemetryPipeline {
  /** Queues a span for export; false when the queue is full and the span was dropped (counted). Never throws, never waits. */
  emit(span: SpanSpec): boolean;
  stats(): PipelineStats;
  /** Exports what is queued; resolves when that export settled. */
  flush(): Promise<void>;
  /** Exports what is queued, then stops. */
  shutdown(): Promise<void>;
}

export interface PipelineStats {
  /** Handed to the exporter and not yet settled. */
  readonly queued: number;
  readonly exported: number;
  /** Given up on after the exporter's retries. */
  readonly failed: number;
  /** Not queued because `maxQueueSize` spans were waiting. */
  readonly dropped: number;
}

export interface PipelineOptions {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly serviceVersion: string;
  readonly resourceAttributes?: Readonly<Record<string, string>>;
  /** Default 2048. */
  readonly maxQueueSize?: number;
  /** How long spans gather before an export; default 1000 ms. */
  readonly scheduledDelayMs?: number;
  /** One export including its retries; default 10 000 ms. */
  readonly exportTimeoutMs?: number;
  readonly onExportError?: (error: Error) => void;
}

/** Creates a pipeline (the OpenTelemetry SDK, loaded on demand). */
export type PipelineFactory = (options: PipelineOptions) => TelemetryPipeline;
