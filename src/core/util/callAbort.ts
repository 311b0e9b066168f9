/**
 * The abort signal of one tool call, without Node's EventTarget. A `new AbortController()` costs
 * several microseconds on Node 20 (more than the rest of the host's routing) and every listener
 * more, on every call, for a signal that has one or two listeners and almost never fires.
 *
 * It has what the SDK's `Protocol.request` and this host use of a call's signal: `aborted`,
 * `reason`, `throwIfAborted()`, `addEventListener('abort', …)` (with `once`),
 * `removeEventListener`, `onabort`. It is only ever given to those: never to a Node API (fetch,
 * timers, events), which needs a real AbortSignal. Signals that come from outside (the caller's
 * Stop) stay real ones; this is only the per-call signal linked to them.
 */
export class CallAbortController {
  private readonly callSignal = new CallSignal();

  get signal(): AbortSignal {
    return this.callSignal as unknown as AbortSignal;
  }

  abort(reason?: unknown): void {
    this.callSignal.fire(reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason);
  }
}

type AbortListener = ((event: AbortEvent) => void) | { handleEvent(event: AbortEvent): void };

interface AbortEvent {
  readonly type: 'abort';
  readonly target: unknown;
}

class CallSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: AbortListener[] = [];
  private handler: ((event: AbortEvent) => void) | null = null;
  /** `onabort` runs in the order it was first set among the listeners, as EventTarget's attribute does. */
  private readonly handlerListener = (event: AbortEvent) => this.handler?.call(this, event);

  get onabort(): ((event: AbortEvent) => void) | null {
    return this.handler;
  }

  set onabort(handler: ((event: AbortEvent) => void) | null) {
    if (handler && !this.handler) this.addEventListener('abort', this.handlerListener);
    if (!handler) this.removeEventListener('abort', this.handlerListener);
    this.handler = handler;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: AbortListener | null | undefined): void {
    // As EventTarget: a listener added twice is called once; after the abort, nothing is called again.
    if (type !== 'abort' || !listener || this.aborted || this.listeners.includes(listener)) return;
    this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: AbortListener | null | undefined): void {
    if (type !== 'abort' || !listener) return;
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const event: AbortEvent = { type: 'abort', target: this };
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) {
      try {
        if (typeof l === 'function') l.call(this, event);
        else l.handleEvent(event);
      } catch (e) {
        // As EventTarget: a throwing listener does not stop the others; its error is reported as uncaught.
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
}
