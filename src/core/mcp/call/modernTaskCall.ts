import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { errorText } from '../../util/errorText';
import { AnyObjectSchema } from '../anyObjectSchema';
import { answerInputRequest, createdTask } from './tasksExtension';
import { cancelledByServer, cancelTask, pollDelay, sleep, statusReporter, statusText, TERMINAL, type TaskCallOptions } from './taskCall';

/** Rounds of questions one task may put to the host (as the SDK bounds a multi-round-trip request). */
export const MAX_TASK_INPUT_ROUNDS = 10;

const JsonObject = z.record(z.string(), z.unknown());

/** A task as `tools/call` (CreateTaskResult) and `tasks/get` (DetailedTask) carry it (SEP-2663). */
const DetailedTask = z.object({
  taskId: z.string().min(1),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().int().nonnegative().optional(),
  inputRequests: z.record(z.string(), z.object({ method: z.string(), params: JsonObject.optional() })).optional(),
  result: JsonObject.optional(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
});
type DetailedTask = z.infer<typeof DetailedTask>;

/** The task in an answer, checked: a server's malformed answer is a clear error naming what is wrong and where. */
function readTask(value: unknown, method: string): DetailedTask {
  const parsed = DetailedTask.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(the answer)'}: ${i.message}`).join('; ');
  throw new Error(`the server's answer to ${method} is not a valid task (${issues})`);
}

/**
 * A `tools/call` of a 2026-07-28 server that answered with a task (`resultType: "task"`, read
 * through tasksExtension.ts), followed to its end: `tasks/get` at the server's `pollIntervalMs`
 * (within the host's bounds), each status change reported as progress (restarting the call's
 * clock); while `input_required`, each embedded request not yet answered goes through the host's
 * handlers (trust, role, settings, the person, audit, the clock paused meanwhile) and the answers
 * go back in one `tasks/update`, at most MAX_TASK_INPUT_ROUNDS times. A completed task's `result`
 * is the call's result, read like any other; a failed task's `error` is the server's JSON-RPC
 * error. When the clock's signal aborts (Stop, timeout), or a question cannot be answered, the
 * task gets `tasks/cancel`; the call then rejects with the signal's reason or that error.
 * Returns `result` itself when it was no task.
 */
export async function followTask(client: Client, result: Record<string, unknown>, o: TaskCallOptions): Promise<Record<string, unknown>> {
  const created = createdTask(result);
  if (!created) return result;
  // A CreateTaskResult's result/error/inputRequests are not to be used (SEP-2663): only tasks/get's.
  let task = readTask({ ...created, result: undefined, error: undefined, inputRequests: undefined }, 'tools/call');
  const request = { timeout: o.requestTimeoutMs, signal: o.signal };
  const report = statusReporter(o.onProgress);
  const answered = new Set<string>();
  let rounds = 0;
  report(task);
  try {
    for (;;) {
      if (task.status === 'completed') {
        if (!task.result) throw new Error(`task ${task.taskId} completed without a result`);
        return task.result;
      }
      if (task.status === 'failed') throw failure(task);
      if (task.status === 'cancelled') throw cancelledByServer(task);
      const open = Object.entries(task.status === 'input_required' ? (task.inputRequests ?? {}) : {}).filter(([key]) => !answered.has(key));
      if (open.length) {
        if (++rounds > MAX_TASK_INPUT_ROUNDS) throw new Error(`task ${task.taskId} still asked for input after ${MAX_TASK_INPUT_ROUNDS} rounds`);
        const inputResponses = await answerAll(client, open, o.signal);
        for (const [key] of open) answered.add(key);
        await client.request({ method: 'tasks/update', params: { taskId: task.taskId, inputResponses } }, AnyObjectSchema, request);
      } else {
        await sleep(pollDelay(task.pollIntervalMs), o.signal);
      }
      task = readTask(await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, AnyObjectSchema, request), 'tasks/get');
      report(task);
    }
  } catch (e) {
    // The host gives up on a task still running: it is told so, whatever the reason.
    if (!TERMINAL.has(task.status)) await cancelTask(client, task.taskId);
    if (o.signal.aborted) throw o.signal.reason;
    throw e;
  }
}

/** The answers to a round's questions, asked together (the host's prompt queue puts them to the person one at a time). */
async function answerAll(client: Client, open: [string, { method: string; params?: Record<string, unknown> }][], signal: AbortSignal): Promise<Record<string, unknown>> {
  const answers = await Promise.all(
    open.map(async ([key, r]) => {
      try {
        return [key, await answerInputRequest(client, key, r.method, r.params, signal)] as const;
      } catch (e) {
        if (signal.aborted) throw e;
        throw new Error(`the task's request "${key}" (${r.method}) was not answered: ${errorText(e)}`, { cause: e });
      }
    }),
  );
  return Object.fromEntries(answers);
}

/** A failed task's JSON-RPC error, as the server's own error (classified like any server error). */
function failure(t: DetailedTask): Error {
  if (t.error) return new ProtocolError(t.error.code, t.error.message, t.error.data);
  return new Error(`task ${t.taskId} failed${statusText(t)}`);
}
