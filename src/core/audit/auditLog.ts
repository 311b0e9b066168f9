import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import type { AuditRecord } from './auditRecord';
import type { AuditSink, WriteOptions } from './auditSink';
import { JsonlFileSink } from './jsonlFileSink';

export type { AuditSink, WriteOptions } from './auditSink';
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
    this.file?.dispose();
    this.maxBytes = maxBytes;
    this.file = path ? new JsonlFileSink(path, maxBytes) : undefined;
    this.sinks = this.file ? [...this.extraSinks, this.file] : this.extraSinks;
  }

  async record(record: AuditRecord, o?: WriteOptions): Promise<void> {
    await Promise.all(
      this.sinks.map((s) =>
        s.write(record, o).catch((e: unknown) => {
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
