/** One deadline of a Deadlines: pass it to `remove` when it is no longer wanted. */
export interface Deadline {
  /** performance.now() at which it fires. */
  readonly at: number;
  readonly fire: () => void;
}

/**
 * Many deadlines on one timer: the timer is set for the earliest, and when it fires every deadline
 * that has come fires and the timer is set for the next. Adding a deadline later than the one the
 * timer is set for, and removing one, touch no timer: a call that ends before its timeout (nearly
 * every call) costs a Set insertion and deletion, where a setTimeout/clearTimeout pair per call cost
 * ~1 µs (Node creates and drops its list of timers of that duration each time one call is alone).
 *
 * The timer keeps the process alive only while a deadline is waiting (it is unref'd when the last
 * one is removed, ref'd again by the next), as a timer per call did.
 */
export class Deadlines {
  private readonly waiting = new Set<Deadline>();
  private timer?: NodeJS.Timeout;
  /** When the timer fires (Infinity: no timer set). */
  private armedAt = Infinity;

  /** `fire` runs once `ms` from now, unless removed before. */
  add(ms: number, fire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + Math.max(0, ms), fire };
    this.waiting.add(deadline);
    if (deadline.at < this.armedAt) this.arm(deadline.at);
    else if (this.waiting.size === 1) this.timer?.ref();
    return deadline;
  }

  remove(deadline: Deadline): void {
    if (this.waiting.delete(deadline) && this.waiting.size === 0) this.timer?.unref();
  }

  /** Deadlines waiting (for tests and diagnostics). */
  get size(): number {
    return this.waiting.size;
  }

  private arm(at: number): void {
    this.disarm();
    this.armedAt = at;
    this.timer = setTimeout(this.due, Math.max(0, at - performance.now()));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  private readonly due = (): void => {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = performance.now();
    const come: Deadline[] = [];
    let next = Infinity;
    for (const d of this.waiting) {
      if (d.at <= now) come.push(d);
      else if (d.at < next) next = d.at;
    }
    for (const d of come) this.waiting.delete(d);
    // A timer may run a fraction of a millisecond before performance.now() reaches its time: set again.
    if (next !== Infinity) this.arm(next);
    for (const d of come) {
      try {
        d.fire();
      } catch (e) {
        // As from a timer of its own: reported as uncaught, and the other deadlines still fire.
        setImmediate(() => {
          throw e;
        });
      }
    }
  };
}
