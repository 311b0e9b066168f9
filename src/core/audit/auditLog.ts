import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import type { AuditRecord } from './auditRecord';

/** Where audit records go. */
export interface AuditSink {
  write(record: AuditRecord): Promise<void>;
}

/** Appends one JSON line per record. Writes are serialized so lines never interleave. */
export class JsonlFileSink implements AuditSink {
  private chain: Promise<void> = Promise.resolve();
  private dirReady = false;

  constructor(readonly path: string) {}

  write(record: AuditRecord): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    const next = this.chain.then(async () => {
      if (!this.dirReady) {
        await mkdir(dirname(this.path), { recursive: true });
        this.dirReady = true;
      }
      await appendFile(this.path, line, 'utf8');
    });
    this.chain = next.catch(() => undefined);
    return next;
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

  constructor(
    private sinks: readonly AuditSink[],
    private readonly logger?: Logger,
  ) {}

  setSinks(sinks: readonly AuditSink[]): void {
    this.sinks = sinks;
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
    this._onDidRecord.dispose();
  }
}
