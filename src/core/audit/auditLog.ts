import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import type { AuditRecord } from './auditRecord';

/** Where audit records go. */
export interface AuditSink {
  write(record: AuditRecord): Promise<void>;
  dispose?(): void;
}

/**
 * Appends one JSON line per record. The file is opened once in append mode (O_APPEND: every write
 * lands whole at the end, lines never interleave) and each line is written synchronously: a
 * ~300-byte write to the page cache costs microseconds, where `appendFile` per record
 * (open + write + close through the thread pool, queued) cost ~100 µs per call (npm run bench).
 * The path is re-checked now and then, so a rotated or deleted file is re-created.
 */
export class JsonlFileSink implements AuditSink {
  private fd?: number;
  private ino?: number;
  private checkedAt = 0;

  constructor(
    readonly path: string,
    private readonly recheckMs = 1000,
  ) {}

  async write(record: AuditRecord): Promise<void> {
    // One serialisation and one write of the string (no Buffer of our own); a short write, which a
    // regular file hardly ever gives, finishes from a Buffer.
    const line = JSON.stringify(record) + '\n';
    const fd = this.open();
    const written = writeSync(fd, line);
    if (written !== Buffer.byteLength(line)) {
      const buf = Buffer.from(line, 'utf8');
      for (let offset = written; offset < buf.length; ) offset += writeSync(fd, buf, offset, buf.length - offset);
    }
  }

  dispose(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
    }
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
        // removed: re-created below
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

/** Keeps the last records in memory (for the CLI session, the UI and tests). */
export class MemorySink implements AuditSink {
  readonly records: AuditRecord[] = [];
  constructor(private readonly limit = 1000) {}
  async write(record: AuditRecord): Promise<void> {
    this.records.push(record);
    if (this.records.length > this.limit) this.records.shift();
  }
}

/**
 * Every call attempt and every tool-list change is recorded. A failing sink is reported loudly
 * but never loses the tool result for the model.
 */
export class AuditLog {
  private readonly _onDidRecord = new Emitter<AuditRecord>();
  readonly onDidRecord = this._onDidRecord.event;

  private sinks: readonly AuditSink[];
  private file?: JsonlFileSink;

  constructor(
    private readonly extraSinks: readonly AuditSink[],
    private readonly logger?: Logger,
  ) {
    this.sinks = extraSinks;
  }

  /** Path of the JSONL file records go to, if any. */
  get path(): string | undefined {
    return this.file?.path;
  }

  /** Write to this JSONL file from now on (undefined: none). The open file is kept when the path is unchanged. */
  useFile(path: string | undefined): void {
    if (this.file?.path === path) return;
    this.file?.dispose();
    this.file = path ? new JsonlFileSink(path) : undefined;
    this.sinks = this.file ? [...this.extraSinks, this.file] : this.extraSinks;
  }

  async record(record: AuditRecord): Promise<void> {
    await Promise.all(
      this.sinks.map((s) =>
        s.write(record).catch((e: unknown) => {
          const where = s instanceof JsonlFileSink ? ` to ${s.path}` : '';
          this.logger?.error(`audit: could not write a record${where}: ${e instanceof Error ? e.message : String(e)}`);
        }),
      ),
    );
    this._onDidRecord.fire(record);
  }

  dispose(): void {
    for (const s of this.sinks) s.dispose?.();
    this._onDidRecord.dispose();
  }
}
