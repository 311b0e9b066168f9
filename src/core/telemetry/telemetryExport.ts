import type { HostSnapshot } from '../host/hostSnapshot';
import type { TelemetrySettings } from '../settings/hostSettings';
import { resolveStrings, type SecretResolver } from '../settings/resolveServerSettings';
import type { Disposable, Event } from '../util/event';
import type { Logger } from '../util/logger';
import { loadAuditRecordSpan } from './loadAuditRecordSpan';
import { loadOtelPipeline } from './loadOtelPipeline';
import type { SpanContext } from './spanSpec';
import type { PipelineFactory, PipelineOptions, TelemetryPipeline } from './telemetryPipeline';

export interface TelemetryExportOptions {
  readonly logger: Logger;
  readonly secrets: SecretResolver;
  readonly env: Record<string, string | undefined>;
  readonly workspaceFolder?: string;
  readonly serviceVersion: string;
  /** Read when spans are made: connection facts and confirmation rules. */
  readonly snapshot: () => HostSnapshot;
  /** Default: the OpenTelemetry SDK, loaded on first use. */
  readonly loadPipeline?: () => Promise<PipelineFactory>;
  /** Tuning for tests and benchmarks (batch delay, queue size, export timeout). */
  readonly pipeline?: Partial<Omit<PipelineOptions, 'url' | 'headers'>>;
  /** Records waiting to become spans (while the SDK loads, between drains); default 1000. */
  readonly maxPending?: number;
}

export interface TelemetryStats {
  readonly endpoint?: string;
  readonly exported: number;
  readonly failed: number;
  /** Dropped because a queue was full (never because a call waited). */
  readonly dropped: number;
  readonly queued: number;
  readonly pending: number;
}

/** OTLP/HTTP traces URL: the base endpoint plus `/v1/traces`, unless it already ends so. */
export function tracesUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return /\/v1\/traces$/.test(trimmed) ? trimmed : `${trimmed}/v1/traces`;
}

/**
 * Exports every audit record as an OpenTelemetry span (see auditRecordSpan.ts) to the collector of
 * `mcpHost.telemetry.otlpEndpoint`. It listens to the audit stream, so whatever the host audits is
 * exported, by kind. A record costs the call that made it one array push: mapping and export run
 * later, off the call path, through bounded queues that drop (and count) rather than wait; a dead
 * or slow collector never slows or fails a call. The SDK is loaded only when an endpoint is set.
 */
export class TelemetryExport {
  private settingsKey = '';
  private captureContent = false;
  /** The endpoint is set but the export could not start (reported): records are not kept. */
  private broken = false;
  private pipeline?: TelemetryPipeline;
  private endpoint?: string;
  private generation = 0;
  private pending: { readonly kind: string }[] = [];
  private droppedPending = 0;
  private droppedBefore = 0;
  private drainScheduled = false;
  private lastErrorLog = 0;
  private configuring: Promise<void> = Promise.resolve();

  constructor(private readonly o: TelemetryExportOptions) {}

  /** Export the records of this stream from now on. */
  attach(records: Event<{ readonly kind: string }>): Disposable {
    return records((r) => this.record(r));
  }

  /** Queue one record (synchronous, bounded; a no-op while no endpoint is set). */
  record(r: { readonly kind: string }): void {
    if (!this.settingsKey || this.broken) return;
    if (this.pending.length >= (this.o.maxPending ?? 1000)) {
      this.droppedPending++;
      return;
    }
    this.pending.push(r);
    // A caller that never yields to the event loop (calls answered within one microtask chain)
    // would starve the drain: past half the bound, drain now rather than drop later.
    if (this.pending.length >= (this.o.maxPending ?? 1000) / 2) this.drain();
    else this.scheduleDrain();
  }

  /** Apply `mcpHost.telemetry.*` (undefined: off). Resolves when the new export is ready or has failed. */
  configure(settings: TelemetrySettings | undefined): Promise<void> {
    const key = settings ? JSON.stringify(settings) : '';
    if (key === this.settingsKey) return this.configuring;
    this.settingsKey = key;
    this.captureContent = settings?.captureContent ?? false;
    this.broken = false;
    const generation = ++this.generation;
    this.configuring = this.configuring.then(async () => {
      await this.stopPipeline();
      if (!settings || generation !== this.generation) return;
      const pipeline = await this.startPipeline(settings).catch((e: unknown) => {
        this.o.logger.error(`OpenTelemetry export is off: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (generation !== this.generation) {
        await pipeline?.shutdown().catch(() => undefined);
        return;
      }
      this.pipeline = pipeline;
      if (pipeline) this.scheduleDrain();
      else {
        this.broken = true;
        this.pending = [];
      }
    });
    return this.configuring;
  }

  stats(): TelemetryStats {
    const s = this.pipeline?.stats();
    return {
      ...(this.endpoint ? { endpoint: this.endpoint } : {}),
      exported: s?.exported ?? 0,
      failed: s?.failed ?? 0,
      dropped: this.droppedBefore + this.droppedPending + (s?.dropped ?? 0),
      queued: s?.queued ?? 0,
      pending: this.pending.length,
    };
  }

  /** Turn every waiting record into a span and export what is queued. */
  async flush(): Promise<void> {
    await this.configuring;
    this.drain();
    await this.pipeline?.flush().catch(() => undefined);
  }

  /** Export what is waiting (at most `deadlineMs`), then stop. */
  async close(deadlineMs = 5000): Promise<void> {
    this.settingsKey = '';
    this.generation++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((r) => (timer = setTimeout(r, deadlineMs)));
    await Promise.race([this.configuring.then(() => (this.drain(), this.stopPipeline())), deadline]);
    if (timer) clearTimeout(timer);
  }

  private async startPipeline(settings: TelemetrySettings): Promise<TelemetryPipeline> {
    const ctx = { workspaceFolder: this.o.workspaceFolder, env: this.o.env, secrets: this.o.secrets };
    const url = await resolveStrings({ otlpEndpoint: settings.otlpEndpoint }, ['telemetry'], ctx);
    if (!url.ok) throw new Error(url.error);
    const headers = await resolveStrings(settings.headers, ['telemetry', 'headers'], ctx);
    if (!headers.ok) throw new Error(headers.error);
    const factory = await (this.o.loadPipeline ?? loadOtelPipeline)();
    const endpoint = tracesUrl(url.values.otlpEndpoint);
    const pipeline = factory({
      serviceName: 'mcp-host',
      serviceVersion: this.o.serviceVersion,
      ...this.o.pipeline,
      url: endpoint,
      headers: headers.values,
      onExportError: (e) => this.exportFailed(endpoint, e),
    });
    this.endpoint = endpoint;
    this.o.logger.info(`OpenTelemetry: exporting spans to ${endpoint}${settings.captureContent ? ' (with tool arguments and results)' : ''}`);
    return pipeline;
  }

  private async stopPipeline(): Promise<void> {
    const p = this.pipeline;
    if (!p) return;
    const s = p.stats();
    this.droppedBefore += s.dropped;
    this.pipeline = undefined;
    this.endpoint = undefined;
    await p.shutdown().catch(() => undefined);
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || !this.pipeline) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    const pipeline = this.pipeline;
    if (!pipeline || this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    const snapshot = this.o.snapshot();
    const ctx: SpanContext = {
      captureContent: this.captureContent,
      server: (name) => {
        const s = snapshot.server(name);
        if (!s) return undefined;
        return {
          protocolVersion: s.info?.protocolVersion,
          transport: s.transport,
          url: s.settings.type === 'stdio' ? undefined : s.settings.url,
          sessionId: s.sessionId,
          source: s.settings.source,
        };
      },
      rule: (server, tool) => snapshot.tool(server, tool)?.rule,
    };
    const auditRecordSpan = loadAuditRecordSpan();
    for (const r of records) {
      try {
        pipeline.emit(auditRecordSpan(r, ctx));
      } catch (e) {
        this.droppedPending++;
        this.o.logger.warn(`OpenTelemetry: a "${r.kind}" record could not become a span: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private exportFailed(endpoint: string, e: Error): void {
    const now = Date.now();
    if (now - this.lastErrorLog < 60_000) return;
    this.lastErrorLog = now;
    this.o.logger.warn(`OpenTelemetry: export to ${endpoint} failed after retries (${e.message}); those spans are dropped and counted, calls are not affected`);
  }
}
