import { ProtocolError, SdkError, SdkErrorCode, TRACEPARENT_META_KEY, type Client, type Progress, type Tool } from '@modelcontextprotocol/client';
import { DEFAULTS } from '../../settings/hostSettings';
import { traceparent, type TraceIds } from '../../util/traceContext';
import { AnyObjectSchema } from '../anyObjectSchema';
import type { DirectRequests } from '../directRequests';
import type { ProgressListener } from '../callProgress';
import { headerAnnotations } from '../headerAnnotations';
import { hostErrorText } from '../hostErrorResponse';
import { listAllTools } from '../listAllTools';
import { HEADER_MISMATCH, protocolErrorText, serverErrorText } from '../protocolErrorText';
import { httpStatusText, ServerUnreachableError } from '../transportErrorText';
import { CallDeadline, type OpenCall } from './callDeadline';
import { followTask } from './modernTaskCall';
import { callToolAsTask, runsAsTask } from './taskCall';
import { afterUrlElicitation, isUrlElicitationRequired } from './urlElicitationRequired';

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
  /** `tool` undefined: a request that is no tool call (a resource read, a prompt), on the same kind of clock. */
  begin(server: string, tool: string | undefined, timeoutMs: number, signal: AbortSignal | undefined, resetOnProgress: boolean, maxTotalMs: number): OpenCall;
}

/** What every call on one connection shares. */
export interface CallContext {
  /** Whether this call's connection has closed (set before the SDK rejects the calls in flight). */
  readonly closed: () => boolean;
  /** The server's URL (remote servers), for error texts. */
  readonly url?: string;
  /** The server's name, for its clocks. */
  readonly server?: string;
  /** Starts each call's clock (ServerCalls, which pauses it while a person answers); without it a CallDeadline is the clock. */
  readonly clocks?: CallClocks;
  /** A call found the server cannot be reached (ServerUnreachableError): the connection is lost. */
  readonly unreachable?: (reason: string) => void;
  /** A call found the host's tool definitions out of date (a 2026-07-28 header mismatch): list them again. */
  readonly toolsStale?: () => void;
  /** The transport's requests past the SDK (a stdio server): a 2025-era `tools/call` goes there (see DirectRequests). */
  readonly direct?: DirectRequests;
}

export interface ToolCallOptions {
  /** Time without a result (and, with `resetTimeoutOnProgress`, without progress). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Progress and task status of this call, as the server reports them. */
  readonly onProgress?: ProgressListener;
  /** Default true. */
  readonly resetTimeoutOnProgress?: boolean;
  /** Default 10 minutes. */
  readonly maxTotalTimeoutMs?: number;
  /** The span of this call (telemetry on): sent as W3C `traceparent` in the request's `_meta`, so the server's spans join its trace. */
  readonly trace?: TraceIds;
}

/**
 * One `tools/call`, below the router, as one unit: its one clock (ServerCalls' when the connection
 * has one, else a CallDeadline: the timeout, its restart on progress, the total cap; the SDK's own
 * timer is set never to fire first), sending (every call carries a `progressToken`, so servers
 * report progress: server-everything's long-running tool sends none without one), cancellation
 * (the clock's signal: the SDK sends `notifications/cancelled`, or on a modern HTTP connection
 * closes the request's response stream), a task-required tool run as a task (legacy: taskCall.ts;
 * 2026-07-28: a task the server answers with, modernTaskCall.ts), and
 * the result read leniently as any JSON object (the router reads it part by part: the SDK's strict
 * schema would reject a whole result for one unknown content block). A rejection is classified:
 * our own timeout (CallTimeoutError), the connection lost (ConnectionLostError), a server that
 * cannot be reached (ServerUnreachableError), an HTTP status; a server's JSON-RPC error (any code)
 * becomes its words naming the code (protocolErrorText, the ProtocolError as cause), and a 2026-07-28
 * server that kept asking for input past MRTR_MAX_ROUNDS says so (without its requestState). A
 * header mismatch (-32020) is answered by listing the tool again and retrying once.
 */
export async function sendToolCall(client: Client, tool: Tool | undefined, name: string, args: Record<string, unknown>, o: ToolCallOptions, ctx: CallContext): Promise<Record<string, unknown>> {
  const reset = o.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress;
  const maxTotal = o.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs;
  const clock = ctx.clocks?.begin(ctx.server ?? '', name, o.timeoutMs, o.signal, reset, maxTotal) ?? new CallDeadline({ timeoutMs: o.timeoutMs, resetTimeoutOnProgress: reset, maxTotalTimeoutMs: maxTotal, signal: o.signal });
  const onProgress = clock.withProgress(o.onProgress);
  try {
    const meta = o.trace ? { [TRACEPARENT_META_KEY]: traceparent(o.trace) } : undefined;
    if (runsAsTask(tool, client.getServerCapabilities())) {
      return await callToolAsTask(client, name, args, { signal: clock.signal, requestTimeoutMs: clock.sdkTimeoutMs, onProgress, meta });
    }
    const send = async (definition: Tool | undefined) => {
      const result = await sendOnce(client, { tool: definition, name, args, meta }, clock, onProgress, ctx.direct);
      // A 2026-07-28 server may answer with a task (the tasks extension): followed to its result.
      return followTask(client, result, { signal: clock.signal, requestTimeoutMs: clock.sdkTimeoutMs, onProgress });
    };
    try {
      return await send(tool);
    } catch (e) {
      // 2025-11-25: the server needs a step in the browser first (-32042): the host's URL step, then one retry.
      if (isUrlElicitationRequired(e) && !clock.signal.aborted) return await afterUrlElicitation(client, e, { signal: clock.signal, waitMs: o.timeoutMs, server: ctx.server }, () => send(tool));
      if (!(e instanceof ProtocolError && e.code === HEADER_MISMATCH) || clock.signal.aborted) throw e;
      // 2026-07-28: the server's tool definition no longer matches the headers sent (its x-mcp-header
      // declarations changed): list the tool again, once, and retry with what the server lists now.
      ctx.toolsStale?.();
      const relisted = await listAllTools(client, { timeoutMs: o.timeoutMs, signal: clock.signal, stopAfter: name, headers: true });
      try {
        return await send(relisted.tools[0]);
      } catch (again) {
        if (again instanceof ProtocolError && again.code === HEADER_MISMATCH) throw new Error(`${protocolErrorText(again, ctx.server)} (again after the host listed the tool anew)`, { cause: again });
        throw again;
      }
    }
  } catch (e) {
    const error = classifyCallError(e, o.timeoutMs, ctx);
    if (error instanceof ServerUnreachableError) ctx.unreachable?.(error.message);
    throw error;
  } finally {
    clock.end();
  }
}

/** One `tools/call` as the host sends it: the tool's listed definition (for header mirroring) and the trace context. */
interface OutgoingCall {
  readonly tool: Tool | undefined;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly meta: Record<string, unknown> | undefined;
}

/**
 * One `tools/call` on the call's clock. On a 2025-era stdio connection it goes past the SDK's
 * request path (DirectRequests: the same request, progress, cancellation and errors, without the
 * SDK's per-message cost). On a 2026-07-28 connection a tool whose arguments are mirrored into
 * `Mcp-Param-*` headers (valid `x-mcp-header` declarations) goes through the SDK's callTool, which
 * does the mirroring from the definition given (without its outputSchema: the router checks
 * structured output); every other call is read leniently (AnyObjectSchema). MRTR rounds happen
 * inside either: the SDK answers each input request through the host's handlers.
 */
function sendOnce(client: Client, call: OutgoingCall, clock: OpenCall, onProgress: (p: Progress) => void, direct: DirectRequests | undefined): Promise<Record<string, unknown>> {
  const { tool, name, args, meta } = call;
  const params = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
  const progress = (p: Progress) => onProgress({ progress: p.progress, total: p.total, message: p.message });
  if (direct && client.getProtocolEra() === 'legacy') return direct.request('tools/call', params, { signal: clock.signal, onprogress: progress });
  const options = {
    // The SDK reports each MRTR round as progress of its own: not the server's, so it restarts no clock.
    onprogress: (p: Progress) => void (isRoundProgress(p) || progress(p)),
    timeout: clock.sdkTimeoutMs,
    signal: clock.signal,
  };
  if (tool && client.getProtocolEra() === 'modern' && mirrored(tool)) {
    return client.callTool(params, { ...options, toolDefinition: { ...tool, outputSchema: undefined } }) as Promise<Record<string, unknown>>;
  }
  return client.request({ method: 'tools/call', params }, AnyObjectSchema, options);
}

/** Whether a tool's calls carry `Mcp-Param-*` headers (checked once per listed definition). */
const mirroredTools = new WeakMap<Tool, boolean>();
function mirrored(tool: Tool): boolean {
  let known = mirroredTools.get(tool);
  if (known === undefined) {
    const found = headerAnnotations(tool.inputSchema);
    mirroredTools.set(tool, (known = found.count > 0 && !found.problem));
  }
  return known;
}

/**
 * The progress SDK v2 reports itself once per MRTR round ("Fulfilling input required by
 * 'tools/call' (round 2)"); its wording is checked by the SDK contract test.
 */
export function isRoundProgress(p: Progress): boolean {
  return p.total === undefined && typeof p.message === 'string' && /^Fulfilling input required by '[^']*' \(round \d+\)$/.test(p.message);
}

export function classifyCallError(e: unknown, timeoutMs: number, ctx: CallContext): unknown {
  if (e instanceof SdkError) {
    // Our clock's timeout carries {timeout} (or {maxTotalTimeout}); a Stop's reason does not.
    const data = e.data as { timeout?: unknown; maxTotalTimeout?: unknown } | undefined;
    if (e.code === SdkErrorCode.RequestTimeout && data && (typeof data.timeout === 'number' || typeof data.maxTotalTimeout === 'number')) {
      if (typeof data.maxTotalTimeout === 'number') return new CallTimeoutError(timeoutMs, data.maxTotalTimeout);
      return new CallTimeoutError(data.timeout as number);
    }
    if (e.code === SdkErrorCode.ConnectionClosed && ctx.closed()) return new ConnectionLostError();
  }
  if (e instanceof ProtocolError && hostErrorText(e) !== undefined) return new Error(hostErrorText(e));
  // A server's JSON-RPC error, or too many MRTR rounds (whose data, the server's requestState, is left behind).
  const text = serverErrorText(e, ctx.server);
  if (text !== undefined) return new Error(text, e instanceof ProtocolError ? { cause: e } : undefined);
  if (e instanceof ServerUnreachableError) return e;
  const status = httpStatusText(e, ctx.url);
  return status !== undefined ? new Error(status, { cause: e }) : e;
}

