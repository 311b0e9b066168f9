/**
 * Runs a refresh so that a burst of requests costs at most one run in flight plus one after it:
 * `now()` joins the run in flight (asking for one more), `soon()` debounces notifications.
 */
export class CoalescedRefresh {
  private running?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (e: unknown) => void,
    private readonly debounceMs: number,
  ) {}

  /** Refresh now, or once more after the run in flight. Never rejects. */
  now(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.run();
        } while (this.again && !this.closed);
      } catch (e) {
        this.onError(e);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Refresh after `debounceMs` of quiet. */
  soon(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.now();
    }, this.debounceMs);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.closed = true;
    this.cancel();
  }
}
