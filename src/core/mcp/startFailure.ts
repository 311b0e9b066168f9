import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorText } from '../util/errorText';
import type { ServerTransport } from './serverTransport';
import { httpStatusText } from './transportErrorText';

const TAIL_LINES = 8;

/** A server's stderr lines go to the log; the last few are kept to explain why it failed. */
export class StderrTail {
  private readonly lines: string[] = [];

  constructor(private readonly log: (line: string) => void) {}

  /** One line, already redacted. */
  push(line: string): void {
    this.log(line);
    this.lines.push(line);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
  }

  clear(): void {
    this.lines.length = 0;
  }

  /** `; last stderr: a | b` or ''. */
  hint(): string {
    const last = this.lines.filter((l) => l.trim()).slice(-2);
    return last.length ? `; last stderr: ${last.join(' | ')}` : '';
  }
}

/** Why a start failed, in words a person can act on (before secret redaction). */
export function describeStartFailure(e: unknown, transport: ServerTransport | undefined, connectTimeoutMs: number, stderr: StderrTail, url?: string): string {
  const exit = transport?.exitReason?.();
  let message = errorText(e);
  if (exit && /connection closed/i.test(message)) {
    message = `server process exited (${exit}) before initialize completed`;
  } else if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
    message = `did not answer initialize within ${connectTimeoutMs} ms (connectTimeoutMs)`;
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
