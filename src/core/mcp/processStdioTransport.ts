import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/client';
import { serializeMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { DEFAULTS } from '../settings/hostSettings';
import { DirectRequests } from './directRequests';
import { messageTooLargeText } from './hostErrorResponse';
import { StdioMessageReader } from './stdioMessageReader';

export interface ProcessStdioOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the SDK's minimal default environment (HOME, PATH, SHELL, TERM, USER, LOGNAME). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Each complete stderr line of the server. Never mixed into the protocol stream. */
  readonly onStderrLine?: (line: string) => void;
  /** How long to wait after closing stdin before signalling the process group. */
  readonly gracePeriodMs?: number;
  /** Largest message the server may send (default mcpHost.maxMessageBytes' default). */
  readonly maxMessageBytes?: number;
  /** The server's name, for error texts. */
  readonly name?: string;
  /** Default true: the host's `tools/call` on a 2025-era connection may go past the SDK (see DirectRequests). */
  readonly directRequests?: boolean;
}

function uncork(stream: NodeJS.WritableStream & { uncork(): void }): void {
  stream.uncork();
}

/** How long the rest of a process group gets between SIGTERM and SIGKILL. */
const TERM_GRACE_MS = 1500;
const KILL_WAIT_MS = 1000;

/**
 * A stdio transport that starts the server in its own process group and, on close, ends the whole
 * group: servers started through wrappers (`npx`, `sh -c`, `uvx`) leave no grandchildren behind.
 * The SDK's StdioClientTransport signals only its direct child. Messages are read by
 * StdioMessageReader: linear in their size, bounded by `maxMessageBytes` per message.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Requests the host sends past the SDK's Protocol on this transport (see DirectRequests); absent when switched off. */
  readonly direct?: DirectRequests;

  private child?: ChildProcess;
  private readonly reader: StdioMessageReader;
  private stderrRest = '';
  private closing?: Promise<void>;
  private closedNotified = false;
  private exitInfo?: { code: number | null; signal: NodeJS.Signals | null };
  /** A message was sent in this turn already: the next ones are corked (see send). */
  private burst = false;
  private readonly endBurst = () => {
    this.burst = false;
  };

  constructor(private readonly options: ProcessStdioOptions) {
    const direct = options.directRequests === false ? undefined : new DirectRequests((m) => this.send(m));
    this.direct = direct;
    this.reader = new StdioMessageReader({
      maxMessageBytes: options.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
      onMessage: (m) => {
        // A handler that throws must not escape the 'data' listener: that would end the process.
        try {
          if (!direct?.take(m)) this.onmessage?.(m);
        } catch (e) {
          this.onerror?.(e instanceof Error ? e : new Error(String(e)));
        }
      },
      onError: (e) => this.onerror?.(e),
      tooLarge: (bytes, limit) => messageTooLargeText(options.name ?? options.command, bytes, limit),
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has: "code 1", "signal SIGKILL". */
  exitReason(): string | undefined {
    const e = this.exitInfo;
    if (!e) return undefined;
    return e.signal ? `signal ${e.signal}` : `code ${e.code}`;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessStdioTransport already started');
    const cwd = this.options.cwd;
    if (cwd !== undefined && !isDirectory(cwd)) {
      // spawn would say "spawn <command> ENOENT", blaming the command.
      return Promise.reject(new Error(`the working directory "${cwd}" does not exist or is not a directory (cwd); the server was not started`));
    }
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...this.options.args], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      let spawned = false;

      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.once('error', (err) => {
        if (!spawned) {
          reject(new Error(`cannot start "${this.options.command}": ${err.message}`));
        } else {
          this.onerror?.(err);
        }
        this.notifyClosed();
      });
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        // Whatever the server started is ours to reap too.
        this.killGroup('SIGTERM');
      });
      child.once('close', () => {
        this.flushStderr();
        this.notifyClosed();
      });

      child.stdout!.on('data', (chunk: Buffer) => this.reader.push(chunk));
      child.stdout!.on('error', (e) => this.onerror?.(e));
      child.stdin!.on('error', (e) => {
        // EPIPE after the server died: reported through close, not as a protocol error.
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') this.onerror?.(e);
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => this.onStderr(text));
    });
  }

  private onStderr(text: string): void {
    const parts = (this.stderrRest + text).split(/\r?\n/);
    this.stderrRest = parts.pop() ?? '';
    for (const line of parts) if (line.length) this.options.onStderrLine?.(line);
    if (this.stderrRest.length > 64 * 1024) {
      this.options.onStderrLine?.(this.stderrRest);
      this.stderrRest = '';
    }
  }

  private flushStderr(): void {
    if (this.stderrRest.length) this.options.onStderrLine?.(this.stderrRest);
    this.stderrRest = '';
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exitInfo) return Promise.reject(new Error('server process is not running'));
    // The first message of a turn leaves at once (a call alone waits for nothing); the ones after it
    // in the same turn (the next calls of many answers read from one chunk) are corked until this
    // turn's ticks are done and leave together in one writev.
    if (this.burst) {
      if (!stdin.writableCorked) {
        stdin.cork();
        process.nextTick(uncork, stdin);
      }
    } else {
      this.burst = true;
      process.nextTick(this.endBurst);
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server's whole process group; every caller gets the same promise (the sequence runs once). */
  close(): Promise<void> {
    return (this.closing ??= this.shutdown());
  }

  /**
   * stdin EOF, then SIGTERM, then SIGKILL to the group, each after a wait. Once the server itself
   * has exited, the rest of its group (SIGTERMed at that exit) gets TERM_GRACE_MS, then SIGKILL.
   */
  private async shutdown(): Promise<void> {
    const child = this.child;
    if (child) {
      const exited = new Promise<void>((r) => (this.exitInfo ? r() : child.once('exit', () => r())));
      const wait = (ms: number) =>
        new Promise<void>((r) => {
          const t = setTimeout(r, ms);
          void exited.then(() => {
            clearTimeout(t);
            r();
          });
        });
      if (!this.exitInfo && child.exitCode === null && child.signalCode === null) {
        try {
          child.stdin?.end();
        } catch {
          // already gone
        }
        await wait(this.options.gracePeriodMs ?? 1000);
        if (!this.exitInfo) {
          this.killGroup('SIGTERM');
          await wait(TERM_GRACE_MS);
        }
        if (!this.exitInfo) {
          this.killGroup('SIGKILL');
          await wait(KILL_WAIT_MS);
        }
      }
      const end = Date.now() + TERM_GRACE_MS;
      while (this.groupAlive() && Date.now() < end) await sleep(50);
      this.killGroup('SIGKILL');
    }
    this.reader.clear();
    this.notifyClosed();
  }

  /** Whether any process of the server's group still exists (a zombie counts until it is reaped). */
  private groupAlive(): boolean {
    const pid = this.child?.pid;
    if (!pid || process.platform === 'win32') return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      if (process.platform === 'win32') this.child!.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // the group is already gone
    }
  }

  private notifyClosed(): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    try {
      this.onclose?.();
    } finally {
      // After the SDK has heard of the close, as its own requests in flight are failed after it.
      this.direct?.close();
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise<void>((r) => setTimeout(r, ms));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
