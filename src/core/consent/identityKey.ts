import { createHmac, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

/**
 * The per-user key of the keyed hashes that stand in for resolved `${env:NAME}` values.
 *
 * Why keyed, and why per user: the lockfile and what people see keep `${env:NAME}` as written, never
 * its value, yet a change of the value must still be noticed. A plain sha256 of a value would leak
 * it (API keys, user names and paths are easy to guess and check), so the value is hashed with
 * HMAC-SHA256 under a random key that never leaves this user's machine. Such a hash means something
 * only to the user who holds the key, so it cannot live in the shared lockfile (teammate B could
 * never check teammate A's hash): the lockfile keeps only the template, and the keyed hashes live
 * in the user's own consent. A changed value is therefore caught per user, by consent.
 */
export interface IdentityKey {
  /** The key; created on first need. Rejects when it cannot be read or created (consent is then asked every time). */
  get(): Promise<Buffer>;
}

/** A key for this process only (tests, hosts without a place to keep one). */
export class MemoryIdentityKey implements IdentityKey {
  private readonly key = randomBytes(32);
  async get(): Promise<Buffer> {
    return this.key;
  }
}

/** The key's file name in the CLI's configuration folder and the editor's global storage. */
export const IDENTITY_KEY_FILE = 'identity-key';

const KeyFileSchema = z.string().trim().regex(/^[0-9a-f]{64}$/, 'expected 64 hexadecimal digits');

/** The CLI's key (and the editor's, in its global storage): 32 random bytes as hex in `file`, readable by its owner only. */
export class FileIdentityKey implements IdentityKey {
  private cached?: Buffer;

  constructor(readonly file: string) {}

  async get(): Promise<Buffer> {
    this.cached ??= this.readOrCreate();
    return this.cached;
  }

  private readOrCreate(): Buffer {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      // `wx`: a key another process wrote first is kept, and read below.
      fs.writeFileSync(this.file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`cannot create the identity key ${this.file}: ${(e as Error).message}`, { cause: e });
    }
    const parsed = KeyFileSchema.safeParse(fs.readFileSync(this.file, 'utf8'));
    if (!parsed.success) {
      throw new Error(
        `the identity key ${this.file} is not usable (${parsed.error.issues[0].message}); delete it to make a new one (servers using \${env:} variables are then asked about again)`,
      );
    }
    return Buffer.from(parsed.data, 'hex');
  }
}

/** HMAC-SHA256 of each value under the user's key, by variable name. */
export function variableHashes(key: Buffer, values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(values).sort()) out[name] = createHmac('sha256', key).update(values[name]).digest('hex');
  return out;
}

/** Names whose hash differs between two sets (added or removed names included), sorted. */
export function changedVariables(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}
