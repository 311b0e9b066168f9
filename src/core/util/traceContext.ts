import { randomBytes } from 'node:crypto';

/** The ids of one span, as W3C Trace Context writes them (lowercase hex). */
export interface TraceIds {
  /** 32 hex digits, not all zero. */
  readonly traceId: string;
  /** 16 hex digits, not all zero. */
  readonly spanId: string;
}

/**
 * Fresh ids for a span the host will export later (the telemetry export makes the span from the
 * audit record, with these ids): taken when the operation starts, so a request can carry them.
 */
export function newTraceIds(): TraceIds {
  return { traceId: nonZeroHex(16), spanId: nonZeroHex(8) };
}

/** The `traceparent` value (W3C Trace Context, version 00, sampled) naming `ids` as the parent. */
export function traceparent(ids: TraceIds): string {
  return `00-${ids.traceId}-${ids.spanId}-01`;
}

function nonZeroHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (/[^0]/.test(hex)) return hex;
  }
}
