import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DEFAULTS } from '../settings/hostSettings';
import { chainLine, GENESIS, hashLine, readTail } from './auditChain';
import { headPath, nextRotatedPath, type AuditHead } from './auditFiles';
import type { AuditRecord } from './auditRecord';
import type { AuditSink } from './auditSink';

/** Sinks with records waiting for the end of the turn: written before the process exits, whatever ends it. */
const waiting = new Set<JsonlFileSink>();
process.once('exit', () => {
  for (const sink of [...waiting]) sink.flush();
});

/** The records of one turn, and one promise for all of them, settled once their lines are written. */
interface Batch {
  readonly records: AuditRecord[];
  readonly written: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const written = new Promise<void>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { records: [], written, resolve, reject };
}

/** How long after a record its file's head is written (records in between share one head write). */
const HEAD_DELAY_MS = 200;
/** The head's length on disk: its JSON padded with spaces, so that rewriting it in place never leaves a tail. */
const HEAD_BYTES = 192;

/**
 * Appends one JSON line per record, chained (see auditChain.ts): the record's JSON gets `seq` and
 * `prev` (the sha256 of the line before) at its end. The file is opened once in append mode
 * (O_APPEND: every write lands whole at the end, lines never interleave); the records of one turn
 * of the event loop are written together at its end, synchronously, in one write (see write):
 * `appendFile` per record cost ~100 µs per call (npm run bench). The hash is kept from write to
 * write; when the file grew under us (another host appending to it) the tail is read again first.
 * Past `maxBytes` the file is renamed with a timestamp and a new one continues the chain. The head
 * (`<file>.head`: the last seq and hash) is written with the first records, then a moment after the
 * last record and on dispose, so removing the last line is noticed too. The path is re-checked now and then, so a rotated or
 * deleted file is re-created.
 */
export class JsonlFileSink implements AuditSink {
  private fd?: number;
  private ino?: number;
  private checkedAt = 0;
  private size = 0;
  private seq = 1;
  private prev = GENESIS;
  private prevFile?: string;
  private headTimer?: NodeJS.Timeout;
  /** The head file's descriptor (see writeHead). */
  private head?: number;
  /** Records waiting for the end of this turn of the event loop (see write). */
  private batch?: Batch;
  /** The file's last line is not a chained record. */
  private unchained = false;

  constructor(
    readonly path: string,
    private readonly maxBytes = DEFAULTS.auditMaxBytes,
    private readonly recheckMs = 1000,
  ) {}

  /**
   * The record waits for the end of this turn of the event loop (setImmediate), with every other
   * record of the turn: all are written then, in order, with one fstat and one write. A call's
   * result is not held up by its record's write: the next request of a caller that goes on at once
   * is on its way to the server while the records are written. The promise settles once the
   * record's line is in the file. `flush()` (and dispose, and the process's exit) writes them at once.
   */
  write(record: AuditRecord): Promise<void> {
    let batch = this.batch;
    if (!batch) {
      batch = this.batch = newBatch();
      setImmediate(this.flushNow);
      waiting.add(this);
    }
    // Serialized when written: records are never changed once recorded (AuditLog hands the same object to every sink).
    batch.records.push(record);
    return batch.written;
  }

  /** Write the records waiting for the end of the turn now (one fstat, one write) and settle their promise. */
  flush(): void {
    const batch = this.batch;
    this.batch = undefined;
    waiting.delete(this);
    if (!batch) return;
    try {
      this.append(batch.records.map((r) => JSON.stringify(r)));
    } catch (e) {
      batch.reject(e);
      return;
    }
    batch.resolve();
  }

  private readonly flushNow = () => this.flush();

  /** Write these records' lines, chained, in one write (one per file when the file rotates between them). */
  private append(jsons: readonly string[]): void {
    try {
      this.appendLines(jsons);
    } catch (e) {
      // The chain's state may be ahead of the file now: read it from the file's end next time.
      this.size = -1;
      throw e;
    }
  }

  private appendLines(jsons: readonly string[]): void {
    let fd = this.open();
    // Another host appending to this file (the editor and a CLI call): pick up where the file ends.
    // An fstat per write (~1.5 µs) is what keeps their lines in one chain; checking less often broke it.
    if (fstatSync(fd).size !== this.size) this.resync(fd);
    // The lines as one string, hashed as they are (UTF-8, as written), encoded once for the write.
    let text = '';
    let bytes = 0;
    for (const json of jsons) {
      let line = this.line(json, this.size + bytes === 0);
      let length = Buffer.byteLength(line) + 1;
      if (this.size + bytes > 0 && this.size + bytes + length > this.maxBytes) {
        this.writeText(fd, text);
        text = '';
        bytes = 0;
        fd = this.rotate();
        line = this.line(json, true);
        length = Buffer.byteLength(line) + 1;
      }
      text += line + '\n';
      bytes += length;
      this.prev = hashLine(line);
      this.seq++;
    }
    this.writeText(fd, text);
    // A file's first head (after this writer opened or rotated it) is written at once: `audit verify`
    // fails a chained file without one, also one whose writer exits right after its first records.
    if (this.head === undefined) this.writeHead();
    else this.headTimer ??= setTimeout(() => this.writeHead(), HEAD_DELAY_MS).unref();
  }

  private writeText(fd: number, text: string): void {
    if (text.length === 0) return;
    const buf = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < buf.length) offset += writeSync(fd, buf, offset, buf.length - offset);
    this.size += buf.length;
  }

  /** The record's line (without its newline), chained to the line before. */
  private line(json: string, first: boolean): string {
    return chainLine(json, { seq: this.seq, prev: this.prev, ...(first && this.prevFile !== undefined ? { prevFile: this.prevFile } : {}) });
  }

  dispose(): void {
    this.flush();
    if (this.fd !== undefined) {
      this.writeHead();
      this.closeHead();
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
      this.fd = openSync(this.path, 'a+');
      this.ino = fstatSync(this.fd).ino;
      this.checkedAt = now;
      this.resync(this.fd);
      // Never chain onto a file written before records were chained: start a new file after it.
      if (this.unchained) this.fd = this.rotate();
    }
    return this.fd;
  }

  /** Pick up the chain where the file ends (on open, and when another writer appended). */
  private resync(fd: number): void {
    const tail = readTail(fd);
    this.size = tail.size;
    this.seq = tail.nextSeq;
    this.prev = tail.prev;
    this.unchained = tail.unchained && tail.size > 0;
  }

  /** Rename the current file with a timestamp; the next line starts a new file that names it. */
  private rotate(): number {
    this.writeHead();
    if (this.fd !== undefined) closeSync(this.fd);
    const target = nextRotatedPath(this.path);
    renameSync(this.path, target);
    this.closeHead();
    rmSync(headPath(this.path), { force: true });
    this.prevFile = basename(target);
    if (this.unchained) this.seq = 1;
    this.unchained = false;
    this.fd = openSync(this.path, 'a+');
    this.ino = fstatSync(this.fd).ino;
    this.size = 0;
    return this.fd;
  }

  /**
   * The head is rewritten in place, padded to one length, through a descriptor kept open: a
   * `writeFileSync` truncates the file each time, and ext4 then flushes it on close, which blocked
   * the event loop for milliseconds every HEAD_DELAY_MS while calls were running.
   */
  private writeHead(): void {
    if (this.headTimer) clearTimeout(this.headTimer);
    this.headTimer = undefined;
    if (this.fd === undefined || this.size <= 0) return;
    const head: AuditHead = { seq: this.seq - 1, hash: this.prev, ts: new Date().toISOString() };
    const text = JSON.stringify(head);
    try {
      const fd = this.headFd();
      writeSync(fd, text.length < HEAD_BYTES ? text.padEnd(HEAD_BYTES - 1) + '\n' : text + '\n', 0);
    } catch {
      // the chain itself is intact; only the end of the file is not anchored
      this.closeHead();
    }
  }

  /** The head file, open; opened again when it was removed or replaced (a rotation by another writer). */
  private headFd(): number {
    const path = headPath(this.path);
    if (this.head !== undefined) {
      let same = false;
      try {
        same = statSync(path).ino === fstatSync(this.head).ino;
      } catch {
        // removed
      }
      if (!same) this.closeHead();
    }
    if (this.head === undefined) {
      this.head = openSync(path, 'w');
    }
    return this.head;
  }

  private closeHead(): void {
    if (this.head === undefined) return;
    try {
      closeSync(this.head);
    } catch {
      // already closed
    }
    this.head = undefined;
  }
}
