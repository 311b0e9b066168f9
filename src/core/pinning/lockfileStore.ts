import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { emptyLockfile, LockfileError, parseLockfile, serializeLockfile, type Lockfile } from './lockfile';

/** What reading the lockfile gave: the lockfile (empty when there is none), or why it cannot be used. */
export type LockfileRead = { readonly lock: Lockfile; readonly exists: boolean } | { readonly error: string };

/** Where the lockfile lives: the workspace's `mcp-host.lock.json`, or memory (no workspace folder, tests). */
export interface LockfileStore {
  /** Shown to people ("mcp-host.lock.json in /ws", "memory"). */
  readonly location: string;
  read(): LockfileRead;
  write(lock: Lockfile): void;
}

/** The lockfile on disk; written whole to a temporary file and renamed over, so a reader never sees half of it. */
export class FileLockfileStore implements LockfileStore {
  constructor(readonly path: string) {}

  get location(): string {
    return this.path;
  }

  read(): LockfileRead {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lock: emptyLockfile(), exists: false };
      return { error: `${this.path} cannot be read: ${(e as Error).message}` };
    }
    try {
      return { lock: parseLockfile(text), exists: true };
    } catch (e) {
      if (e instanceof LockfileError) return { error: `${this.path} is not a valid lockfile: ${e.message}` };
      throw e;
    }
  }

  write(lock: Lockfile): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    writeFileSync(tmp, serializeLockfile(lock));
    renameSync(tmp, this.path);
  }
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
