import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

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
}

/**
 * A stdio transport that starts the server in its own process group and, on close, ends the whole
 * group: servers started through wrappers (`npx`, `sh -c`, `uvx`) leave no grandchildren behind.
 * The SDK's StdioClientTransport signals only its direct child.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly readBuffer = new ReadBuffer();
  private stderrRest = '';
  private closing = false;
  private closedNotified = false;
  private exitInfo?: { code: number | null; signal: NodeJS.Signals | null };

  constructor(private readonly options: ProcessStdioOptions) {}

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

      child.stdout!.on('data', (chunk: Buffer) => {
        this.readBuffer.append(chunk);
        this.drain();
      });
      child.stdout!.on('error', (e) => this.onerror?.(e));
      child.stdin!.on('error', (e) => {
        // EPIPE after the server died: reported through close, not as a protocol error.
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') this.onerror?.(e);
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => this.onStderr(text));
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (e) {
        this.onerror?.(new Error(`server wrote a line to stdout that is not JSON-RPC: ${(e as Error).message}`));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
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
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const child = this.child;
    if (child && !this.exitInfo && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const wait = (ms: number) => Promise.race([exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      await wait(this.options.gracePeriodMs ?? 1000);
      if (!this.exitInfo) {
        this.killGroup('SIGTERM');
        await wait(1500);
      }
      if (!this.exitInfo) {
        this.killGroup('SIGKILL');
        await wait(1000);
      }
    }
    this.killGroup('SIGKILL');
    this.notifyClosed();
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
    this.onclose?.();
  }
}
