import type { AuditRecord } from './auditRecord';

/** Where audit records go. */
export interface AuditSink {
  /** Settles once the record is kept (for a file: its line is in the file). */
  write(record: AuditRecord): Promise<void>;
  /** Write what waits now (a sink that batches). */
  flush?(): void;
  dispose?(): void;
}
