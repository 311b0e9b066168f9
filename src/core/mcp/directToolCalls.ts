import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ProgressListener } from './callProgress';

/**
 * Request ids of the calls sent here are strings (`h1`, `h2`, …) and so never one of the SDK's,
 * which are integers counted from 0 on the same connection; the progress token is the same string.
 * A JSON-RPC id may be a string or an integer and servers echo it as sent. Strings are also what a
 * server's schema checks first (the SDK's `union([string, int])`): measured cheaper per request
 * for an SDK server than integer ids and tokens.
 */
const ID_PREFIX = 'h';

interface PendingCall {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
  readonly onProgress?: ProgressListener;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

export interface DirectCallOptions {
  /** The call's own signal (its clock's: ServerCalls), aborted on timeout or the caller's Stop. */
  readonly signal: AbortSignal;
  readonly onProgress?: ProgressListener;
}

/**
 * `tools/call` sent straight on a connected client's transport, the answer routed back here before
 * the SDK's Protocol sees it. It does what `Protocol.request` does for a plain call the host clocks
 * itself (a `progressToken`, progress to the caller, `notifications/cancelled` and a rejection when
 * the signal aborts, an error response as McpError, every call rejected with ConnectionClosed when
 * the connection closes) without what the host does not use there: the SDK's per-request timer
 * (the host's clock is the timeout), its zod checks of a message the reader already checked, and the
 * closures and map entries of its other options. Measured: about half the client CPU per call
 * with 64 calls in flight, and a young generation that no longer fills with survivors (issue 10).
 * Everything else on the connection (initialize, lists, tasks, server requests) stays with the SDK.
 */
export class DirectToolCalls {
  private readonly pending = new Map<string, PendingCall>();
  private sent = 0;
  private closed = false;

  private constructor(private readonly transport: Transport) {
    // Installed after Client.connect, so these wrap the SDK's own handlers: ours first for messages, last for close.
    const sdkMessage = transport.onmessage;
    const sdkClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (this.pending.size === 0 || !this.take(message)) sdkMessage?.(message, extra);
    };
    transport.onclose = () => {
      // The SDK first: the connection is marked closed before its calls are rejected (ConnectionLostError).
      sdkClose?.();
      this.closeAll();
    };
  }

  /** On a connected client (undefined when it has no transport). */
  static attach(client: Client): DirectToolCalls | undefined {
    const transport = client.transport;
    return transport ? new DirectToolCalls(transport) : undefined;
  }

  /** `tools/call` of `name`; resolves with the result object as sent, rejects as Protocol.request would. */
  call(name: string, args: Record<string, unknown>, o: DirectCallOptions): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const signal = o.signal;
      if (signal.aborted) return reject(signal.reason);
      if (this.closed) return reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
      const id = ID_PREFIX + ++this.sent;
      const onAbort = () => this.cancel(id, signal.reason);
      this.pending.set(id, { resolve, reject, onProgress: o.onProgress, signal, onAbort });
      signal.addEventListener('abort', onAbort, { once: true });
      const request: JSONRPCMessage = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: id } } };
      this.transport.send(request).catch((e: unknown) => this.settle(id)?.reject(e));
    });
  }

  /** Our response or progress: handled here (true); anything else is the SDK's. */
  private take(message: JSONRPCMessage): boolean {
    const m = message as { id?: unknown; method?: unknown; params?: { progressToken?: unknown } };
    if (m.method === undefined) {
      if (typeof m.id !== 'string') return false;
      const call = this.settle(m.id);
      if (!call) return false;
      const r = message as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
      if (r.error) call.reject(new McpError(r.error.code, r.error.message, r.error.data));
      else if (isObject(r.result)) call.resolve(r.result);
      else call.reject(new Error(`the result of tools/call is not a JSON object (${describe(r.result)})`));
      return true;
    }
    if (m.method !== 'notifications/progress' || typeof m.params?.progressToken !== 'string') return false;
    const call = this.pending.get(m.params.progressToken);
    if (!call) return false;
    const p = m.params as { progress?: unknown; total?: unknown; message?: unknown };
    // A malformed report is dropped (the SDK's schema drops it too); it does not extend the call.
    if (typeof p.progress !== 'number' || (p.total !== undefined && typeof p.total !== 'number') || (p.message !== undefined && typeof p.message !== 'string')) return true;
    call.onProgress?.({ progress: p.progress, total: p.total as number | undefined, message: p.message as string | undefined });
    return true;
  }

  /** Remove a call from those waiting (and its abort listener); undefined when it was not waiting. */
  private settle(id: string): PendingCall | undefined {
    const call = this.pending.get(id);
    if (!call) return undefined;
    this.pending.delete(id);
    call.signal.removeEventListener('abort', call.onAbort);
    return call;
  }

  /** The call's signal aborted: the server is told, the call rejects (as the SDK's cancel). */
  private cancel(id: string, reason: unknown): void {
    const call = this.settle(id);
    if (!call) return;
    this.transport
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } })
      .catch(() => undefined); // the connection is going away: nothing left to cancel
    call.reject(reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)));
  }

  private closeAll(): void {
    this.closed = true;
    const error = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'no result';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}
