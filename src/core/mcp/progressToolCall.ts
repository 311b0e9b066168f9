import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULTS } from '../settings/hostSettings';
import { AnyObjectSchema } from './anyObjectSchema';
import { CallDeadline } from './callDeadline';
import type { DirectToolCalls } from './directToolCalls';
import type { ProgressListener } from './callProgress';
import { callToolAsTask, runsAsTask } from './taskToolCall';

export interface ProgressCallOptions {
  /** Time without a result (and, with `resetTimeoutOnProgress`, without progress). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Progress and task status of this call, as the server reports them. */
  readonly onProgress?: ProgressListener;
  /** Default true. */
  readonly resetTimeoutOnProgress?: boolean;
  /** Default 10 minutes. */
  readonly maxTotalTimeoutMs?: number;
  /** `signal` is the call's own and its clock (ServerCalls) keeps the timeouts: no deadline of its own. */
  readonly clocked?: boolean;
  /** With `clocked`: a plain call goes here rather than through the SDK's Protocol.request. */
  readonly direct?: DirectToolCalls;
}

/**
 * The SDK request options that make a call report progress and let progress extend it: always an
 * `onprogress` (so every `tools/call` carries a `progressToken`), `resetTimeoutOnProgress`, and
 * the total cap. Usable with any `client.request` of a tools/call.
 */
export function progressRequestOptions(o: ProgressCallOptions): Pick<RequestOptions, 'onprogress' | 'resetTimeoutOnProgress' | 'maxTotalTimeout'> {
  const reset = o.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress;
  return {
    onprogress: (p) => o.onProgress?.({ progress: p.progress, total: p.total, message: p.message }),
    resetTimeoutOnProgress: reset,
    ...(reset ? { maxTotalTimeout: o.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs } : {}),
  };
}

/**
 * One `tools/call` on a connected client. Every call carries a `progressToken`, so servers report
 * progress (server-everything's long-running tool sends none without one). A tool that requires
 * task execution runs as a task (taskToolCall.ts); any other is a plain request whose timeout
 * progress may extend, up to the total, and whose result is any JSON object (the router reads it
 * part by part: the SDK's strict schema would reject a whole result for one unknown content block).
 */
export async function callToolWithProgress(
  client: Client,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  o: ProgressCallOptions,
): Promise<Record<string, unknown>> {
  const resetTimeoutOnProgress = o.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress;
  const maxTotalTimeoutMs = o.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs;
  if (runsAsTask(tool, client.getServerCapabilities())) {
    return callToolAsTask(client, name, args, { timeoutMs: o.timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs, signal: o.signal, onProgress: o.onProgress });
  }
  // The clock restarts on progress and enforces the total cap itself: the request only carries the progress.
  if (o.clocked && o.direct && o.signal) return o.direct.call(name, args, { signal: o.signal, onProgress: o.onProgress });
  const request = { method: 'tools/call', params: { name, arguments: args } } as const;
  if (o.clocked) return client.request(request, AnyObjectSchema, { onprogress: progressRequestOptions(o).onprogress, timeout: o.timeoutMs, signal: o.signal });
  // The SDK enforces timeoutMs and its reset on progress; the deadline adds the total cap and a per-call signal.
  const deadline = new CallDeadline({ timeoutMs: o.timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs, signal: o.signal, idleTimeout: false });
  try {
    return await client.request(request, AnyObjectSchema, { ...progressRequestOptions(o), timeout: o.timeoutMs, signal: deadline.signal });
  } finally {
    deadline.dispose();
  }
}
