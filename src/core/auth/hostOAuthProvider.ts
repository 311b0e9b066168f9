import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';
import { issuerOf, type CredentialStore } from './credentialStore';
import type { OAuthSettings } from '../settings/oauthSettings';
import { whyNotOpenable } from './openableUrl';
import { ServerCredentials, type IssuerContext } from './serverCredentials';
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
 *
 * Everything obtained is kept per authorization server (ServerCredentials): when a server names
 * another one, its tokens and registration are not used there, and a sign-in registers anew.
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private readonly serverUrl: string;
  private readonly credentials: ServerCredentials;
  private readonly settings: OAuthSettings | undefined;
  private readonly interaction: SignInInteraction | undefined;
  /** Discovery done during this sign-in (interactive mode only). */
  private freshDiscovery: OAuthDiscoveryState | undefined;
  private verifier: string | undefined;

  constructor(options: HostOAuthProviderOptions) {
    this.serverUrl = options.serverUrl;
    this.credentials = new ServerCredentials(options.serverUrl, options.store);
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
    const metadata: OAuthClientMetadata & { application_type: 'native' } = {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app receiving its redirect on loopback (RFC 8252; MCP 2026-07-28 registration,
      // SEP-837). SDK 1.x sends no application_type by itself; v2 derives the same from the URI.
      application_type: 'native',
      // A native app cannot keep a secret; PKCE protects the code. An authorization server that
      // wants a confidential client says so in its registration response, and the SDK follows it.
      token_endpoint_auth_method: 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
    return metadata;
  }

  async state(): Promise<string> {
    // auth() asks for the state just before building the authorization URL: the point where an
    // idle provider stops.
    if (!this.interaction) throw new SignInRequiredError(this.serverUrl, await this.currentIssuer());
    return this.interaction.state;
  }

  /** The authorization server in use: found during this sign-in, else the one stored for the server. */
  async currentIssuer(): Promise<string | undefined> {
    return issuerOf(await this.discoveryState());
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.interaction) return this.freshDiscovery;
    return this.credentials.discovery();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.credentials.saveDiscovery(state);
    if (this.interaction) this.freshDiscovery = state;
  }

  async clientInformation(ctx?: IssuerContext): Promise<OAuthClientInformationMixed | undefined> {
    const issuer = ctx?.issuer ?? (await this.currentIssuer());
    const configured = this.settings?.clientId;
    if (configured !== undefined) {
      const stamp = await this.credentials.configuredClientIssuer(configured, issuer);
      return {
        client_id: configured,
        ...(this.settings?.clientSecret !== undefined ? { client_secret: this.settings.clientSecret } : {}),
        ...(stamp !== undefined ? { issuer: stamp } : {}),
      };
    }
    const stored = issuer === undefined ? undefined : await this.credentials.store.get({ serverUrl: this.serverUrl, issuer }, 'client');
    if (!this.interaction) {
      if (stored) return stored;
      throw new SignInRequiredError(this.serverUrl, issuer);
    }
    if (stored && !this.keepsRegistration(stored)) return undefined;
    return stored;
  }

  /** Whether a sign-in keeps using a stored client rather than letting the SDK make a new one. */
  private keepsRegistration(stored: OAuthClientInformationMixed): boolean {
    // A client ID metadata document is configured and the authorization server takes them: that
    // document is the client (the SDK uses it when nothing is stored), not an older registration
    // or another document.
    const document = this.settings?.clientMetadataUrl;
    if (document !== undefined && this.freshDiscovery?.authorizationServerMetadata?.client_id_metadata_document_supported === true) {
      return stored.client_id === document;
    }
    // A registration lists the redirect URIs it was made for. The receiver's port changes with every
    // sign-in; an authorization server that does not allow any port on loopback (RFC 8252 §7.3)
    // would refuse the new one, so such a registration is made again.
    return !('redirect_uris' in stored && Array.isArray(stored.redirect_uris) && !stored.redirect_uris.includes(this.redirectUrl));
  }

  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: IssuerContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? (await this.currentIssuer());
    if (issuer === undefined) return;
    // A configured client's secret stays in the settings; only its binding to this issuer is kept.
    if (info.client_id === this.settings?.clientId) return this.credentials.bindClient(info.client_id, issuer);
    await this.credentials.store.set({ serverUrl: this.serverUrl, issuer }, 'client', { ...info, issuer: info.issuer ?? issuer });
  }

  async tokens(ctx?: IssuerContext): Promise<OAuthTokens | undefined> {
    if (this.interaction) return undefined;
    return this.credentials.tokens(ctx?.issuer ?? (await this.currentIssuer()));
  }

  async saveTokens(tokens: OAuthTokens, ctx?: IssuerContext): Promise<void> {
    await this.credentials.saveTokens(tokens, ctx?.issuer ?? tokens.issuer ?? (await this.currentIssuer()), this.settings?.clientId);
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
    if (issuer !== undefined) await this.credentials.store.set({ serverUrl: this.serverUrl, issuer }, 'codeVerifier', codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    if (this.verifier !== undefined) return this.verifier;
    const issuer = await this.currentIssuer();
    const stored = issuer === undefined ? undefined : await this.credentials.store.get({ serverUrl: this.serverUrl, issuer }, 'codeVerifier');
    if (stored === undefined) throw new Error('no PKCE code verifier: the sign-in was not started by this host');
    return stored;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all') {
      this.freshDiscovery = undefined;
      this.verifier = undefined;
      await this.credentials.store.forget(this.serverUrl);
      return;
    }
    if (scope === 'discovery') {
      this.freshDiscovery = undefined;
      await this.credentials.forgetDiscovery();
      return;
    }
    if (scope === 'verifier') this.verifier = undefined;
    const issuer = await this.currentIssuer();
    if (issuer === undefined) return;
    const kind = scope === 'verifier' ? 'codeVerifier' : scope;
    await this.credentials.store.delete({ serverUrl: this.serverUrl, issuer }, kind);
  }
}
