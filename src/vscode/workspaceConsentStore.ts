import type * as vscode from 'vscode';
import type { ConsentStore, StoredConsent } from '../core/consent/consentStore';

const KEY = 'mcpHost.serverConsent';

/** Consent kept in the workspace state: per user and workspace, outside the repository. */
export class WorkspaceConsentStore implements ConsentStore {
  constructor(private readonly state: vscode.Memento) {}

  async get(server: string): Promise<StoredConsent | undefined> {
    return this.state.get<Record<string, StoredConsent>>(KEY, {})[server];
  }

  async set(server: string, consent: StoredConsent): Promise<void> {
    await this.state.update(KEY, { ...this.state.get<Record<string, StoredConsent>>(KEY, {}), [server]: consent });
  }
}
