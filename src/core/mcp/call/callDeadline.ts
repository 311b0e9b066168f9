import { setMaxListeners } from 'node:events';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** The longest timer Node keeps (≈24.8 days); the SDK's own timeout is set to it and never fires first. */
export const NEVER_MS = 2_147_483_647;

/** One tool call in flight: what to pass to the SDK request, and `end()` once it settled. */
export interface OpenCall {
  /** The SDK's own timeout: never first, this clock is the call's timeout. */
  readonly sdkTimeoutMs: number;
  /** Aborts with the SDK's RequestTimeout error when the clock (or the total cap) runs out, or with the caller's signal's reason. */
  readonly signal: AbortSignal;
  /** The call's progress listener, also restarting the clock on progress (resetTimeoutOnProgress). */
  withProgress<T>(listener?: (p: T) => void): (p: T) => void;
  end(): void;
}

export interface DeadlineOptions {
  /** Time without a result (and, with `resetTimeoutOnProgress`, without progress) after which the call times out. */
  readonly timeoutMs: number;
  /** Progress restarts the `timeoutMs` clock… */
  readonly resetTimeoutOnProgress: boolean;
  /** …but never past this much time in total. */
  readonly maxTotalTimeoutMs: number;
  /** The caller's Stop. */
  readonly signal?: AbortSignal;
}

/**
 * One call's clock when the host has no ServerCalls for its server (the same OpenCall shape): its
 * own AbortSignal, aborted by the caller's Stop (with its reason) or when the time runs out (with
 * an SdkError RequestTimeout carrying `timeout` or `maxTotalTimeout`, which the SDK passes through
 * unchanged and classifyCallError turns into a CallTimeoutError). Progress restarts it with
 * `resetTimeoutOnProgress`; the total cap holds even when progress stops.
 */
export class CallDeadline implements OpenCall {
  readonly sdkTimeoutMs = NEVER_MS;
  private readonly controller = new AbortController();
  private idle?: NodeJS.Timeout;
  private readonly total?: NodeJS.Timeout;
  private readonly onAbort?: () => void;

  constructor(private readonly o: DeadlineOptions) {
    // A task's every poll adds a listener to this signal (the SDK removes them when each settles):
    // they go with the signal when the call ends, so the warning about a leak does not apply here.
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
    this.armIdle();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  withProgress<T>(listener?: (p: T) => void): (p: T) => void {
    return (p) => {
      if (this.o.resetTimeoutOnProgress && !this.controller.signal.aborted) this.armIdle();
      listener?.(p);
    };
  }

  end(): void {
    clearTimeout(this.total);
    if (this.idle) clearTimeout(this.idle);
    if (this.onAbort) this.o.signal?.removeEventListener('abort', this.onAbort);
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.expire('Request timed out', { timeout: this.o.timeoutMs }), this.o.timeoutMs);
  }

  private expire(message: string, data: Record<string, number>): void {
    if (!this.controller.signal.aborted) this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, message, data));
  }
}
