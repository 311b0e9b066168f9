import { ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/client';

export interface DirectRequestOptions {
  /** The call's signal (its clock and the caller's Stop): on abort the server is told to cancel and the request rejects with the reason. */
  readonly signal: AbortSignal;
  /** With it, the request carries a `progressToken` and the server's progress for it arrives here. */
  readonly onprogress?: (progress: Progress) => void;
}

interface Pending {
  readonly settle: (error: unknown, result?: Record<string, unknown>) => void;
  readonly onprogress?: (progress: Progress) => void;
}

/**
 * Ids no request of the SDK's has: it numbers its own from 0, and its `subscriptions/listen` ids
 * are never sent on a 2025-era connection, the only one these requests are sent on.
 */
const ID_PREFIX = 'mcp-host-';

/**
 * Requests the host sends on its own stdio transport past the SDK's Protocol: `tools/call` on a
 * 2025-era connection, the host's hot path (toolCall.ts chooses it). SDK v2 checks every incoming
 * message with zod twice, spreads every request twice, arms a timer per request and validates the
 * result asynchronously: together ~30 µs of CPU per call, which the host's own clock (ServerCalls),
 * its own message check (checkMessage) and its own lenient result reading make redundant here
 * (bench/directCalls.ts has the row; test/unit/core/mcp/directRequests.test.ts holds this path to
 * the SDK's request path, outcome for outcome).
 *
 * What the SDK's `request()` does for such a call, this does the same way, in public types only:
 * the request (its `progressToken` is its id), progress for that token, `notifications/cancelled`
 * and a rejection with the signal's reason (an SdkError as is, anything else as a RequestTimeout
 * SdkError) on abort, a JSON-RPC error as `ProtocolError.fromError`, a 2025-era result with any
 * `resultType` left out, and SdkError ConnectionClosed for every request in flight when the
 * transport closes. The transport hands each incoming message to `take` first: a response or
 * progress for one of these requests ends here and never reaches the SDK, which did not send it.
 * Everything else (the server's requests and notifications, responses to the SDK's own
 * requests) goes on to the SDK unchanged.
 */
export class DirectRequests {
  private next = 0;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(private readonly send: (message: JSONRPCMessage) => Promise<void>) {}

  request(method: string, params: Record<string, unknown>, o: DirectRequestOptions): Promise<Record<string, unknown>> {
    const { signal, onprogress } = o;
    if (signal.aborted) return Promise.reject(asSdkError(signal.reason));
    if (this.closed) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const id = ID_PREFIX + this.next++;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(signal.reason) } }).catch(() => undefined);
        reject(asSdkError(signal.reason));
      };
      this.pending.set(id, {
        settle: (error, result) => {
          signal.removeEventListener('abort', onAbort);
          if (error === undefined) resolve(result!);
          else reject(error);
        },
        onprogress,
      });
      signal.addEventListener('abort', onAbort, { once: true });
      const sent = onprogress ? { ...params, _meta: { ...(params._meta as Record<string, unknown> | undefined), progressToken: id } } : params;
      this.send({ jsonrpc: '2.0', id, method, params: sent }).catch((e: unknown) => {
        if (this.pending.delete(id)) {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        }
      });
    });
  }

  /** An incoming message: true when it was a response to, or progress of, one of these requests (it goes no further). */
  take(message: JSONRPCMessage): boolean {
    if (this.pending.size === 0) return false;
    const m = message as { id?: unknown; method?: unknown; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
    if (m.method !== undefined) {
      if (m.method !== 'notifications/progress' || m.id !== undefined) return false;
      const token = m.params?.progressToken;
      const p = typeof token === 'string' ? this.pending.get(token) : undefined;
      if (!p) return false;
      const { progress, total, message: text } = m.params!;
      // As the SDK's schema: a progress number, an optional total and message; anything else is dropped.
      if (typeof progress === 'number' && (total === undefined || typeof total === 'number') && (text === undefined || typeof text === 'string')) {
        p.onprogress?.(m.params as Progress);
      }
      return true;
    }
    const id = m.id;
    if (typeof id !== 'string') return false;
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    if (m.error !== undefined) p.settle(ProtocolError.fromError(m.error.code, m.error.message, m.error.data));
    else p.settle(undefined, withoutResultType(m.result!));
    return true;
  }

  /** The transport closed: every request in flight fails as the SDK's do, and no more are sent. */
  close(): void {
    this.closed = true;
    if (this.pending.size === 0) return;
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.settle(error);
  }
}

/** The rejection of an aborted request, as the SDK makes it. */
function asSdkError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/** A 2025-era result, as the SDK's codec reads it: `resultType` is not of that era. */
function withoutResultType(result: Record<string, unknown>): Record<string, unknown> {
  if (!('resultType' in result)) return result;
  const { resultType: _dropped, ...rest } = result;
  return rest;
}
