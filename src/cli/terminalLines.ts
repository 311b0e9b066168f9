import * as readline from 'node:readline';
import { Writable } from 'node:stream';
import type { TerminalStreams } from './terminalConfirmer';

/**
 * Several questions in a row on one readline (prompts on stderr, answers from stdin), so answers
 * typed or piped ahead are not lost between questions. `hidden` questions do not echo what is typed
 * (on a terminal). End of input or the abort signal answers `undefined`.
 */
export class TerminalLines {
  private readonly rl: readline.Interface;
  private readonly queued: string[] = [];
  private waiting?: (line: string | undefined) => void;
  private closed = false;
  private muted = false;
  private readonly onAbort = () => this.close();

  constructor(
    private readonly streams: TerminalStreams,
    private readonly signal?: AbortSignal,
  ) {
    const output = new Writable({
      write: (chunk, _enc, done) => {
        if (!this.muted) streams.output.write(chunk);
        done();
      },
    });
    const isTty = Boolean((streams.input as NodeJS.ReadStream).isTTY);
    this.rl = readline.createInterface({ input: streams.input, output, terminal: isTty });
    this.rl.on('line', (line) => {
      const w = this.waiting;
      this.waiting = undefined;
      if (w) w(line);
      else this.queued.push(line);
    });
    this.rl.once('close', () => this.close());
    if (signal?.aborted) this.close();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  ask(question: string, hidden = false): Promise<string | undefined> {
    if (this.queued.length) {
      this.streams.output.write(question + (hidden ? '\n' : `${this.queued[0]}\n`));
      return Promise.resolve(this.queued.shift());
    }
    if (this.closed) return Promise.resolve(undefined);
    this.streams.output.write(question);
    this.muted = hidden;
    return new Promise((resolve) => {
      this.waiting = (line) => {
        if (hidden) {
          this.muted = false;
          this.streams.output.write('\n');
        }
        resolve(line);
      };
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.muted = false;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.rl.close();
    const w = this.waiting;
    this.waiting = undefined;
    w?.(undefined);
  }
}
