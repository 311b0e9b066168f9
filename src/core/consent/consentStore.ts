import type { ServerIdentity } from '../pinning/serverIdentity';

/** A person's answer about one server of one workspace, for the exact identity they were shown. */
export interface StoredConsent {
  readonly identityHash: string;
  readonly identity: ServerIdentity;
  readonly allowed: boolean;
  /** When the answer was given (ISO time). */
  readonly at: string;
}

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
