import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import { credentialKeyOf, type CredentialStore } from './credentialStore';
import type { OAuthSettings } from './oauthSettings';
import { whyNotOpenable } from './openableUrl';
import { SignInRequiredError } from './signInRequiredError';

export const CLIENT_NAME = 'MCP Host';

/**
 * The redirect URI a provider without a sign-in under way reports. The SDK needs one to tell an
 * interactive client from a client_credentials one (and so to refresh tokens at all); nothing is
 * ever redirected to it, because such a provider never registers a client or opens a browser.
 */
export const IDLE_REDIRECT_URL = 'http://127.0.0.1/callback';

/** What a provider needs while the user signs in. */
export interface SignInInteraction {
  /** The loopback receiver's URL, e.g. http://127.0.0.1:53124/callback. */
  readonly redirectUrl: string;
  /** The `state` sent with the authorization request (the receiver checks it). */
  readonly state: string;
  /** Opens a URL in the user's browser. Only URLs that pass `whyNotOpenable` reach it. */
  readonly openUrl: (url: URL) => Promise<void>;
}

export interface HostOAuthProviderOptions {
  readonly serverUrl: string;
  readonly store: CredentialStore;
  /** The server's `oauth` settings, variables already substituted. */
  readonly settings?: OAuthSettings;
  /** Present only for a sign-in: without it the provider uses and refreshes stored tokens, nothing more. */
  readonly interaction?: SignInInteraction;
}

/**
 * The host's OAuthClientProvider for the authorization_code grant with PKCE; the SDK's `auth()`
 * does the protocol (discovery, registration, authorization URL, exchange, refresh) and asks this
 * provider for storage and user interaction.
 *
 * Two modes:
 * - without `interaction` (every connection): stored tokens are sent and refreshed silently. When
 *   that is not enough, `auth()` ends in `clientInformation()` (nothing stored) or in
 *   `redirectToAuthorization()`, and both throw SignInRequiredError: nothing is registered, nothing
 *   opened, the server shows "needs sign-in".
 * - with `interaction` (a sign-in the user asked for): discovery is done afresh, stored tokens are
 *   ignored (a sign-in always authorizes anew, so a step-up really gets the wider scope instead of a
 *   refresh of the narrow one), a client is registered when needed, and the authorization URL is
 *   opened in the browser.
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private readonly serverUrl: string;
  private readonly store: CredentialStore;
  private readonly settings: OAuthSettings | undefined;
  private readonly interaction: SignInInteraction | undefined;
  /** Discovery done during this sign-in (interactive mode only). */
  private freshDiscovery: OAuthDiscoveryState | undefined;
  private verifier: string | undefined;

  constructor(options: HostOAuthProviderOptions) {
    this.serverUrl = options.serverUrl;
    this.store = options.store;
    this.settings = options.settings;
    this.interaction = options.interaction;
  }

  get redirectUrl(): string {
    return this.interaction?.redirectUrl ?? IDLE_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.settings?.scopes;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native app cannot keep a secret; PKCE protects the code. An authorization server that
      // wants a confidential client says so in its registration response, and the SDK follows it.
      token_endpoint_auth_method: 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  async state(): Promise<string> {
    // auth() asks for the state just before building the authorization URL: the point where an
    // idle provider stops.
    if (!this.interaction) throw new SignInRequiredError(this.serverUrl, await this.currentIssuer());
    return this.interaction.state;
  }

  /** The authorization server in use: found during this sign-in, else the one stored for the server. */
  async currentIssuer(): Promise<string | undefined> {
    const discovery = this.interaction ? this.freshDiscovery : await this.store.get({ serverUrl: this.serverUrl }, 'discovery');
    return discovery?.authorizationServerUrl;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.interaction) return this.freshDiscovery;
    return this.store.get({ serverUrl: this.serverUrl }, 'discovery');
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    if (this.interaction) this.freshDiscovery = state;
    await this.store.set({ serverUrl: this.serverUrl }, 'discovery', state);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const issuer = await this.currentIssuer();
    const configured = this.settings?.clientId;
    if (configured !== undefined) {
      const bound = await this.boundIssuerOf(configured);
      if (bound !== undefined && issuer !== undefined && credentialKeyOf(bound) !== credentialKeyOf(issuer)) {
        throw new Error(
          `client "${configured}" was first used with the authorization server ${bound}, but ${this.serverUrl} now names ${issuer}; ` +
            'its credentials are not sent there. Sign out of this server to use the new authorization server.',
        );
      }
      return {
        client_id: configured,
        ...(this.settings?.clientSecret !== undefined ? { client_secret: this.settings.clientSecret } : {}),
        ...(bound !== undefined ? { issuer: bound } : {}),
      };
    }
    const stored = issuer === undefined ? undefined : await this.store.get({ serverUrl: this.serverUrl, issuer }, 'client');
    if (!this.interaction) {
      if (stored) return stored;
      throw new SignInRequiredError(this.serverUrl, issuer);
    }
    // A registration lists the redirect URIs it was made for. The receiver's port changes with every
    // sign-in; an authorization server that does not allow any port on loopback (RFC 8252 §7.3)
    // would refuse the new one, so such a registration is made again.
    if (stored && 'redirect_uris' in stored && Array.isArray(stored.redirect_uris) && !stored.redirect_uris.includes(this.redirectUrl)) {
      return undefined;
    }
    return stored;
  }

  private async boundIssuerOf(clientId: string): Promise<string | undefined> {
    for (const issuer of await this.store.issuers(this.serverUrl)) {
      const client = await this.store.get({ serverUrl: this.serverUrl, issuer }, 'client');
      if (client?.client_id === clientId) return client.issuer ?? issuer;
    }
    return undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const issuer = info.issuer ?? (await this.currentIssuer());
    if (issuer === undefined) return;
    // A configured client's secret stays in the settings; only its binding to this issuer is kept.
    const value = info.client_id === this.settings?.clientId ? { client_id: info.client_id, issuer } : info;
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'client', value);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.interaction) return undefined;
    const issuer = await this.currentIssuer();
    if (issuer === undefined) return undefined;
    return (await this.store.get({ serverUrl: this.serverUrl, issuer }, 'tokens'))?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const issuer = tokens.issuer ?? (await this.currentIssuer());
    if (issuer === undefined) throw new Error('tokens arrived before the authorization server was known');
    await this.store.set({ serverUrl: this.serverUrl, issuer }, 'tokens', { tokens, obtainedAt: Date.now() });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.interaction) throw new SignInRequiredError(this.serverUrl, await this.currentIssuer());
    const metadata = this.freshDiscovery?.authorizationServerMetadata;
    // MCP authorization: without code_challenge_methods_supported the server does not support PKCE,
    // and the client must refuse to proceed. (No metadata at all is the 2025-03-26 fallback, where
    // the default endpoints are used and PKCE is always sent.)
    if (metadata && !metadata.code_challenge_methods_supported?.includes('S256')) {
      throw new Error(`the authorization server ${metadata.issuer} does not announce PKCE (S256) support; sign-in refused`);
    }
    const why = whyNotOpenable(authorizationUrl);
    if (why) throw new Error(`the authorization URL is not opened: ${why}`);
    await this.interaction.openUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.verifier = codeVerifier;
    const issuer = await this.currentIssuer();
    if (issuer !== undefined) await this.store.set({ serverUrl: this.serverUrl, issuer }, 'codeVerifier', codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    if (this.verifier !== undefined) return this.verifier;
    const issuer = await this.currentIssuer();
    const stored = issuer === undefined ? undefined : await this.store.get({ serverUrl: this.serverUrl, issuer }, 'codeVerifier');
    if (stored === undefined) throw new Error('no PKCE code verifier: the sign-in was not started by this host');
    return stored;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all') {
      this.freshDiscovery = undefined;
      this.verifier = undefined;
      await this.store.forget(this.serverUrl);
      return;
    }
    if (scope === 'discovery') {
      this.freshDiscovery = undefined;
      await this.store.delete({ serverUrl: this.serverUrl }, 'discovery');
      return;
    }
    if (scope === 'verifier') this.verifier = undefined;
    const issuer = await this.currentIssuer();
    if (issuer === undefined) return;
    const kind = scope === 'verifier' ? 'codeVerifier' : scope;
    await this.store.delete({ serverUrl: this.serverUrl, issuer }, kind);
  }
}
