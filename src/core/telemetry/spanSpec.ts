/**
 * One span as the host describes it, before any OpenTelemetry object exists: the mapping from audit
 * records (auditRecordSpan.ts) stays plain data and testable; otelPipeline.ts turns it into a span.
 */

import type { TraceIds } from '../util/traceContext';

export type SpanAttributeValue = string | number | boolean | readonly string[];

export interface SpanSpec {
  /** `{mcp.method.name} {target}`, e.g. `tools/call get_weather`. */
  readonly name: string;
  /** `client`: the host asked a server; `server`: a server asked or told the host; `internal`: the host's own. */
  readonly kind: 'client' | 'server' | 'internal';
  /** Epoch milliseconds. */
  readonly startTimeMs: number;
  readonly endTimeMs: number;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
  /** Set when the operation failed: the span's status is ERROR with this description. */
  readonly error?: string;
  /** The span's own ids, when they were taken as the operation started (a call's `traceparent`); random otherwise. */
  readonly ids?: TraceIds;
}

/** What the mapping may know about a server besides the record (from the host's snapshot at export time). */
export interface ServerFacts {
  readonly protocolVersion?: string;
  readonly transport?: string;
  /** The configured URL of a remote server (unresolved: `${…}` parts are skipped). */
  readonly url?: string;
  readonly sessionId?: string;
  /** The file an imported server comes from. */
  readonly source?: string;
}

export interface SpanContext {
  readonly captureContent: boolean;
  readonly server: (name: string) => ServerFacts | undefined;
  /** The confirmation rule of a tool under the active role (`ask` / `auto`). */
  readonly rule: (server: string, tool: string) => string | undefined;
}
