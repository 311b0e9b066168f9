import { AUDIT_RECORD_KINDS } from '../core/audit/auditRecord';
import { USAGE } from './usage';

/* The help of `mcp-host audit verify` and `mcp-host audit export` (no common options: they start no server). */

export const AUDIT_VERIFY = `Usage: ${USAGE['audit verify']}

Checks the hash chain of audit files: every record carries "seq" and "prev" (the sha256 of the line
before it); the first record of a rotated-into file names the file before it ("prevFile") and links to
its last line; the head file (<file>.head) anchors the last record. Names the first line that was
altered, removed or inserted. A chained file whose end nothing anchors (its head file is missing and
no later file continues its chain) fails as "unanchored": records removed from its end together with
the head file would leave no other trace. Without FILEs: the workspace's mcpHost.audit.path and its
rotated files (<name>.<timestamp>.jsonl), oldest first.

  --allow-unanchored  A file without a head file is expected (e.g. a copy of the records alone):
                      it is reported as not anchored but does not fail.
  --json              { "ok", "files": [{ "file", "records", "firstSeq", "lastSeq", "unchained", "anchored",
                        "problems": [{ "file", "line", "kind", "message" }] }] }
                      (kind: altered, removed, inserted or unanchored)

Exit: 0 when every chain is intact and anchored, 1 otherwise.`;

export const AUDIT_EXPORT = `Usage: ${USAGE['audit export']}

Prints the records of the audit files (default: the workspace's, rotated ones first) on stdout.

  --since DATE        Records at or after DATE (e.g. 2026-01-31 or 2026-01-31T12:00:00Z).
  --server NAME       Records of this server.
  --kind KIND         Records of this kind: ${AUDIT_RECORD_KINDS.join(', ')}.
  --outcome OUTCOME   Call records with this outcome (ok, denied, quarantined, ...); with --kind,
                      records of that kind with this outcome (e.g. --kind resource --outcome notAllowed).
  --format jsonl|csv  JSON lines as written (default), or CSV with a header row.`;
