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
