import type { AuditRecord } from './auditRecord';

export interface WriteOptions {
  /** Other records are coming in this turn of the event loop (calls in flight): they may be written together. */
  readonly together?: boolean;
}

/** Where audit records go. */
export interface AuditSink {
  write(record: AuditRecord, o?: WriteOptions): Promise<void>;
  dispose?(): void;
}
