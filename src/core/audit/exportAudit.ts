import { readFileSync } from 'node:fs';

/** One audit line as read back: the record's fields plus its chain fields (`seq`, `prev`). */
export type AuditLine = Record<string, unknown> & { readonly kind?: string; readonly ts?: string };

export interface AuditFilter {
  /** Records at or after this time. */
  readonly since?: Date;
  readonly server?: string;
  /** Records of this kind (`call`, `resource`, `elicitation`, …). */
  readonly kind?: string;
  /** Records with this outcome, of `kind` when given, else call records (`ok`, `denied`, `quarantined`, …). */
  readonly outcome?: string;
}

/** Every parsable line of the files, oldest file first (unparsable lines are skipped: `audit verify` reports them). */
export function readAuditLines(files: readonly string[]): AuditLine[] {
  const out: AuditLine[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const r: unknown = JSON.parse(line);
        if (r && typeof r === 'object' && !Array.isArray(r)) out.push(r as AuditLine);
      } catch {
        // skipped
      }
    }
  }
  return out;
}

export function filterAudit(records: readonly AuditLine[], f: AuditFilter): AuditLine[] {
  const since = f.since?.getTime();
  // An outcome alone means a call's: other kinds have outcomes of their own ("denied" elicitations).
  const kind = f.kind ?? (f.outcome !== undefined ? 'call' : undefined);
  return records.filter(
    (r) =>
      (since === undefined || (typeof r.ts === 'string' && Date.parse(r.ts) >= since)) &&
      (f.server === undefined || r.server === f.server) &&
      (kind === undefined || r.kind === kind) &&
      (f.outcome === undefined || r.outcome === f.outcome),
  );
}

export const CSV_COLUMNS = ['ts', 'seq', 'kind', 'role', 'server', 'tool', 'name', 'outcome', 'durationMs', 'confirmedBy', 'args', 'result', 'definitionHash', 'decision', 'by', 'details'] as const;

const KNOWN = new Set<string>([...CSV_COLUMNS, 'prev', 'prevFile', 'isError']);

/** RFC 4180 CSV: a header row, fields quoted when needed; objects as JSON; the rest of a record's fields in `details`. */
export function toCsv(records: readonly AuditLine[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const r of records) {
    const details: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) if (!KNOWN.has(k)) details[k] = v;
    rows.push(
      CSV_COLUMNS.map((c) => {
        const v = c === 'details' ? (Object.keys(details).length ? details : undefined) : r[c];
        return csvField(v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
      }).join(','),
    );
  }
  return rows.join('\r\n') + '\r\n';
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toJsonl(records: readonly AuditLine[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}
