import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULTS } from '../settings/hostSettings';
import { CallDeadline } from './callDeadline';
import type { ProgressListener } from './callProgress';
import { callToolAsTask, runsAsTask } from './taskToolCall';

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
}

/**
 * One `tools/call` on a connected client. Every call carries a `progressToken`, so servers report
 * progress (server-everything's long-running tool sends none without one). A tool that requires
 * task execution runs as a task (taskToolCall.ts); any other is a plain request whose timeout
 * progress may extend, up to the total.
 */
export async function callToolOnClient(
  client: Client,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  o: ToolCallOptions,
): Promise<CallToolResult> {
  const resetTimeoutOnProgress = o.resetTimeoutOnProgress ?? DEFAULTS.resetTimeoutOnProgress;
  const maxTotalTimeoutMs = o.maxTotalTimeoutMs ?? DEFAULTS.maxTotalTimeoutMs;
  if (runsAsTask(tool, client.getServerCapabilities())) {
    return callToolAsTask(client, name, args, { timeoutMs: o.timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs, signal: o.signal, onProgress: o.onProgress });
  }
  // The SDK enforces timeoutMs and its reset on progress; the deadline adds the total cap and a per-call signal.
  const deadline = new CallDeadline({ timeoutMs: o.timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs, signal: o.signal, idleTimeout: false });
  try {
    const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
      timeout: o.timeoutMs,
      signal: deadline.signal,
      resetTimeoutOnProgress,
      ...(resetTimeoutOnProgress ? { maxTotalTimeout: maxTotalTimeoutMs } : {}),
      onprogress: (p) => o.onProgress?.({ progress: p.progress, total: p.total, message: p.message }),
    });
    return result as CallToolResult;
  } finally {
    deadline.dispose();
  }
}
