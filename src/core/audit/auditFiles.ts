import { existsSync, readdirSync } from 'node:fs';
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

/**
 * The name the next rotated file of `file` gets: its time, but always after the newest rotated file
 * there (the wall clock can step back; the names must keep the files' order) and never an existing name.
 */
export function nextRotatedPath(file: string, now: number = Date.now()): string {
  const newest = rotatedFiles(file).at(-1);
  const after = newest !== undefined ? stampMs(file, newest) : undefined;
  let ms = after !== undefined && after >= now ? after + 1 : now;
  while (existsSync(rotatedPath(file, new Date(ms)))) ms++;
  return rotatedPath(file, new Date(ms));
}

/** The time in a rotated file's name (`audit.20261203T091500123Z.jsonl`), by the pattern rotatedFiles lists them with. */
function stampMs(file: string, rotated: string): number | undefined {
  const m = rotatedName(file).exec(basename(rotated));
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The names rotatedPath gives `file`'s rotated files, the stamp's fields as groups. */
function rotatedName(file: string): RegExp {
  const ext = extname(file);
  return new RegExp(`^${escape(basename(file, ext))}\\.(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})(\\d{3})Z${escape(ext)}$`);
}

/** The rotated files of an audit file, oldest first (their names sort by time). */
export function rotatedFiles(file: string): string[] {
  const re = rotatedName(file);
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
