/**
 * The audit sink proposed for src/core/audit/auditLog.ts (JsonlFileSink), measured by the routing
 * and concurrency benchmarks next to the shipped one. NOT used by the host: a bench-only copy of
 * the proposal, so its effect is measured in the same run as the code it would replace.
 *
 * Shipped: every record is `appendFile(path, line)` (open + write + close: three thread-pool round
 * trips) on a promise chain, so concurrent calls queue behind each other's file I/O, and the call
 * result waits for all of it.
 * Proposed: open the file once in append mode (O_APPEND: every write lands whole at the end) and
 * write each line synchronously: no thread-pool hop, no queue, lines never interleave. A ~300-byte
 * write to the page cache costs a few microseconds; the record is still written before the result
 * is returned. Re-open when the file was removed or replaced (log rotation), close on dispose.
 */
import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditSink } from '../src/core/audit/auditLog';
import type { AuditRecord } from '../src/core/audit/auditRecord';

export class SyncAppendJsonlSink implements AuditSink {
  private fd?: number;
  private ino?: number;
  private checkedAt = 0;

  constructor(
    readonly path: string,
    /** How often (ms) to check that the path still names the open file. */
    private readonly recheckMs = 1000,
  ) {}

  async write(record: AuditRecord): Promise<void> {
    const buf = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    const fd = this.open();
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  }

  dispose(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    const now = Date.now();
    if (this.fd !== undefined && now - this.checkedAt >= this.recheckMs) {
      this.checkedAt = now;
      let sameFile = false;
      try {
        sameFile = statSync(this.path).ino === this.ino;
      } catch {
        // removed: re-create below
      }
      if (!sameFile) this.dispose();
    }
    if (this.fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'a');
      this.ino = fstatSync(this.fd).ino;
      this.checkedAt = now;
    }
    return this.fd;
  }
}
