import type { Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/client';
import { boundedBody } from './boundedBody';
import { hostErrorResponse, messageTooLargeText } from './hostErrorResponse';
import { causeText, displayUrl, unreachableError } from './transportErrorText';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** How long a response stream that ended after a priming event may take to be resumed (the SDK reconnects by GET). */
const RESUME_GRACE_MS = 8000;

interface Pending {
  /** The server sent an event id on this request's stream: it may be resumed. */
  token?: string;
  /** Response streams of this request now open. */
  open: number;
  timer?: NodeJS.Timeout;
}

export interface GuardOptions {
  readonly url: string;
  readonly name: string;
  readonly maxMessageBytes: number;
  readonly fetch?: Fetch;
}

/**
 * Streamable HTTP as the SDK does it, with what it leaves out: a request whose SSE response stream
 * ends or breaks without an answer (and is not resumed) fails at once instead of waiting for its
 * timeout; a message over `maxMessageBytes` fails its request; a server that cannot be reached is
 * named with its URL and the cause. Pass `fetch` to the SDK transport and wrap it with `wrap`.
 */
export class HttpGuard {
  private readonly pending = new Map<RequestId, Pending>();
  private outer?: Transport;

  constructor(private readonly o: GuardOptions) {}

  readonly fetch: Fetch = (url, init) => this.guardedFetch(url, init);

  /** The SDK transport, with request tracking around send and receive. */
  wrap(inner: Transport): Transport {
    const pending = this.pending;
    const outer: Transport & { setProtocolVersion(v: string): void; readonly protocolVersion?: string } = {
      start: () => inner.start(),
      close: async () => {
        for (const p of pending.values()) clearTimeout(p.timer);
        pending.clear();
        await inner.close();
      },
      send: async (message: JSONRPCMessage, options?: TransportSendOptions) => {
        const id = requestId(message);
        if (id === undefined) {
          // A request given up (timeout, Stop) gets no answer: stop waiting for one.
          if ('method' in message && message.method === 'notifications/cancelled') this.forget((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
          return inner.send(message, options);
        }
        const entry: Pending = { open: 0 };
        pending.set(id, entry);
        const onresumptiontoken = (token: string) => {
          entry.token = token;
          options?.onresumptiontoken?.(token);
        };
        try {
          await inner.send(message, { ...options, onresumptiontoken });
        } catch (e) {
          this.forget(id);
          throw e;
        }
      },
      setProtocolVersion: (v: string) => inner.setProtocolVersion?.(v),
      setSupportedProtocolVersions: (versions: string[]) => inner.setSupportedProtocolVersions?.(versions),
      // 2026-07-28 over HTTP: closing a call's own response stream is how the SDK cancels it.
      get hasPerRequestStream() {
        return inner.hasPerRequestStream;
      },
      get sessionId() {
        return inner.sessionId;
      },
      get protocolVersion() {
        return (inner as { protocolVersion?: string }).protocolVersion;
      },
    };
    inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      const id = responseIdOf(message);
      if (id !== undefined) this.forget(id);
      outer.onmessage?.(message, extra);
    };
    inner.onerror = (e) => outer.onerror?.(e);
    inner.onclose = () => outer.onclose?.();
    this.outer = outer;
    return outer;
  }

  private forget(id: RequestId): void {
    const p = this.pending.get(id);
    if (p) clearTimeout(p.timer);
    this.pending.delete(id);
  }

  /** Fail a request still waiting, with the host's error response. */
  private fail(id: RequestId, reason: 'streamEnded' | 'messageTooLarge', text: string): void {
    if (!this.pending.has(id)) return;
    this.forget(id);
    this.outer?.onmessage?.(hostErrorResponse(id, reason, text));
  }

  private async guardedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const doFetch = this.o.fetch ?? fetch;
    const method = (init?.method ?? 'GET').toUpperCase();
    const ids = method === 'POST' ? idsInBody(init?.body) : this.resumedIds(init?.headers);
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (e) {
      if (init?.signal?.aborted) throw e;
      throw unreachableError(this.o.url, e);
    }
    if (method === 'GET' && ids.length && !response.ok) {
      // The SDK takes a 405 to a resumption as "no stream" and would wait for good.
      for (const id of ids) this.fail(id, 'streamEnded', `the response stream from ${displayUrl(this.o.url)} broke and could not be resumed (HTTP ${response.status})`);
      return response;
    }
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    const eventStream = type.includes('text/event-stream');
    if (!response.ok || !response.body || (!eventStream && !type.includes('application/json'))) return response;
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (!eventStream && length > this.o.maxMessageBytes) {
      await response.body.cancel().catch(() => undefined);
      // The SDK's send fails with this, and so does the request.
      throw new Error(messageTooLargeText(this.o.name, length, this.o.maxMessageBytes));
    }
    for (const id of ids) {
      const p = this.pending.get(id);
      if (p) {
        p.open++;
        clearTimeout(p.timer);
      }
    }
    const body = boundedBody(response.body, {
      maxMessageBytes: this.o.maxMessageBytes,
      eventStream,
      tooLarge: () => new Error(messageTooLargeText(this.o.name, this.o.maxMessageBytes, this.o.maxMessageBytes, true)),
      broke: (cause) => new Error(`the response from ${displayUrl(this.o.url)} broke before the answer: ${causeText(cause)}`, { cause }),
      onEnd: (error) => this.streamEnded(ids, eventStream, error),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /**
   * A response stream of `ids` ended. JSON bodies need nothing (the SDK fails the request when the
   * body breaks). For an event stream the SDK does nothing when it ends without the answer: the
   * request fails now (after the SDK has read what was buffered), unless it can be resumed.
   */
  private streamEnded(ids: readonly RequestId[], eventStream: boolean, error?: Error): void {
    if (!eventStream) {
      for (const id of ids) this.forget(id);
      return;
    }
    setTimeout(() => {
      for (const id of ids) {
        const p = this.pending.get(id);
        if (!p) continue;
        p.open = Math.max(0, p.open - 1);
        if (p.open > 0) continue;
        const tooLarge = error?.message.includes('mcpHost.maxMessageBytes');
        if (tooLarge) this.fail(id, 'messageTooLarge', error!.message);
        else if (p.token === undefined) this.fail(id, 'streamEnded', endedText(this.o.url, error));
        else {
          clearTimeout(p.timer);
          p.timer = setTimeout(() => this.fail(id, 'streamEnded', `${endedText(this.o.url, error)}, and it was not resumed`), RESUME_GRACE_MS);
        }
      }
    }, 20);
  }

  /** The pending requests a GET resumes (its Last-Event-ID is one of their event ids). */
  private resumedIds(headers: RequestInit['headers']): RequestId[] {
    const last = new Headers(headers).get('last-event-id');
    if (!last) return [];
    return [...this.pending].filter(([, p]) => p.token === last).map(([id]) => id);
  }
}

function endedText(url: string, error?: Error): string {
  return error
    ? `the response stream from ${displayUrl(url)} broke before the answer: ${causeText(error)}`
    : `the server ended the response stream (${displayUrl(url)}) without answering`;
}

function requestId(message: JSONRPCMessage): RequestId | undefined {
  return 'method' in message && 'id' in message ? (message.id as RequestId) : undefined;
}

function responseIdOf(message: JSONRPCMessage): RequestId | undefined {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message) ? (message.id as RequestId) : undefined;
}

/** Request ids in a POST body (the SDK sends `JSON.stringify(message)`). */
function idsInBody(body: RequestInit['body']): RequestId[] {
  if (typeof body !== 'string') return [];
  const tail = /"id":(\d+|"(?:[^"\\]|\\.)*")\}$/.exec(body.length > 200 ? body.slice(-200) : body);
  if (tail && body.startsWith('{"method"')) return [JSON.parse(tail[1]) as RequestId];
  try {
    const parsed = JSON.parse(body) as unknown;
    const all = Array.isArray(parsed) ? parsed : [parsed];
    return all.filter((m) => m && typeof m === 'object' && 'method' in m && 'id' in m).map((m) => (m as { id: RequestId }).id);
  } catch {
    return [];
  }
}

/** A fetch whose network failures name the server's URL and the cause ("cannot reach <url>: …"), for the SSE transport. */
export function namingFetch(url: string, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (e) {
      if (init?.signal?.aborted) throw e;
      throw unreachableError(url, e);
    }
  };
}
