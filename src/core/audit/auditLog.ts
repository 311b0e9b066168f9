import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import type { AuditRecord } from './auditRecord';
import type { AuditSink } from './auditSink';
import { JsonlFileSink } from './jsonlFileSink';

export type { AuditSink } from './auditSink';
export { JsonlFileSink } from './jsonlFileSink';

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
  private maxBytes?: number;

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

  /** Write to this JSONL file from now on (undefined: none). The open file is kept when the path and size limit are unchanged. */
  useFile(path: string | undefined, maxBytes?: number): void {
    if (this.file?.path === path && this.maxBytes === maxBytes) return;
    if (this.file) {
      this.file.dispose();
      this.kept.delete(this.file);
    }
    this.maxBytes = maxBytes;
    this.file = path ? new JsonlFileSink(path, maxBytes) : undefined;
    this.sinks = this.file ? [...this.extraSinks, this.file] : this.extraSinks;
  }

  /**
   * Hand the record to every sink, in the order records come, and tell `onDidRecord` at once. The
   * promise settles once every sink has kept it (the file sink writes at the end of this turn of
   * the event loop, see JsonlFileSink.write); it never rejects: a failing sink is logged.
   */
  record(record: AuditRecord): Promise<void> {
    const sinks = this.sinks;
    const kept = sinks.length === 1 ? this.keep(sinks[0], record) : Promise.all(sinks.map((s) => this.keep(s, record))).then(() => undefined);
    this._onDidRecord.fire(record);
    return kept;
  }

  /** Write what the sinks keep waiting now (e.g. before the file is read in this same turn). */
  flush(): void {
    for (const s of this.sinks) s.flush?.();
  }

  /** The sink's promise with its failure logged; one per batch when a sink answers a batch with one promise. */
  private keep(sink: AuditSink, record: AuditRecord): Promise<void> {
    const written = sink.write(record);
    const last = this.kept.get(sink);
    if (last?.written === written) return last.kept;
    const kept = written.catch((e: unknown) => {
      const where = sink instanceof JsonlFileSink ? ` to ${sink.path}` : '';
      this.logger?.error(`audit: could not write a record${where}: ${e instanceof Error ? e.message : String(e)}`);
    });
    this.kept.set(sink, { written, kept });
    return kept;
  }

  private readonly kept = new Map<AuditSink, { written: Promise<void>; kept: Promise<void> }>();

  dispose(): void {
    for (const s of this.sinks) s.dispose?.();
    this._onDidRecord.dispose();
  }
}
