import { USAGE } from './usage';

/* The help of `mcp-host audit verify` and `mcp-host audit export` (no common options: they start no server). */

export const AUDIT_VERIFY = `Usage: ${USAGE['audit verify']}

Checks the hash chain of audit files: every record carries "seq" and "prev" (the sha256 of the line
before it); the first record of a rotated-into file names the file before it ("prevFile") and links to
its last line; the head file (<file>.head) anchors the last record. Names the first line that was
altered, removed or inserted. Without FILEs: the workspace's mcpHost.audit.path and its rotated files
(<name>.<timestamp>.jsonl), oldest first.

  --json   { "ok", "files": [{ "file", "records", "firstSeq", "lastSeq", "unchained", "anchored",
                               "problems": [{ "file", "line", "kind", "message" }] }] }

Exit: 0 when every chain is intact, 1 otherwise.`;

export const AUDIT_EXPORT = `Usage: ${USAGE['audit export']}

Prints the records of the audit files (default: the workspace's, rotated ones first) on stdout.

  --since DATE        Records at or after DATE (e.g. 2026-01-31 or 2026-01-31T12:00:00Z).
  --server NAME       Records of this server.
  --outcome OUTCOME   Call records with this outcome (ok, denied, quarantined, ...).
  --format jsonl|csv  JSON lines as written (default), or CSV with a header row.`;
