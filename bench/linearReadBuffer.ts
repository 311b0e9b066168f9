/**
 * The raw baseline's stdio reader for large messages: the same contract as the SDK's `ReadBuffer`
 * (`append(chunk)`, `readMessage()`, `clear()`, messages parsed with the SDK's own
 * `deserializeMessage`), but linear in the message size: chunks are kept in a list and joined once
 * per message, where the SDK's ReadBuffer (1.32.2) concatenates the whole buffer on every chunk
 * (quadratic: 50 MB took 31 s here) and refuses more than `maxBufferSize` (default 10 MiB).
 *
 * `useLinearReader` installs one on an SDK `StdioClientTransport`, replacing the ReadBuffer that
 * its constructor made (the field is private in the SDK's typings; checked at run time).
 */
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

const NEWLINE = 0x0a;

export class LinearReadBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly lines: Buffer[] = [];

  constructor(private readonly maxMessageBytes: number) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const part = chunk.subarray(start, nl);
      this.lines.push(this.pending.length ? Buffer.concat([...this.pending, part], this.pendingBytes + part.length) : part);
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.pendingBytes + rest.length > this.maxMessageBytes) {
        this.clear();
        throw new Error(`LinearReadBuffer: message over ${this.maxMessageBytes} bytes`);
      }
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
  }

  readMessage(): JSONRPCMessage | null {
    const line = this.lines.shift();
    if (line === undefined) return null;
    const end = line.length && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    return deserializeMessage(line.toString('utf8', 0, end));
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.lines.length = 0;
  }
}

export function useLinearReader(transport: StdioClientTransport, maxMessageBytes: number): void {
  const t = transport as unknown as { _readBuffer?: unknown };
  if (!t._readBuffer) throw new Error('StdioClientTransport has no _readBuffer: the SDK changed; update bench/linearReadBuffer.ts');
  t._readBuffer = new LinearReadBuffer(maxMessageBytes);
}
