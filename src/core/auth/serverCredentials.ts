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

  /**
   * Keeps tokens under their issuer, stamped with it (the stamp the SDK checks before using them). A
   * configured client that obtained them is bound to that issuer, if it was bound nowhere yet.
   */
  async saveTokens(tokens: OAuthTokens, issuer: string | undefined, configuredClientId?: string): Promise<void> {
    if (issuer === undefined) throw new Error('tokens arrived before the authorization server was known');
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'tokens', { tokens: { ...tokens, issuer: tokens.issuer ?? issuer }, obtainedAt: Date.now() });
    if (configuredClientId !== undefined && (await this.boundIssuerOf(configuredClientId)) === undefined) await this.bindClient(configuredClientId, issuer);
  }

  /** The authorization server a configured client was first used with, if any. */
  async boundIssuerOf(clientId: string): Promise<string | undefined> {
    for (const issuer of await this.store.issuers(this.serverUrl)) {
      const client = await this.store.get({ serverUrl: this.serverUrl, issuer }, 'client');
      if (client?.client_id === clientId) return client.issuer ?? issuer;
    }
    return undefined;
  }

  /**
   * The issuer to stamp a configured client with for the authorization server in use (`issuer`): the
   * one it is bound to, else the one in use (bound there once it issues tokens, see `saveTokens`).
   * A configured client exists at the authorization server that first accepted it, and is never
   * presented to another one, nor replaced there by a registration the user did not configure
   * (SEP-2352: credentials are not portable across authorization servers): throws saying so. The
   * stamp also keeps SDK v2 from warning about an unstamped credential on every first use.
   */
  async configuredClientIssuer(clientId: string, issuer: string | undefined): Promise<string | undefined> {
    const bound = await this.boundIssuerOf(clientId);
    if (bound !== undefined && issuer !== undefined && !sameIssuer(bound, issuer)) {
      throw new Error(
        `the configured client "${clientId}" was first used with the authorization server ${bound}, but ${this.serverUrl} now names ${issuer}; ` +
          'its credentials are not sent there and no other client is registered there. Configure a client of the new authorization server, ' +
          'or sign out of this server to use this one there.',
      );
    }
    return bound ?? issuer;
  }

  /** Keeps the binding of a configured client to an authorization server, never its secret. */
  async bindClient(clientId: string, issuer: string): Promise<void> {
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'client', { client_id: clientId, issuer });
  }
}

function sameIssuer(a: string, b: string): boolean {
  return issuerKeyOf(a) === issuerKeyOf(b);
}
