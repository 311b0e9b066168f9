import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { linkAbort } from '../../util/abortFanOut';
import { CallAbortController } from '../../util/callAbort';
import { Deadlines, type Deadline } from '../../util/deadlines';
import type { Disposable } from '../../util/event';
import { NEVER_MS, type OpenCall } from './callDeadline';

interface CallClock {
  /** The tool called; undefined for a request that is no tool call (a resource read, a prompt). */
  readonly tool: string | undefined;
  pause(): void;
  resume(): void;
}

/**
 * The tool calls in flight per server, so that a request the server sends meanwhile (a question
 * for the user, a sampling request) is shown and audited as part of those calls; and each call's
 * timeout, which stops while the user is being asked on that server's behalf: the time a person
 * takes to fill in a form is not the server hanging.
 */
export class ServerCalls {
  private readonly open = new Map<string, Set<CallClock>>();
  private readonly asking = new Map<string, number>();
  /** Every call's timeout, on one timer (see Deadlines). */
  private readonly deadlines = new Deadlines();

  /**
   * Start a call of `server`'s `tool` (undefined: a request that is no tool call, timed alike but
   * not named as the call a question belongs to) with a timeout of `timeoutMs` (of server time): one deadline
   * per call (all on one timer, see Deadlines), which progress restarts (`resetOnProgress`) but
   * never past `maxTotalMs` after the start (wall time: a call that keeps reporting progress still
   * ends). `signal` (the caller's Stop) aborts the call with its reason; the link is removed when
   * the call ends.
   */
  begin(server: string, tool: string | undefined, timeoutMs: number, signal?: AbortSignal, resetOnProgress = false, maxTotalMs?: number): OpenCall {
    const deadline = new CallAbortController();
    const capAt = resetOnProgress && maxTotalMs !== undefined ? performance.now() + maxTotalMs : Infinity;
    let remaining = timeoutMs;
    let startedAt = 0;
    let timer: Deadline | undefined;
    const deadlines = this.deadlines;
    const expire = (capped: boolean) =>
      // Rejects the SDK request exactly like its own timeout (and sends notifications/cancelled).
      deadline.abort(capped ? new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: maxTotalMs }) : new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }));
    const clock: CallClock = {
      tool,
      pause: () => {
        if (!timer) return;
        deadlines.remove(timer);
        timer = undefined;
        remaining = Math.max(0, remaining - (performance.now() - startedAt));
      },
      resume: () => {
        if (timer || deadline.signal.aborted) return;
        startedAt = performance.now();
        const capped = capAt - startedAt < remaining;
        timer = deadlines.add(capped ? capAt - startedAt : remaining, () => {
          timer = undefined;
          expire(capped);
        });
      },
    };
    // One listener on the caller's signal however many calls share it (linkAbort).
    const link = linkAbort(signal, deadline);
    const known = this.open.get(server);
    const calls = known ?? new Set<CallClock>();
    if (!known) this.open.set(server, calls);
    calls.add(clock);
    if (!this.asking.get(server)) clock.resume();
    return {
      sdkTimeoutMs: NEVER_MS,
      signal: deadline.signal,
      withProgress: (listener) => (p) => {
        if (resetOnProgress && timer) {
          // Progress shows the server is working: the clock starts over (paused clocks stay paused).
          clock.pause();
          remaining = timeoutMs;
          clock.resume();
        }
        listener?.(p);
      },
      end: () => {
        clock.pause();
        link.unlink();
        // The server's set stays, empty, for its next call: one set per server, not one per call.
        calls.delete(clock);
      },
    };
  }

  /** The tools of `server` with a call in flight, in the order they started. */
  inFlight(server: string): string[] {
    const tools: string[] = [];
    for (const c of this.open.get(server) ?? []) if (c.tool !== undefined) tools.push(c.tool);
    return tools;
  }

  /** The user is being asked for `server`: its calls' clocks stop until the returned handle is disposed. */
  askingUser(server: string): Disposable {
    const n = (this.asking.get(server) ?? 0) + 1;
    this.asking.set(server, n);
    if (n === 1) for (const c of this.open.get(server) ?? []) c.pause();
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        const left = (this.asking.get(server) ?? 1) - 1;
        if (left > 0) {
          this.asking.set(server, left);
          return;
        }
        this.asking.delete(server);
        for (const c of this.open.get(server) ?? []) c.resume();
      },
    };
  }
}
