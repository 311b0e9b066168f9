/**
 * Drives a JSON-lines session process (`mcp-host session`, or bench/clients/rawSession.mjs): one
 * request per stdin line, answers matched by id on stdout, lines without a pending id (events) ignored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';
import { procMemory } from './common';

export interface Answer {
  readonly id: number;
  readonly error?: string;
  readonly [key: string]: unknown;
}

export class LineSession {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  private stderr = '';
  private exited?: string;
  private readonly exit: Promise<void>;
  private readonly gcWaiters: ((newSpaceBytes: number) => void)[] = [];

  constructor(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) {
    this.child = spawn(command, [...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const err = readline.createInterface({ input: this.child.stderr!, crlfDelay: Infinity });
    err.on('line', (line) => {
      const gc = /^bench-gc (\d+)$/.exec(line);
      if (gc) {
        this.gcWaiters.shift()?.(Number(gc[1]));
        return;
      }
      this.stderr = (this.stderr + line + '\n').slice(-4000);
    });
    const rl = readline.createInterface({ input: this.child.stdout!, crlfDelay: Infinity });
    rl.on('line', (line) => {
      let msg: Answer;
      try {
        msg = JSON.parse(line) as Answer;
      } catch {
        return;
      }
      const p = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
      if (!p) return;
      this.pending.delete(msg.id);
      p.resolve(msg);
    });
    this.exit = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.exited = `exited (code ${code}, signal ${signal})`;
        for (const p of this.pending.values()) p.reject(new Error(`session ${this.exited}; stderr: ${this.stderr.trim().slice(-1000)}`));
        this.pending.clear();
        resolve();
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  request(body: Record<string, unknown>): Promise<Answer> {
    if (this.exited) return Promise.reject(new Error(`session ${this.exited}; stderr: ${this.stderr.trim().slice(-1000)}`));
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin!.write(JSON.stringify({ id, ...body }) + '\n');
    });
  }

  /**
   * For a process started with bench/clients/gcOnSignal.cjs preloaded: a full garbage collection
   * (SIGUSR2), then VmRSS from /proc and the size of V8's young generation after it. Undefined
   * if the process did not answer within `ms`.
   */
  async collect(ms = 5000): Promise<{ rss: number; newSpace: number } | undefined> {
    const answered = new Promise<number | undefined>((resolve) => {
      const waiter = (bytes: number) => {
        clearTimeout(timer);
        resolve(bytes);
      };
      const timer = setTimeout(() => {
        const i = this.gcWaiters.indexOf(waiter);
        if (i !== -1) this.gcWaiters.splice(i, 1);
        resolve(undefined);
      }, ms);
      this.gcWaiters.push(waiter);
    });
    this.child.kill('SIGUSR2');
    const newSpace = await answered;
    const rss = procMemory(this.pid)?.rss;
    return newSpace === undefined || rss === undefined ? undefined : { rss, newSpace };
  }

  /** End of stdin (the session finishes what is in flight and exits); SIGKILL after `ms`. */
  async close(ms = 10_000): Promise<void> {
    if (!this.exited) this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), ms);
    await this.exit;
    clearTimeout(timer);
  }
}
