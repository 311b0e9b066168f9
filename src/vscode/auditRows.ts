import type { AuditLine } from '../core/audit/exportAudit';

/** One audit record as the audit view's table shows it (the webview's only input). */
export interface AuditRow {
  readonly id: number;
  readonly ts: string;
  readonly kind: string;
  readonly role: string;
  readonly server: string;
  readonly tool: string;
  /** A call's outcome; for other records what happened (`approve`, `allow`, `tools changed`). */
  readonly outcome: string;
  readonly durationMs: number | null;
  readonly confirmedBy: string;
  /** What the detail pane shows: a call's arguments and result, or the whole record. */
  readonly args: unknown;
  readonly result: string;
}

/** Most records handed to the view: the newest ones. */
export const MAX_ROWS = 5000;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

export function toAuditRow(r: AuditLine, id: number): AuditRow {
  const by = r.by && typeof r.by === 'object' ? (r.by as { user?: string; via?: string }) : undefined;
  const common = { id, ts: str(r.ts), kind: str(r.kind), role: str(r.role), server: str(r.server) };
  if (r.kind === 'call') {
    return { ...common, tool: str(r.tool ?? r.name), outcome: str(r.outcome), durationMs: typeof r.durationMs === 'number' ? r.durationMs : null, confirmedBy: str(r.confirmedBy), args: r.args ?? {}, result: str(r.result) };
  }
  const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !['ts', 'kind', 'server', 'seq', 'prev', 'prevFile'].includes(k)));
  const outcome = r.kind === 'toolsChanged' ? 'tools changed' : r.kind === 'review' || r.kind === 'consent' ? `${r.kind}: ${str(r.decision)}` : str(r.kind);
  return { ...common, tool: '', outcome, durationMs: null, confirmedBy: by ? `${by.user} (${by.via})` : '', args: rest, result: r.kind === 'consent' ? str(r.target) : '' };
}

export function toAuditRows(lines: readonly AuditLine[]): AuditRow[] {
  const from = Math.max(0, lines.length - MAX_ROWS);
  return lines.slice(from).map((l, i) => toAuditRow(l, from + i));
}
