import type { Client, ServerCapabilities, Task, Tool } from '@modelcontextprotocol/client';
import { AnyObjectSchema } from '../anyObjectSchema';
import type { CallProgress } from '../callProgress';

/** How long the host waits for the answer to `tasks/cancel` before it gives up on it. */
const CANCEL_TIMEOUT_MS = 5000;
/** Between two `tasks/get` when the server names no poll interval. */
const DEFAULT_POLL_MS = 1000;
/** Never poll faster than this, whatever the server asks… */
const MIN_POLL_MS = 50;
/** …nor wait longer between two polls (the call's clock still ends the task). */
const MAX_POLL_MS = 60_000;

/** The statuses after which a task changes no more (both eras). */
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Whether a call of `tool` runs as a task (protocol 2025-11-25): the tool requires it
 * (`execution.taskSupport: "required"`) and the server can run `tools/call` as a task. The spec
 * forbids task augmentation on a server without that capability, whatever the tool says;
 * `optional` tools are called directly (they report progress like any call).
 */
export function runsAsTask(tool: Tool | undefined, capabilities: ServerCapabilities | undefined): boolean {
  return tool?.execution?.taskSupport === 'required' && !!capabilities?.tasks?.requests?.tools?.call;
}

export interface TaskCallOptions {
  /** The call's clock (ServerCalls or CallDeadline): aborted on timeout or Stop. */
  readonly signal: AbortSignal;
  /** The SDK's own per-request timeout (the clock's: never first). */
  readonly requestTimeoutMs: number;
  /** Progress and each status change; the clock's listener restarts it (resetTimeoutOnProgress). */
  readonly onProgress: (p: CallProgress) => void;
  /** The `_meta` of the `tools/call` that creates the task (W3C `traceparent` while telemetry is on). */
  readonly meta?: Record<string, unknown>;
}

/**
 * `tools/call` as a task over the SDK's public request API (SDK v2 has no task client): create
 * with `task: {}`, poll `tasks/get` at the server's `pollInterval`, then `tasks/result` once the
 * task is completed or asks for input (the server sends its questions while that request is open,
 * and it answers when the task ends). Each status change is reported as progress. When the
 * clock's signal aborts (Stop or timeout) a task that is not finished gets `tasks/cancel` before
 * the call rejects with the signal's reason; a failed task's result (an isError result) says why.
 */
export async function callToolAsTask(client: Client, name: string, args: Record<string, unknown>, o: TaskCallOptions): Promise<Record<string, unknown>> {
  const request = { timeout: o.requestTimeoutMs, signal: o.signal };
  let task: Task | undefined;
  const report = statusReporter(o.onProgress);
  const seen = (t: Task) => {
    task = t;
    report(t);
  };
  try {
    const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task: {}, ...(o.meta ? { _meta: o.meta } : {}) } }, AnyObjectSchema, {
      ...request,
      onprogress: (p) => o.onProgress({ progress: p.progress, total: p.total, message: p.message }),
    });
    seen(readTask(created.task, 'tools/call'));
    while (!TERMINAL.has(task!.status) && task!.status !== 'input_required') {
      await sleep(pollDelay(task!.pollInterval), o.signal);
      seen(readTask(await client.request({ method: 'tasks/get', params: { taskId: task!.taskId } }, AnyObjectSchema, request), 'tasks/get'));
    }
    if (task!.status === 'cancelled') throw cancelledByServer(task!);
    return await client.request({ method: 'tasks/result', params: { taskId: task!.taskId } }, AnyObjectSchema, request);
  } catch (e) {
    if (task && o.signal.aborted && !TERMINAL.has(task.status)) await cancelTask(client, task.taskId);
    if (o.signal.aborted) throw o.signal.reason;
    // A failed task whose result cannot be read: its status says why.
    if (task?.status === 'failed') throw new Error(`task ${task.taskId} failed${statusText(task)}`, { cause: e });
    throw e;
  }
}

/** The task a `tools/call` (`{task}`) or `tasks/get` (the task itself) answered, checked. */
function readTask(value: unknown, method: string): Task {
  const t = value as Partial<Task> | undefined;
  if (typeof t !== 'object' || t === null || typeof t.taskId !== 'string' || typeof t.status !== 'string') {
    throw new Error(`the answer to ${method} names no task (taskId and status)`);
  }
  if (t.pollInterval !== undefined && typeof t.pollInterval !== 'number') throw new Error(`the task's pollInterval in ${method} is not a number`);
  return t as Task;
}

export function statusText(t: { readonly statusMessage?: string }): string {
  return t.statusMessage ? `: ${t.statusMessage}` : '';
}

/** A task the server ended as "cancelled" although the host did not ask it to. */
export function cancelledByServer(t: { readonly taskId: string; readonly statusMessage?: string }): Error {
  return new Error(`task ${t.taskId} was cancelled by the server${statusText(t)}`);
}

/**
 * A listener of a task's status as the call's progress: only a change of status or message is
 * reported (each one restarts the call's clock, see resetTimeoutOnProgress), not every poll.
 */
export function statusReporter(onProgress: (p: CallProgress) => void): (t: { readonly status: string; readonly statusMessage?: string }) => void {
  let last: { status: string; statusMessage?: string } | undefined;
  return (t) => {
    if (t.status !== last?.status || t.statusMessage !== last?.statusMessage) {
      onProgress({ taskStatus: t.status, ...(t.statusMessage ? { message: t.statusMessage } : {}) });
    }
    last = { status: t.status, statusMessage: t.statusMessage };
  };
}

/** The wait before the next `tasks/get`: the server's interval, within the host's bounds. */
export function pollDelay(serverMs: number | undefined): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, serverMs ?? DEFAULT_POLL_MS));
}

/**
 * Cooperative cancellation of a task the call gave up on (Stop, timeout): `tasks/cancel`, sent
 * outside the call's aborted signal and awaited at most CANCEL_TIMEOUT_MS; its failure changes
 * nothing about how the call ends.
 */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: { taskId } }, AnyObjectSchema, { timeout: CANCEL_TIMEOUT_MS }).catch(() => undefined);
}

/** Wait `ms`, or reject with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
