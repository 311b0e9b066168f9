import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** The head of an audit file: the last record anchored outside the file, so removing it is noticed. */
export interface AuditHead {
  readonly seq: number;
  readonly hash: string;
  readonly ts: string;
}

/** `audit.jsonl` → `audit.jsonl.head`. */
export function headPath(file: string): string {
  return `${file}.head`;
}

/** The name a rotated file gets: `audit.jsonl` → `audit.20261203T091500123Z.jsonl`. */
export function rotatedPath(file: string, now: Date = new Date()): string {
  const ext = extname(file);
  const stem = basename(file, ext);
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return join(dirname(file), `${stem}.${stamp}${ext}`);
}

/** The rotated files of an audit file, oldest first (their names sort by time). */
export function rotatedFiles(file: string): string[] {
  const ext = extname(file);
  const stem = basename(file, ext);
  const re = new RegExp(`^${escape(stem)}\\.\\d{8}T\\d{9}Z${escape(ext)}$`);
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return [];
  }
  return names
    .filter((n) => re.test(n))
    .sort()
    .map((n) => join(dirname(file), n));
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
