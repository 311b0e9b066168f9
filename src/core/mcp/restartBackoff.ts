/** Exponential restart delays for a server that exits unexpectedly: 1 s doubling to 30 s, 5 tries. */
export interface BackoffPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Consecutive failed starts after which the server is left in an error state. */
  readonly maxFailures: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialDelayMs: 1000, maxDelayMs: 30_000, maxFailures: 5 };

/** Delay before restart attempt `failures` (1-based), or undefined when we give up. */
export function restartDelay(policy: BackoffPolicy, failures: number): number | undefined {
  if (failures > policy.maxFailures) return undefined;
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (failures - 1));
}

/** Counts consecutive failures of one server and times its next restart. */
export class RestartSchedule {
  private failures = 0;
  private connectedAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
    /** A connection that stays up this long resets the count of consecutive failures. */
    private readonly stableAfterMs = 60_000,
  ) {}

  /** A person or the host started the server: count anew. */
  reset(): void {
    this.clear();
    this.failures = 0;
  }

  connected(): void {
    this.connectedAt = Date.now();
  }

  /** The connection ended unexpectedly; one that stayed up long enough starts the count anew. */
  closed(): void {
    if (this.connectedAt && Date.now() - this.connectedAt >= this.stableAfterMs) this.failures = 0;
  }

  /** Count a failure: the next attempt's number and delay, or undefined when it is time to give up. */
  next(): { attempt: number; delayMs: number } | undefined {
    this.failures++;
    const delayMs = restartDelay(this.policy, this.failures);
    return delayMs === undefined ? undefined : { attempt: this.failures + 1, delayMs };
  }

  schedule(delayMs: number, run: () => void): void {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, delayMs);
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
