import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { linkAbort } from './abortFanOut';
import { hostErrorText } from './hostErrorResponse';
import { httpStatusText, ServerUnreachableError } from './transportErrorText';

/** The call ran out of time here (not a server's own -32001): the server was told to cancel it. */
export class CallTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'CallTimeoutError';
  }
}

/** The connection ended while the call was in flight (not a server's own -32000). */
export class ConnectionLostError extends Error {
  constructor(message = 'the connection closed during the call') {
    super(message);
    this.name = 'ConnectionLostError';
  }
}

/**
 * Any JSON object: `tools/call` results are read leniently here and checked per part by the host
 * (the SDK's strict schema rejects a whole result for one unknown content block).
 */
export const AnyObjectSchema = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
  message: 'expected a JSON object',
});

export interface ToolCallOptions {
  readonly timeoutMs: number;
  /** The caller's Stop. Linked to a per-call signal and unlinked when the call settles. */
  readonly signal?: AbortSignal;
  /** More request options (progress and the like). */
  readonly request?: Omit<RequestOptions, 'signal' | 'timeout'>;
}

export interface CallContext {
  /** Whether this call's connection has closed (set before the SDK rejects the calls in flight). */
  readonly closed: () => boolean;
  /** The server's URL (remote servers), for error texts. */
  readonly url?: string;
}

/**
 * `tools/call` with a lenient result schema. The caller's signal is linked to a per-call signal
 * (linkAbort) and unlinked when the call settles, so no listener outlives its call (the SDK adds
 * one per request to the signal it is given, and never removes it). A rejection is
 * classified: our own timeout (CallTimeoutError), the connection lost (ConnectionLostError),
 * a server that cannot be reached (ServerUnreachableError), an HTTP status; a server's JSON-RPC
 * error (any code) stays an McpError with the server's message.
 */
export async function sendToolCall(client: Client, name: string, args: Record<string, unknown>, o: ToolCallOptions, ctx: CallContext): Promise<Record<string, unknown>> {
  const link = linkAbort(o.signal);
  try {
    return await client.request({ method: 'tools/call', params: { name, arguments: args } }, AnyObjectSchema, {
      ...o.request,
      timeout: o.timeoutMs,
      signal: link.signal,
    });
  } catch (e) {
    throw classifyCallError(e, o.timeoutMs, ctx);
  } finally {
    link.unlink();
  }
}

export function classifyCallError(e: unknown, timeoutMs: number, ctx: CallContext): unknown {
  if (e instanceof McpError) {
    // The SDK's own timeout carries {timeout} (or {maxTotalTimeout}); a server's -32001 does not.
    const data = e.data as { timeout?: unknown; maxTotalTimeout?: unknown } | undefined;
    if (e.code === ErrorCode.RequestTimeout && data && (typeof data.timeout === 'number' || typeof data.maxTotalTimeout === 'number')) {
      return new CallTimeoutError(typeof data.timeout === 'number' ? data.timeout : timeoutMs);
    }
    if (e.code === ErrorCode.ConnectionClosed && ctx.closed()) return new ConnectionLostError();
    const own = hostErrorText(e);
    if (own !== undefined) return new Error(own);
    return e;
  }
  if (e instanceof ServerUnreachableError) return e;
  const status = httpStatusText(e, ctx.url);
  return status !== undefined ? new Error(status, { cause: e }) : e;
}
