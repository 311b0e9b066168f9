import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isTerminal } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { CallToolResultSchema, type CallToolResult, type ServerCapabilities, type Task, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallDeadline } from './callDeadline';
import type { CallProgress, ProgressListener } from './callProgress';

/** How long the host waits for the answer to `tasks/cancel` before it gives up on it. */
const CANCEL_TIMEOUT_MS = 5000;

/**
 * Whether a call of `tool` runs as a task: the tool requires it (`execution.taskSupport:
 * "required"`) and the server can run `tools/call` as a task. The spec forbids task augmentation
 * on a server without that capability, whatever the tool says; `optional` tools are called
 * directly (they report progress like any call).
 */
export function runsAsTask(tool: Tool | undefined, capabilities: ServerCapabilities | undefined): boolean {
  return tool?.execution?.taskSupport === 'required' && !!capabilities?.tasks?.requests?.tools?.call;
}

export interface TaskCallOptions {
  readonly timeoutMs: number;
  readonly resetTimeoutOnProgress: boolean;
  readonly maxTotalTimeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: ProgressListener;
}

/**
 * `tools/call` as a task through the SDK's task support (`callToolStream`: create, poll
 * `tasks/get`, fetch `tasks/result`). Each status change is reported as progress and, with
 * `resetTimeoutOnProgress`, restarts the timeout (up to `maxTotalTimeoutMs`); without it the whole
 * task must finish within `timeoutMs`. A Stop or a timeout sends `tasks/cancel` for the task
 * before the call settles. Rejects like a direct call: the deadline's McpError on a timeout, the
 * caller's reason on Stop.
 */
export async function callToolAsTask(client: Client, name: string, args: Record<string, unknown>, o: TaskCallOptions): Promise<CallToolResult> {
  const deadline = new CallDeadline({ ...o, idleTimeout: true });
  const report = (p: CallProgress) => {
    deadline.progressed();
    o.onProgress?.(p);
  };
  let taskId: string | undefined;
  let last: Pick<Task, 'status' | 'statusMessage'> | undefined;
  const seen = (task: Task) => {
    taskId = task.taskId;
    if (task.status !== last?.status || task.statusMessage !== last?.statusMessage) {
      report({ taskStatus: task.status, ...(task.statusMessage ? { message: task.statusMessage } : {}) });
    }
    last = task;
  };
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task: {},
    signal: deadline.signal,
    // Each request of the stream (create, every poll, the result) is bounded by the deadline above.
    timeout: o.resetTimeoutOnProgress ? o.maxTotalTimeoutMs : o.timeoutMs,
    onprogress: (p) => report({ progress: p.progress, total: p.total, message: p.message }),
  });
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(deadline.signal.reason);
    if (deadline.signal.aborted) fail();
    else deadline.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([stream.next(), aborted]);
      if (next.done) throw new Error(`task ${taskId ?? '(not created)'} ended without a result`);
      const m = next.value;
      if (m.type === 'taskCreated' || m.type === 'taskStatus') seen(m.task);
      else if (m.type === 'result') return m.result as CallToolResult;
      else {
        if (deadline.signal.aborted) throw deadline.signal.reason;
        if (last?.status === 'failed' && taskId !== undefined) {
          // The SDK's stream only says "failed": the task's result (an isError result) says why.
          const result = await failedTaskResult(client, taskId, o.timeoutMs);
          if (result) return result;
        }
        if (last?.status === 'failed' || last?.status === 'cancelled') {
          const how = last.status === 'failed' ? 'failed' : 'was cancelled by the server';
          throw new Error(`task ${taskId} ${how}${last.statusMessage ? `: ${last.statusMessage}` : ''}`);
        }
        throw m.error;
      }
    }
  } finally {
    deadline.dispose();
    stream.return(undefined).catch(() => undefined);
    if (taskId !== undefined && !(last && isTerminal(last.status))) {
      await client.experimental.tasks.cancelTask(taskId, { timeout: CANCEL_TIMEOUT_MS }).catch(() => undefined);
    }
  }
}

async function failedTaskResult(client: Client, taskId: string, timeoutMs: number): Promise<CallToolResult | undefined> {
  try {
    return (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: Math.min(timeoutMs, CANCEL_TIMEOUT_MS) })) as CallToolResult;
  } catch {
    return undefined;
  }
}
