import { setMaxListeners } from 'node:events';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface DeadlineOptions {
  /** Time without progress after which the call times out. */
  readonly timeoutMs: number;
  /** Progress restarts the `timeoutMs` clock… */
  readonly resetTimeoutOnProgress: boolean;
  /** …but never past this much time in total. */
  readonly maxTotalTimeoutMs: number;
  /** The caller's Stop. */
  readonly signal?: AbortSignal;
  /** Whether this deadline enforces `timeoutMs` itself (false when the SDK's request timeout does). */
  readonly idleTimeout: boolean;
}

/**
 * One call's own AbortSignal: aborted by the caller's Stop (with its reason) or by the deadline
 * (with an McpError RequestTimeout, which the SDK passes through unchanged). A per-call signal
 * also keeps listeners from piling up on a long-lived caller signal (the SDK never removes the
 * one it adds). The SDK checks `maxTotalTimeout` only when progress arrives; this enforces it
 * even when progress stops.
 */
export class CallDeadline {
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private idle?: NodeJS.Timeout;
  private readonly total?: NodeJS.Timeout;
  private readonly onAbort?: () => void;

  constructor(private readonly o: DeadlineOptions) {
    // A task's every poll adds a listener to this signal (the SDK never removes them): they go
    // with the signal when the call ends, so the warning about a leak does not apply here.
    setMaxListeners(0, this.controller.signal);
    const signal = o.signal;
    if (signal?.aborted) this.controller.abort(signal.reason);
    else if (signal) {
      this.onAbort = () => this.controller.abort(signal.reason);
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
    if (o.resetTimeoutOnProgress) {
      const cap = o.maxTotalTimeoutMs;
      this.total = setTimeout(() => this.expire('Maximum total timeout exceeded', { maxTotalTimeout: cap }), cap);
    }
    if (o.idleTimeout) this.armIdle();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Progress arrived: with `resetTimeoutOnProgress`, the call gets `timeoutMs` more (within the total). */
  progressed(): void {
    if (this.o.idleTimeout && this.o.resetTimeoutOnProgress && !this.controller.signal.aborted) this.armIdle();
  }

  /** Milliseconds since the call started. */
  get elapsedMs(): number {
    return Date.now() - this.started;
  }

  dispose(): void {
    clearTimeout(this.total);
    if (this.idle) clearTimeout(this.idle);
    if (this.onAbort) this.o.signal?.removeEventListener('abort', this.onAbort);
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.expire('Request timed out', { timeout: this.o.timeoutMs }), this.o.timeoutMs);
  }

  private expire(message: string, data: Record<string, number>): void {
    if (!this.controller.signal.aborted) this.controller.abort(new McpError(ErrorCode.RequestTimeout, message, data));
  }
}
