import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import type { ServerTransport } from './serverTransport';
import { httpStatusText } from './transportErrorText';

const TAIL_LINES = 8;

/**
 * The line of a program's stderr that states its error: `Error [ERR_X]: …`, `TypeError: …`,
 * `ModuleNotFoundError: …`, `error: …`, `fatal: …`. Node and Python print it above the stack (Node)
 * or as the last line (Python); the lines after it are stack frames and `code: '…'`, `}`, `Node.js v20`.
 */
const MESSAGE_LINE = /^\s*(?:Uncaught\s+)?(?:[A-Za-z_$][\w$.]*(?:Error|Exception)|error|fatal|panic)(?:\s*\[[^\]]*\])?:\s*\S/i;
/** Lines that say nothing on their own: stack frames, the closing brace of an error's fields, Node's version footer, a caret. */
const NOISE_LINE = /^\s*(?:at\s|[{}^]+\s*$|\w+: '.*',?$|Node\.js v\d|File ".*", line \d)/;

/** A server's stderr lines go to the log; the last few are kept to explain why it failed. */
export class StderrTail {
  private readonly lines: string[] = [];
  /** The last line that states an error (see MESSAGE_LINE); kept after it scrolls out of the tail. */
  private message?: string;

  constructor(private readonly log: (line: string) => void) {}

  /** One line, already redacted. */
  push(line: string): void {
    this.log(line);
    this.lines.push(line);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
    if (MESSAGE_LINE.test(line)) this.message = line.trim();
  }

  clear(): void {
    this.lines.length = 0;
    this.message = undefined;
  }

  /** `; stderr: Error: …` (the error's own line), else `; last stderr: a | b` (the last lines that are not stack frames), or ''. */
  hint(): string {
    if (this.message) return `; stderr: ${this.message}`;
    const said = this.lines.filter((l) => l.trim());
    const meaningful = said.filter((l) => !NOISE_LINE.test(l));
    const last = (meaningful.length ? meaningful : said).slice(-2).map((l) => l.trim());
    return last.length ? `; last stderr: ${last.join(' | ')}` : '';
  }
}

/** A start that overran `connectTimeoutMs`, whichever clock noticed (the SDK's per request, openClient's per attempt). */
export function initializeTimeoutText(connectTimeoutMs: number): string {
  return `did not answer initialize within ${connectTimeoutMs} ms (connectTimeoutMs)`;
}

/** Why a start failed, in words a person can act on (before secret redaction). */
export function describeStartFailure(e: unknown, transport: ServerTransport | undefined, connectTimeoutMs: number, stderr: StderrTail, url?: string): string {
  const exit = transport?.exitReason?.();
  let message = errorText(e);
  if (exit && /connection closed/i.test(message)) {
    message = `server process exited (${exit}) before initialize completed`;
  } else if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) {
    message = initializeTimeoutText(connectTimeoutMs);
  } else if (url && e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed) {
    // A remote server gone in the middle of start-up (after initialize, while it was being listed): say which.
    message = `the connection to ${url} closed during start-up`;
  } else {
    message = httpStatusText(e, url) ?? message;
  }
  return message + stderr.hint();
}

/** Why an established connection ended. */
export function describeClose(transport: ServerTransport | undefined, stderr: StderrTail): string {
  const exit = transport?.exitReason?.();
  return exit ? `server process exited (${exit})${stderr.hint()}` : 'connection closed';
}
