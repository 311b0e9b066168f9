import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthTokens } from '@modelcontextprotocol/client';
import { issuerKeyOf, issuerOf, type CredentialStore } from './credentialStore';
import { checkMetadataIssuer } from './metadataIssuer';

/** What SDK v2 passes to a provider's credential methods: the authorization server in use. */
export interface IssuerContext {
  readonly issuer: string;
}

/**
 * One MCP server's view of the credential store, shared by both providers: the discovery result
 * (checked against RFC 8414 §3.3 on the way in and on the way out, so metadata stored before that
 * check is discovered again), and tokens and clients kept per authorization server (issuer), so
 * nothing obtained from one authorization server is ever used with another.
 */
export class ServerCredentials {
  constructor(
    readonly serverUrl: string,
    readonly store: CredentialStore,
  ) {}

  async discovery(): Promise<OAuthDiscoveryState | undefined> {
    const state = await this.store.get({ serverUrl: this.serverUrl }, 'discovery');
    if (!state) return undefined;
    try {
      checkMetadataIssuer(state);
      return state;
    } catch {
      return undefined;
    }
  }

  async saveDiscovery(state: OAuthDiscoveryState): Promise<void> {
    checkMetadataIssuer(state);
    await this.store.set({ serverUrl: this.serverUrl }, 'discovery', state);
  }

  forgetDiscovery(): Promise<void> {
    return this.store.delete({ serverUrl: this.serverUrl }, 'discovery');
  }

  /** The authorization server the stored discovery names. */
  async issuer(): Promise<string | undefined> {
    return issuerOf(await this.discovery());
  }

  async tokens(issuer: string | undefined): Promise<OAuthTokens | undefined> {
    if (issuer === undefined) return undefined;
    return (await this.store.get({ serverUrl: this.serverUrl, issuer }, 'tokens'))?.tokens;
  }

  /** Keeps tokens under their issuer, stamped with it (the stamp the SDK checks before using them). */
  async saveTokens(tokens: OAuthTokens, issuer: string | undefined): Promise<void> {
    if (issuer === undefined) throw new Error('tokens arrived before the authorization server was known');
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'tokens', { tokens: { ...tokens, issuer: tokens.issuer ?? issuer }, obtainedAt: Date.now() });
  }

  /** The authorization server a configured client was first used with, if any. */
  async boundIssuerOf(clientId: string): Promise<string | undefined> {
    for (const issuer of await this.store.issuers(this.serverUrl)) {
      const client = await this.store.get({ serverUrl: this.serverUrl, issuer }, 'client');
      if (client?.client_id === clientId) return client.issuer ?? issuer;
    }
    return undefined;
  }

  /** Keeps the binding of a configured client to an authorization server, never its secret. */
  async bindClient(clientId: string, issuer: string): Promise<void> {
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'client', { client_id: clientId, issuer });
  }
}

export function sameIssuer(a: string, b: string): boolean {
  return issuerKeyOf(a) === issuerKeyOf(b);
}
