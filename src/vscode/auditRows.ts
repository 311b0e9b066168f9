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
  /** A call's whole time, waiting for a person included. */
  readonly durationMs: number | null;
  /** The server's time (for an older record in which nobody was asked: its whole time); null when unknown or not called. */
  readonly serverMs: number | null;
  /** The time a person took to answer the confirmation; null when nobody was asked (or in older records). */
  readonly confirmWaitMs: number | null;
  readonly confirmedBy: string;
  /** What the detail pane shows: a call's arguments and result, or the whole record. */
  readonly args: unknown;
  readonly result: string;
}

/** Most records handed to the view: the newest ones. */
export const MAX_ROWS = 5000;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Outcomes only a server's answer gives: the server was called. */
const ANSWERED = new Set(['ok', 'isError', 'timeout']);

/**
 * The server's time of a call record. Records written before the times were kept apart have only
 * `durationMs`: for a call the server answered without a person being asked, that is the server's
 * time (plus the host's few ms); otherwise it is unknown.
 */
function serverTime(r: AuditLine): number | null {
  if (typeof r.serverMs === 'number' || 'confirmWaitMs' in r) return num(r.serverMs);
  return ANSWERED.has(str(r.outcome)) && r.confirmedBy !== 'user' ? num(r.durationMs) : null;
}

export function toAuditRow(r: AuditLine, id: number): AuditRow {
  const by = r.by && typeof r.by === 'object' ? (r.by as { user?: string; via?: string }) : undefined;
  const common = { id, ts: str(r.ts), kind: str(r.kind), role: str(r.role), server: str(r.server) };
  if (r.kind === 'call') {
    return {
      ...common,
      tool: str(r.tool ?? r.name),
      outcome: str(r.outcome),
      durationMs: num(r.durationMs),
      serverMs: serverTime(r),
      confirmWaitMs: num(r.confirmWaitMs),
      confirmedBy: str(r.confirmedBy),
      args: r.args ?? {},
      result: str(r.result),
    };
  }
  const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !['ts', 'kind', 'server', 'seq', 'prev', 'prevFile'].includes(k)));
  const outcome = r.kind === 'toolsChanged' ? 'tools changed' : r.kind === 'review' || r.kind === 'consent' ? `${r.kind}: ${str(r.decision)}` : str(r.kind);
  return { ...common, tool: '', outcome, durationMs: null, serverMs: null, confirmWaitMs: null, confirmedBy: by ? `${by.user} (${by.via})` : '', args: rest, result: r.kind === 'consent' ? str(r.target) : '' };
}

export function toAuditRows(lines: readonly AuditLine[]): AuditRow[] {
  const from = Math.max(0, lines.length - MAX_ROWS);
  return lines.slice(from).map((l, i) => toAuditRow(l, from + i));
}
