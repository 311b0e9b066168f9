import type { BaseContext, Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../clientFeature';

/**
 * The SDK seam of the `io.modelcontextprotocol/tasks` extension (protocol 2026-07-28, SEP-2663),
 * which SDK 2.4.0 does not implement: the one place the host works around its public API, pinned
 * by test/unit/core/mcp/tasksExtension.contract.test.ts (which fails when an SDK upgrade changes
 * either seam, or starts to accept tasks itself).
 *
 * 1. The SDK rejects a `tools/call` answered with `resultType: "task"` (UnsupportedResultType) and
 *    drops the answer. `acceptTaskResults` wraps the server's transport: such an answer to a
 *    `tools/call` that declared the extension reaches the SDK as a complete result holding the
 *    task under a key no server can send (a Symbol), which `createdTask` reads back. A result
 *    without `resultType` (which the spec reads as complete, and the SDK rejects) gets
 *    `"complete"`. Every other message passes unchanged, so a legacy connection's traffic is
 *    byte-identical.
 * 2. A task's `inputRequests` are answered by the same handlers the host registered for
 *    elicitation, sampling and roots (src/core/requests: trust, role, settings, the person, audit),
 *    reached as the SDK's own multi-round-trip engine reaches them: through its protected
 *    accessor of the stored handler chain, which also validates the request and the answer.
 */

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Declares the extension (an empty object: no settings are defined); nothing to install. */
export const TASKS_EXTENSION_FEATURE: ClientFeature = {
  capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
  install: () => undefined,
};

const CREATED_TASK = Symbol('mcp-host created task');
/** More `tools/call` requests than this in flight on one connection is no real workload. */
const MAX_PENDING = 1024;
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** The CreateTaskResult a `tools/call` was answered with (as the server sent it), if it was one. */
export function createdTask(result: Record<string, unknown>): Record<string, unknown> | undefined {
  return (result as { [CREATED_TASK]?: Record<string, unknown> })[CREATED_TASK];
}

/** Whether an outgoing request is a `tools/call` that declared the tasks extension in its `_meta`. */
function declaresTasks(message: Record<string, unknown>): boolean {
  if (message.method !== 'tools/call') return false;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const caps = meta?.[CLIENT_CAPABILITIES_META] as { extensions?: Record<string, unknown> } | undefined;
  return caps?.extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

/**
 * `transport` as the SDK should see it (see above). A Proxy, so whatever else the SDK reads or
 * sets on the transport (its era probes, per-request streams, session id) reaches it unchanged.
 */
export function acceptTaskResults(transport: Transport): Transport {
  /** Ids of the `tools/call` requests in flight that may be answered with a task. */
  const mayCreate = new Set<string | number>();
  let inbound: Transport['onmessage'];
  const rewrite = (message: JSONRPCMessage): JSONRPCMessage => {
    const m = message as { id?: string | number; result?: Record<string, unknown> };
    if (m.id === undefined || !('result' in m || 'error' in m) || !mayCreate.delete(m.id)) return message;
    const result = m.result;
    if (!result) return message;
    // The spec reads a result without `resultType` as complete; SDK 2.4.0 rejects it outright
    // (conformance sep-2322: a server that leaves it out).
    if (result.resultType === undefined) return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage;
    if (result.resultType !== 'task') return message;
    return { ...message, result: { resultType: 'complete', content: [], [CREATED_TASK]: result } } as JSONRPCMessage;
  };
  const send = (message: JSONRPCMessage, options?: unknown) => {
    const m = message as Record<string, unknown>;
    if (m.id !== undefined && declaresTasks(m)) {
      mayCreate.add(m.id as string | number);
      // A call given up on may never be answered (modern HTTP closes its stream): forget the oldest.
      if (mayCreate.size > MAX_PENDING) mayCreate.delete(mayCreate.values().next().value!);
    }
    return (transport.send as (m: JSONRPCMessage, o?: unknown) => Promise<void>).call(transport, message, options);
  };
  // The transport's methods, bound to it once each (the SDK reads some on every request).
  const bound = new Map<PropertyKey, { readonly fn: unknown; readonly bound: unknown }>();
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'send') return send;
      if (key === 'onmessage') return inbound;
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      // Methods run on the transport itself (its private fields are not the Proxy's).
      const known = bound.get(key);
      if (known?.fn === value) return known.bound;
      const b = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(key, { fn: value, bound: b });
      return b;
    },
    set(target, key, value) {
      if (key !== 'onmessage') return Reflect.set(target, key, value, target);
      inbound = value as Transport['onmessage'];
      target.onmessage = inbound ? (message, extra) => inbound?.(rewrite(message), extra) : undefined;
      return true;
    },
  });
}

/** The embedded requests a task may carry (as in a multi-round-trip result). */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

type StoredHandler = (request: { jsonrpc: '2.0'; id: string; method: string; params?: Record<string, unknown> }, ctx: unknown) => Promise<Record<string, unknown>>;

/** The SDK's protected members this seam uses (the ones its own multi-round-trip engine uses). */
interface HandlerChain {
  _getRequestHandler(method: string): StoredHandler | undefined;
  buildContext(ctx: BaseContext, transportInfo?: unknown): unknown;
}

function unavailable(): never {
  throw new Error('a request embedded in a task cannot send messages of its own');
}

/**
 * Answers one embedded request of a task (`key` is its key in `inputRequests`) through the
 * handler `client` has for its method, with `signal` as the request's withdrawal. Rejects for a
 * method that is not an input request, or one the host registered no handler for (it declared no
 * such capability to this server): nothing is answered that the host's policy did not decide.
 */
export function answerInputRequest(client: Client, key: string, method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
  if (!(INPUT_REQUEST_METHODS as readonly string[]).includes(method)) {
    return Promise.reject(new Error(`the task asks "${key}" with ${JSON.stringify(method)}, which is not a request a task may embed (${INPUT_REQUEST_METHODS.join(', ')})`));
  }
  const chain = client as unknown as HandlerChain;
  const handler = chain._getRequestHandler(method);
  if (!handler) return Promise.reject(new Error(`the task asks "${key}" with ${method}, which the host does not answer for this server`));
  const ctx: BaseContext = {
    ...(client.transport?.sessionId !== undefined ? { sessionId: client.transport.sessionId } : {}),
    mcpReq: { id: key, method, _meta: params?._meta as BaseContext['mcpReq']['_meta'], requestState: () => undefined, signal, send: unavailable, notify: unavailable },
  };
  return handler({ jsonrpc: '2.0', id: key, method, ...(params !== undefined ? { params } : {}) }, chain.buildContext(ctx, undefined));
}
