import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { canonicalServerEntry } from './canonicalLockfile';
import { CheckedLockfiles } from './checkedLockfiles';
import { emptyLockfile, LockfileError, parseLockfile, serializeLockfile, type LockedServer, type Lockfile } from './lockfile';

/**
 * What reading the lockfile gave: the lockfile (empty when there is none), or why it cannot be used.
 * `server`, when present, reads one server's entry (of its tools only `tools`, when given) without
 * materialising the rest; it answers exactly what `lock.servers[name]` holds for those tools.
 */
export type LockfileRead =
  | { readonly lock: Lockfile; readonly exists: boolean; server?(name: string, tools?: readonly string[]): LockedServer | undefined }
  | { readonly error: string };

/** Where the lockfile lives: the workspace's `mcp-host.lock.json`, or memory (no workspace folder, tests). */
export interface LockfileStore {
  /** Shown to people ("mcp-host.lock.json in /ws", "memory"). */
  readonly location: string;
  read(): LockfileRead;
  write(lock: Lockfile): void;
}

/**
 * The lockfile on disk; written whole to a temporary file and renamed over, so a reader never sees half of it.
 * With `checked` (the CLI), content already found valid and canonical is read one entry at a time.
 */
export class FileLockfileStore implements LockfileStore {
  constructor(
    readonly path: string,
    private readonly checked?: CheckedLockfiles,
  ) {}

  get location(): string {
    return this.path;
  }

  read(): LockfileRead {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lock: emptyLockfile(), exists: false };
      return { error: `${this.path} cannot be read: ${(e as Error).message}` };
    }
    const digest = this.checked && CheckedLockfiles.digest(bytes);
    const known = digest === undefined ? undefined : this.checked!.known(this.path, digest);
    if (known === 'canonical') return entryByEntry(bytes);
    const text = bytes.toString('utf8');
    let lock: Lockfile;
    try {
      lock = parseLockfile(text);
    } catch (e) {
      if (e instanceof LockfileError) return { error: `${this.path} is not a valid lockfile: ${e.message}` };
      throw e;
    }
    if (digest !== undefined && known === undefined) this.checked!.remember(this.path, digest, serializeLockfile(lock) === text ? 'canonical' : 'other');
    return { lock, exists: true };
  }

  write(lock: Lockfile): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    const text = serializeLockfile(lock);
    writeFileSync(tmp, text);
    renameSync(tmp, this.path);
    this.checked?.remember(this.path, CheckedLockfiles.digest(Buffer.from(text)), 'canonical');
  }
}

/** A lockfile known valid and canonical: each server's entry is parsed when asked for; the whole only when needed. */
function entryByEntry(bytes: Buffer): LockfileRead {
  let whole: Lockfile | undefined;
  const lock = (): Lockfile => (whole ??= parseLockfile(bytes.toString('utf8')));
  // By server name, or name and the tools asked for: pins ask again at each recompute.
  const entries = new Map<string, LockedServer | undefined>();
  return {
    exists: true,
    get lock() {
      return lock();
    },
    server(name, tools) {
      try {
        if (whole) return whole.servers[name];
        const key = JSON.stringify(tools === undefined ? [name] : [name, ...tools]);
        if (!entries.has(key)) entries.set(key, canonicalServerEntry(bytes, name, tools));
        return entries.get(key);
      } catch {
        // Not the form its digest promised (a marker written by hand?): read it whole, as without one.
        return lock().servers[name];
      }
    },
  };
}

/** Approvals kept for this process only. */
export class MemoryLockfileStore implements LockfileStore {
  readonly location = 'memory (no workspace folder)';
  writes = 0;
  constructor(private lock: Lockfile = emptyLockfile()) {}
  read(): LockfileRead {
    return { lock: this.lock, exists: this.writes > 0 || Object.keys(this.lock.servers).length > 0 };
  }
  write(lock: Lockfile): void {
    this.lock = lock;
    this.writes++;
  }
}
