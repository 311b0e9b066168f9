import { subscribe } from 'node:diagnostics_channel';
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { Disposable } from '../util/event';

/**
 * Notices that an HTTP server may have gone away while nobody calls it: fetch (undici) announces
 * every socket it connects on the `undici:client:connected` diagnostics channel; when a socket to
 * a watched origin closes, its watchers are told. Passive: no request is sent, no socket is opened.
 * Every socket is followed from its connection, so a watch that starts after it (the socket
 * `initialize` went over, kept alive for the calls) still hears it close.
 */
const watchers = new Map<string, Set<() => void>>();

interface ConnectedMessage {
  readonly connectParams?: { readonly protocol?: string; readonly hostname?: string; readonly host?: string; readonly port?: string | number };
  readonly socket?: Socket;
}

function originKey(protocol: string, hostname: string, port: string | number | undefined): string {
  const p = port === undefined || port === '' ? (protocol === 'https:' ? '443' : '80') : String(port);
  return `${protocol}//${hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${p}`;
}

function onConnected(message: unknown): void {
  const m = message as ConnectedMessage;
  const c = m.connectParams;
  if (!c?.protocol || !c.hostname || !m.socket) return;
  const key = originKey(c.protocol, c.hostname, c.port);
  m.socket.once('close', () => {
    for (const w of [...(watchers.get(key) ?? [])]) w();
  });
}

subscribe('undici:client:connected', onConnected);

/** Call `onSocketClosed` whenever a fetch socket to `url`'s origin closes (until disposed). */
export function watchSockets(url: string, onSocketClosed: () => void): Disposable {
  let key: string;
  try {
    const u = new URL(url);
    key = originKey(u.protocol, u.hostname, u.port);
  } catch {
    return { dispose: () => undefined };
  }
  let set = watchers.get(key);
  if (!set) watchers.set(key, (set = new Set()));
  set.add(onSocketClosed);
  return {
    dispose: () => {
      set.delete(onSocketClosed);
      if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
    },
  };
}

/**
 * Whether the server's port still accepts connections: a TCP connect, closed at once (no request).
 * Resolves with the error when it does not (refused, unreachable, no answer within `timeoutMs`).
 */
export function probePort(url: string, timeoutMs = 3000): Promise<Error | undefined> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch (e) {
      resolve(e as Error);
      return;
    }
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (error?: Error) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(error);
    };
    const timer = setTimeout(() => done(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => done());
    socket.once('error', (e) => done(e));
  });
}

/**
 * When a socket has closed, how long after it the port is checked again while it still accepts
 * (ms, from the close). A server that exits closes its connections a moment before its listening
 * socket (or the kernel closes them in any order): a check at the instant of the close can still
 * be accepted, and no socket is left to close again.
 */
export const RECHECK_AFTER_MS: readonly number[] = [0, 250, 1000];

/**
 * While a remote server is connected: when one of its sockets closes, check its port (again at
 * RECHECK_AFTER_MS while it still answers); when that fails, `onUnreachable` is told why
 * ("cannot reach <url>: connect ECONNREFUSED …"), once.
 */
export class LivenessWatch implements Disposable {
  private readonly watch: Disposable;
  /** Aborted on dispose: ends a wait to check again, and any report. */
  private readonly stopped = new AbortController();
  private probing = false;

  constructor(
    private readonly url: string,
    private readonly onUnreachable: (error: Error) => void,
    private readonly recheckAfterMs: readonly number[] = RECHECK_AFTER_MS,
  ) {
    this.watch = watchSockets(url, () => void this.probe());
  }

  dispose(): void {
    this.watch.dispose();
    this.stopped.abort();
  }

  private async probe(): Promise<void> {
    const { signal } = this.stopped;
    if (this.probing || signal.aborted) return;
    this.probing = true;
    const start = Date.now();
    try {
      for (const at of this.recheckAfterMs) {
        const ms = start + at - Date.now();
        // Keeps no process alive; rejected (and so ended) by dispose.
        if (ms > 0) await delay(ms, undefined, { ref: false, signal }).catch(() => undefined);
        if (signal.aborted) return;
        const error = await probePort(this.url);
        if (signal.aborted) return;
        if (error) {
          this.dispose();
          this.onUnreachable(error);
          return;
        }
      }
    } finally {
      this.probing = false;
    }
  }
}
