import { CallAbortController } from './callAbort';

/**
 * Per-call abort signals linked to a caller's signal with one listener per caller signal, however
 * many calls share it: an agent (or a session) that runs many calls at once with one Stop would
 * otherwise pile a listener per call on it (MaxListenersExceededWarning past 10). A call's link is
 * removed when it settles, and the caller's listener with the last one.
 */
const links = new WeakMap<AbortSignal, { readonly calls: Set<CallAbortController>; readonly onAbort: () => void }>();

export interface LinkedAbort {
  /** Aborted when the caller's signal is (with its reason); undefined without a caller signal. */
  readonly signal: AbortSignal | undefined;
  /** The call has settled: forget it. */
  unlink(): void;
}

const NOTHING: LinkedAbort = { signal: undefined, unlink: () => undefined };

/** Link `own` (a new per-call controller unless given) to `caller`: aborted with its reason. */
export function linkAbort(caller: AbortSignal | undefined, own = new CallAbortController()): LinkedAbort {
  if (!caller) return NOTHING;
  if (caller.aborted) {
    own.abort(caller.reason);
    return { signal: own.signal, unlink: () => undefined };
  }
  let link = links.get(caller);
  if (!link) {
    const calls = new Set<CallAbortController>();
    const onAbort = () => {
      links.delete(caller);
      for (const c of calls) c.abort(caller.reason);
      calls.clear();
    };
    link = { calls, onAbort };
    links.set(caller, link);
    caller.addEventListener('abort', onAbort, { once: true });
  }
  link.calls.add(own);
  const current = link;
  return {
    signal: own.signal,
    unlink: () => {
      current.calls.delete(own);
      if (current.calls.size === 0 && links.get(caller) === current) {
        links.delete(caller);
        caller.removeEventListener('abort', current.onAbort);
      }
    },
  };
}
