import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where relative paths and `~` point when a rule looks at a path argument. */
export interface PathContext {
  /** The workspace folder: relative paths are resolved against it. */
  readonly base?: string;
  /** For `~` and `~/…` (what server-filesystem and shells expand); default: the user's home. */
  readonly home?: string;
}

/** A path a rule cannot judge (empty, NUL byte, relative without a workspace, readings that disagree). */
export class PathJudgementError extends Error {}

const MAX_LINK_HOPS = 40;
const MAX_DECODE_ROUNDS = 3;

/**
 * Whether `p` names `dir` or something below it, decided on canonical paths: `~` and `file://`
 * URLs expanded, relative paths resolved against the workspace folder, `.`/`..`/duplicate
 * separators removed, and symbolic links followed as far as the path exists (a dangling link
 * counts as its target). So `/ws/../etc/passwd` and `/ws/link-to-etc/x` are not inside `/ws`.
 *
 * A server may read the string differently than a POSIX shell: it may percent-decode it
 * (`%2e%2e%2f`) or take `\` as a separator. Every such reading is judged; when they disagree the
 * answer is not "true" or "false" but a {@link PathJudgementError}, which a rule treats as a
 * run-time failure: a `deny` rule denies the call, any other rule asks (see ArgumentRules). So an
 * ambiguous path never slips through an `allow` rule, and never past a `deny` rule — not even
 * with `--yes`, which answers questions but never a deny.
 */
export function isWithin(p: string, dir: string, ctx: PathContext = {}): boolean {
  const root = canonicalPath(dir, ctx);
  const answers = new Set(readings(p).map((r) => contains(root, canonicalPath(r, ctx))));
  if (answers.size > 1) throw new PathJudgementError(`path ${JSON.stringify(p)} is inside ${JSON.stringify(dir)} under one reading and outside under another (percent-encoding or backslashes)`);
  return answers.has(true);
}

/** The path as the host reads it literally: absolute, normalised, symbolic links resolved where they exist. */
export function canonicalPath(p: string, ctx: PathContext = {}): string {
  return resolveLinks(absolute(p, ctx), 0);
}

function contains(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The literal string, its percent-decoded forms and its backslash-as-separator forms. */
function readings(p: string): string[] {
  const out = new Set<string>([p]);
  let decoded = p;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const next = percentDecode(decoded);
    if (next === decoded) break;
    out.add((decoded = next));
  }
  for (const r of [...out]) if (r.includes('\\')) out.add(r.replace(/\\/g, '/'));
  return [...out];
}

function percentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    // Malformed somewhere (e.g. a lone "%"): decode the ASCII escapes one by one.
    return s.replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

function absolute(p: string, ctx: PathContext): string {
  if (typeof p !== 'string' || p === '') throw new PathJudgementError('empty path');
  if (p.includes('\0')) throw new PathJudgementError('path contains a NUL character');
  let s = p;
  if (/^file:/i.test(s)) {
    try {
      s = fileURLToPath(s);
    } catch (e) {
      throw new PathJudgementError(`not a usable file URL: ${(e as Error).message}`);
    }
  } else if (s === '~' || s.startsWith('~/')) {
    s = path.join(ctx.home ?? os.homedir(), s.slice(1));
  }
  if (path.isAbsolute(s)) return path.resolve(s);
  if (!ctx.base) throw new PathJudgementError(`relative path ${JSON.stringify(p)} and no workspace folder to resolve it against`);
  return path.resolve(ctx.base, s);
}

/**
 * `realpath` for the part of the path that exists; the rest is appended as written. A dangling
 * symbolic link is followed to its (missing) target, because writing through it creates the target.
 */
function resolveLinks(abs: string, hops: number): string {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    // some component is missing (or unreadable): resolve the parent, then look at the last part
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const realParent = resolveLinks(parent, hops);
  const candidate = path.join(realParent, path.basename(abs));
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(candidate);
  } catch {
    return candidate;
  }
  if (!stat.isSymbolicLink()) return candidate;
  if (hops >= MAX_LINK_HOPS) throw new PathJudgementError(`too many symbolic links at ${candidate}`);
  return resolveLinks(path.resolve(realParent, fs.readlinkSync(candidate)), hops + 1);
}
