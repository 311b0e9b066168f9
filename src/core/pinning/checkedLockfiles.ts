import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What is known of one lockfile content: a valid lockfile in canonical form, or valid but not canonical. */
export type CheckedForm = 'canonical' | 'other';

/**
 * Remembers, per lockfile path, the sha256 of the last content that was read in full and found to
 * be a valid lockfile, and whether it was in canonical form (exactly what serializeLockfile writes
 * for it). Content with that digest can then be read one entry at a time (canonicalServerEntry)
 * without parsing 15 MB first; anything else, or a changed byte, is parsed in full as before.
 * Kept in a folder of the user's (the CLI's configuration folder), one small file per lockfile
 * path; best effort: a folder that cannot be written only means every read parses in full.
 */
export class CheckedLockfiles {
  constructor(private readonly dir: string) {}

  static digest(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** What was found for this content of `lockfile` the last time it was read in full, if anything. */
  known(lockfile: string, digest: string): CheckedForm | undefined {
    let text: string;
    try {
      text = readFileSync(this.markerOf(lockfile), 'utf8');
    } catch {
      return undefined;
    }
    const [d, form] = text.trim().split(' ');
    return d === digest && (form === 'canonical' || form === 'other') ? form : undefined;
  }

  remember(lockfile: string, digest: string, form: CheckedForm): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const marker = this.markerOf(lockfile);
      const tmp = `${marker}.${process.pid}.tmp`;
      writeFileSync(tmp, `${digest} ${form}\n`);
      renameSync(tmp, marker);
    } catch {
      // Only an optimisation: the next read parses in full.
    }
  }

  private markerOf(lockfile: string): string {
    return join(this.dir, createHash('sha256').update(lockfile).digest('hex').slice(0, 32));
  }
}
