import type * as vscode from 'vscode';
import { DocumentCredentialStore, emptyCredentialDocument, parseCredentialDocument, type CredentialDocument } from '../core/auth/documentCredentialStore';
import type { Logger } from '../core/util/logger';

/** The SecretStorage key of the OAuth credentials document (not a `${secret:NAME}` a user would pick). */
export const OAUTH_CREDENTIALS_KEY = 'mcpHost/oauth-credentials/v1';

/**
 * The editor's CredentialStore: one document in the extension's SecretStorage (the OS keychain or
 * the editor's encrypted store), holding per server URL and authorization server (issuer) the
 * tokens, the client registration and the discovery state of OAuth sign-ins. Nothing of it is ever
 * logged; a document that cannot be read is treated as empty (sign in again) with a warning.
 */
export class SecretCredentialStore extends DocumentCredentialStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly logger: Logger,
  ) {
    super();
  }

  protected async load(): Promise<CredentialDocument> {
    const text = await this.secrets.get(OAUTH_CREDENTIALS_KEY);
    if (!text) return emptyCredentialDocument();
    try {
      return parseCredentialDocument(JSON.parse(text));
    } catch {
      // Never the content: it holds tokens.
      this.logger.warn('the stored OAuth credentials could not be read; servers that need sign-in will ask again');
      return emptyCredentialDocument();
    }
  }

  protected async save(doc: CredentialDocument): Promise<void> {
    await this.secrets.store(OAUTH_CREDENTIALS_KEY, JSON.stringify(doc));
  }
}
