/** What a server reported about a call in flight: `notifications/progress`, or the status of its task. */
export interface CallProgress {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
  /** For a tool run as a task: its status (`working`, `input_required`, …). */
  readonly taskStatus?: string;
}

export type ProgressListener = (progress: CallProgress) => void;

/** "3/5 (60%) · message", "7 · message", "task working · Gathering sources…". */
export function describeProgress(p: CallProgress): string {
  const parts: string[] = [];
  if (p.taskStatus !== undefined) parts.push(`task ${p.taskStatus.replace(/_/g, ' ')}`);
  if (p.progress !== undefined) {
    if (p.total !== undefined && p.total > 0) parts.push(`${p.progress}/${p.total} (${Math.round((p.progress / p.total) * 100)}%)`);
    else parts.push(String(p.progress));
  }
  if (p.message) parts.push(p.message.replace(/\s+/g, ' ').trim().slice(0, 200));
  return parts.join(' · ');
}

/**
 * Passes on at most one `notifications/progress` report per `intervalMs` (later ones in the pause
 * are dropped), but always the last step (`progress === total`) and every task status change: a
 * server that reports a thousand times a second must not flood a chat or a log.
 */
export function throttleProgress(listener: ProgressListener, intervalMs: number, now: () => number = Date.now): ProgressListener {
  let last = -Infinity;
  return (p) => {
    const t = now();
    const final = p.total !== undefined && p.progress !== undefined && p.progress >= p.total;
    // A task's status is reported only when it changes, at most once per poll.
    if (!final && p.taskStatus === undefined && t - last < intervalMs) return;
    last = t;
    listener(p);
  };
}
