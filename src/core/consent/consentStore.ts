import { z } from 'zod';
import type { ServerIdentity } from '../pinning/serverIdentity';

/** A person's answer about one server of one workspace, for the exact identity they were shown. */
export interface StoredConsent {
  /** sha256 of `identity`. */
  readonly identityHash: string;
  /** As it was shown: `${env:NAME}` as written, secrets masked. */
  readonly identity: ServerIdentity;
  /**
   * The values behind the identity's `${env:NAME}` when the answer was given, as keyed hashes
   * (HMAC-SHA256 under the user's identity key; see identityKey.ts), by name. Absent in answers
   * kept by earlier versions: their identities hold the values themselves (rewritten on next start).
   */
  readonly variables?: Readonly<Record<string, string>>;
  readonly allowed: boolean;
  /** When the answer was given (ISO time). */
  readonly at: string;
}

const IdentitySchema = z.union([
  z.object({ type: z.literal('stdio'), command: z.string(), args: z.array(z.string()), cwd: z.string().optional(), envKeys: z.array(z.string()) }),
  z.object({ type: z.enum(['http', 'sse']), url: z.string() }),
]);

/** One answer; `variables` is absent in answers kept by earlier versions (still read: see ServerConsent.admit). */
export const StoredConsentSchema = z.object({
  identityHash: z.string(),
  identity: IdentitySchema,
  variables: z.record(z.string(), z.string()).optional(),
  allowed: z.boolean(),
  at: z.string(),
});

/**
 * Where consent is kept: per user and workspace, never in the repository (a repository cannot
 * pre-approve its own servers). The editor keeps it in the workspace state, the CLI in the user's
 * configuration folder keyed by the workspace path.
 */
export interface ConsentStore {
  get(server: string): Promise<StoredConsent | undefined>;
  set(server: string, consent: StoredConsent): Promise<void>;
}

export class MemoryConsentStore implements ConsentStore {
  readonly entries = new Map<string, StoredConsent>();
  async get(server: string): Promise<StoredConsent | undefined> {
    return this.entries.get(server);
  }
  async set(server: string, consent: StoredConsent): Promise<void> {
    this.entries.set(server, consent);
  }
}
