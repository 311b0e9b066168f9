import type { McpHost } from '../core/host/mcpHost';
import { ExitCode } from './exitCodes';

/** Longest wait for the host to stop its servers after a signal before exiting anyway. */
const DISPOSE_DEADLINE_MS = 8000;
/** Longest wait for the signal listeners (cancelled calls being audited) before stopping the servers. */
const SIGNAL_GRACE_MS = 1000;

/**
 * Owns the process's end: the host of the running command is disposed exactly once (which ends
 * every server's process group) before the process exits, on normal completion and on
 * SIGINT/SIGTERM (exit 130/143). A second signal does not abandon that: the servers are still
 * stopped (their SIGTERM → SIGKILL sequence takes a few seconds at most; DISPOSE_DEADLINE_MS
 * bounds it), so no server outlives the CLI.
 */
export class Lifecycle {
  private host?: McpHost;
  private closing?: Promise<void>;
  private signalled?: NodeJS.Signals;
  private readonly signalListeners: (() => void | Promise<unknown>)[] = [];
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(private readonly exit: (code: number) => void = exitProcess) {}

  /** The signal that is ending the process, if any. */
  get signal(): NodeJS.Signals | undefined {
    return this.signalled;
  }

  track(host: McpHost): McpHost {
    this.host = host;
    return host;
  }

  /**
   * Called first when a signal arrives, e.g. to cancel calls in flight. A returned promise is
   * awaited (at most {@link SIGNAL_GRACE_MS}) before the servers are stopped, so the audit
   * records of cancelled calls get written.
   */
  onSignal(listener: () => void | Promise<unknown>): void {
    this.signalListeners.push(listener);
  }

  /** Also run at close, after the host (e.g. sending the last telemetry spans, bounded). */
  onClose(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  /** Close the tracked host (ending every server's process group); every caller gets the same promise. */
  closeHost(): Promise<void> {
    if (!this.host) return Promise.resolve();
    this.closing ??= this.host
      .close()
      .catch((e: unknown) => {
        process.stderr.write(`mcp-host error: stopping the servers failed: ${e instanceof Error ? e.message : String(e)}\n`);
      })
      .then(() => Promise.all(this.closers.map((c) => c().catch(() => undefined))))
      .then(() => undefined);
    return this.closing;
  }

  installSignalHandlers(): void {
    const handle = (signal: NodeJS.Signals, code: number) => () => {
      if (this.signalled) {
        process.stderr.write(`mcp-host: stopping the servers (at most ${DISPOSE_DEADLINE_MS / 1000} s)…\n`);
        return;
      }
      this.signalled = signal;
      const waits: Promise<unknown>[] = [];
      for (const l of this.signalListeners) {
        try {
          const r = l();
          if (r) waits.push(r.catch(() => undefined));
        } catch {
          // keep shutting down
        }
      }
      const deadline = setTimeout(() => this.exit(code), DISPOSE_DEADLINE_MS);
      let grace: NodeJS.Timeout | undefined;
      const settled = waits.length
        ? Promise.race([Promise.all(waits), new Promise<void>((r) => (grace = setTimeout(r, SIGNAL_GRACE_MS)))])
        : Promise.resolve();
      void settled
        .then(() => {
          if (grace) clearTimeout(grace);
          return this.closeHost();
        })
        .finally(() => {
          clearTimeout(deadline);
          this.exit(code);
        });
    };
    for (const [signal, code] of [
      ['SIGINT', ExitCode.sigint],
      ['SIGTERM', ExitCode.sigterm],
    ] as const) {
      process.on(signal, handle(signal, code));
    }
  }
}

/** Exit with `code` once stdout and stderr have taken everything written so far. */
export function exitProcess(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.destroyed || stream.writableEnded) done();
    else stream.write('', () => done());
  }
  // A stream that never drains (a stuck reader) must not keep the process alive.
  setTimeout(() => process.exit(code), 2000).unref();
}
