import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OpenCall } from '../requests/serverCalls';
import { DEFAULTS } from '../settings/hostSettings';
import { linkAbort } from '../util/abortFanOut';
import { hostErrorText } from './hostErrorResponse';
import type { DirectToolCalls } from './directToolCalls';
import { callToolWithProgress, type ProgressCallOptions } from './progressToolCall';
import { httpStatusText, ServerUnreachableError } from './transportErrorText';

/** The call ran out of time here (not a server's own -32001): the server was told to cancel it. */
export class CallTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    /** Set when the call reported progress but ran past the total cap (`maxTotalTimeoutMs`). */
    readonly maxTotalTimeoutMs?: number,
  ) {
    super(maxTotalTimeoutMs !== undefined ? `ran longer than the maximum of ${maxTotalTimeoutMs} ms` : `timed out after ${timeoutMs} ms`);
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

/** Where a call's clock comes from (ServerCalls): it stops while the user is asked on the server's behalf. */
export interface CallClocks {
  begin(server: string, tool: string, timeoutMs: number, signal: AbortSignal | undefined, resetOnProgress: boolean, maxTotalMs: number): OpenCall;
}

/** What every call on one connection shares. */
export interface CallContext {
  /** Whether this call's connection has closed (set before the SDK rejects the calls in flight). */
  readonly closed: () => boolean;
  /** The server's URL (remote servers), for error texts. */
  readonly url?: string;
  /** Where a clocked plain call goes instead of the SDK's Protocol.request (see DirectToolCalls). */
  readonly direct?: DirectToolCalls;
  /** The server's name, for its clocks. */
  readonly server?: string;
  /**
   * Starts each call's clock with the caller's signal, which it links to the call's own; that
   * clock is then the call's timeout. Without it the SDK's is.
   */
  readonly clocks?: CallClocks;
  /** A call found the server cannot be reached (ServerUnreachableError): the connection is lost. */
  readonly unreachable?: (reason: string) => void;
}

/**
 * `tools/call` with progress (as a task when `tool` requires it; callToolWithProgress) and a
 * lenient result schema. The caller's signal is linked to a per-call signal (linkAbort) and
 * unlinked when the call settles, so a caller's signal shared by many calls carries one listener
 * and none outlives its call (the SDK adds one per request to the signal it is given, and never
 * removes it); with a clock, that per-call signal is the clock's, which it also aborts on timeout.
 * A rejection is classified: our own timeout (CallTimeoutError), the connection lost
 * (ConnectionLostError), a server that cannot be reached (ServerUnreachableError), an HTTP status;
 * a server's JSON-RPC error (any code) stays an McpError with the server's message.
 */
export async function sendToolCall(
  client: Client,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  o: ProgressCallOptions,
  ctx: CallContext,
): Promise<Record<string, unknown>> {
  const reset = o.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress;
  const maxTotal = o.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs;
  // The clock links the caller's signal to its own per-call signal; without a clock, linkAbort does.
  const open = ctx.clocks?.begin(ctx.server ?? '', name, o.timeoutMs, o.signal, reset, maxTotal);
  const link = open ? undefined : linkAbort(o.signal);
  try {
    const own: ProgressCallOptions = open
      ? { timeoutMs: open.sdkTimeoutMs, signal: open.signal, onProgress: open.withProgress(o.onProgress), resetTimeoutOnProgress: reset, maxTotalTimeoutMs: maxTotal, clocked: true, direct: ctx.direct }
      : { timeoutMs: o.timeoutMs, signal: link!.signal, onProgress: o.onProgress, resetTimeoutOnProgress: reset, maxTotalTimeoutMs: maxTotal };
    return await callToolWithProgress(client, tool, name, args, own);
  } catch (e) {
    const error = classifyCallError(e, o.timeoutMs, ctx);
    if (error instanceof ServerUnreachableError) ctx.unreachable?.(error.message);
    throw error;
  } finally {
    open?.end();
    link?.unlink();
  }
}

export function classifyCallError(e: unknown, timeoutMs: number, ctx: CallContext): unknown {
  if (e instanceof McpError) {
    // The SDK's own timeout carries {timeout} (or {maxTotalTimeout}); a server's -32001 does not.
    const data = e.data as { timeout?: unknown; maxTotalTimeout?: unknown } | undefined;
    if (e.code === ErrorCode.RequestTimeout && data && (typeof data.timeout === 'number' || typeof data.maxTotalTimeout === 'number')) {
      if (typeof data.maxTotalTimeout === 'number') return new CallTimeoutError(timeoutMs, data.maxTotalTimeout);
      return new CallTimeoutError(data.timeout as number);
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
