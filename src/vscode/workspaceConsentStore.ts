import type * as vscode from 'vscode';
import { StoredConsentSchema, type ConsentStore, type StoredConsent } from '../core/consent/consentStore';

const KEY = 'mcpHost.serverConsent';

/** Consent kept in the workspace state: per user and workspace, outside the repository. */
export class WorkspaceConsentStore implements ConsentStore {
  constructor(private readonly state: vscode.Memento) {}

  /** An answer that does not read (an older or damaged entry) is no answer: the server is asked again. */
  async get(server: string): Promise<StoredConsent | undefined> {
    const parsed = StoredConsentSchema.safeParse(this.state.get<Record<string, unknown>>(KEY, {})[server]);
    return parsed.success ? parsed.data : undefined;
  }

  async set(server: string, consent: StoredConsent): Promise<void> {
    await this.state.update(KEY, { ...this.state.get<Record<string, StoredConsent>>(KEY, {}), [server]: consent });
  }
}
