import * as crypto from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type { CredentialStore } from './credentialStore';
import { CLIENT_NAME } from './hostOAuthProvider';
import type { JwtSigningAlgorithm } from './oauthSettings';

export interface ClientCredentialsProviderOptions {
  readonly serverUrl: string;
  readonly store: CredentialStore;
  readonly clientId: string;
  /** client_secret_basic / client_secret_post, as the authorization server supports. */
  readonly clientSecret?: string;
  /** A PKCS#8 PEM private key: private_key_jwt (RFC 7523). */
  readonly privateKey?: string;
  /** Default: from the key (EC P-256 → ES256, P-384 → ES384, P-521 → ES512, RSA → RS256, RSA-PSS → PS256). */
  readonly signingAlgorithm?: JwtSigningAlgorithm;
  readonly scopes?: readonly string[];
}

/** The JWS algorithm that fits a PEM private key; the error never quotes the key. */
export function signingAlgorithmForKey(pem: string): JwtSigningAlgorithm {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(pem);
  } catch {
    throw new Error('privateKey is not a PEM private key (PKCS#8, "-----BEGIN PRIVATE KEY-----")');
  }
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
      if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
      if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
      throw new Error(`privateKey uses the curve ${curve ?? 'unknown'}; use P-256, P-384 or P-521, or set signingAlgorithm`);
    }
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    default:
      throw new Error(`privateKey is a ${key.asymmetricKeyType ?? 'unknown'} key; private_key_jwt here needs an EC or RSA key`);
  }
}

/**
 * OAuthClientProvider for the client_credentials grant (machine use, CI): never a browser. The
 * client authenticates with its secret (the SDK picks client_secret_basic or _post from the
 * authorization server's metadata) or with a JWT signed by its private key, made by the SDK's
 * `createPrivateKeyJwtAuth` (auth-extensions). Tokens are kept in the store, keyed by server URL and
 * issuer; an expired token is simply replaced by a new one on the next 401.
 *
 * The configured client is bound to the first authorization server that accepts it (the binding,
 * never the secret, is stored); the SDK then refuses to present it to another one, so a server
 * cannot redirect these credentials elsewhere by changing its metadata.
 */
export class ClientCredentialsProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly options: ClientCredentialsProviderOptions;

  constructor(options: ClientCredentialsProviderOptions) {
    if (options.clientSecret === undefined && options.privateKey === undefined) {
      throw new Error('client_credentials needs a clientSecret or a privateKey');
    }
    this.options = options;
    if (options.privateKey !== undefined) {
      const alg = options.signingAlgorithm ?? signingAlgorithmForKey(options.privateKey);
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: options.clientId,
        subject: options.clientId,
        privateKey: options.privateKey,
        alg,
      });
    }
  }

  /** No redirect: this tells the SDK's `auth()` to fetch tokens directly. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.options.scopes;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: this.options.privateKey !== undefined ? 'private_key_jwt' : 'client_secret_basic',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  private async issuer(): Promise<string | undefined> {
    return (await this.options.store.get({ serverUrl: this.options.serverUrl }, 'discovery'))?.authorizationServerUrl;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed> {
    const { serverUrl, store, clientId, clientSecret } = this.options;
    let bound: string | undefined;
    for (const issuer of await store.issuers(serverUrl)) {
      const client = await store.get({ serverUrl, issuer }, 'client');
      if (client?.client_id === clientId) bound = client.issuer ?? issuer;
    }
    return {
      client_id: clientId,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...(bound !== undefined ? { issuer: bound } : {}),
    };
  }

  /** Called by the SDK once an authorization server accepted the client: keep the binding only. */
  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (info.issuer === undefined) return;
    await this.options.store.set({ serverUrl: this.options.serverUrl, issuer: info.issuer }, 'client', {
      client_id: info.client_id,
      issuer: info.issuer,
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.options.store.get({ serverUrl: this.options.serverUrl }, 'discovery');
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.store.set({ serverUrl: this.options.serverUrl }, 'discovery', state);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const issuer = await this.issuer();
    if (issuer === undefined) return undefined;
    return (await this.options.store.get({ serverUrl: this.options.serverUrl, issuer }, 'tokens'))?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const issuer = tokens.issuer ?? (await this.issuer());
    if (issuer === undefined) throw new Error('tokens arrived before the authorization server was known');
    await this.options.store.set({ serverUrl: this.options.serverUrl, issuer }, 'tokens', { tokens, obtainedAt: Date.now() });
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  redirectToAuthorization(): never {
    throw new Error('client_credentials never opens a browser');
  }

  saveCodeVerifier(): void {
    // client_credentials has no PKCE.
  }

  codeVerifier(): never {
    throw new Error('client_credentials has no PKCE code verifier');
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const { serverUrl, store } = this.options;
    if (scope === 'all') {
      await store.forget(serverUrl);
      return;
    }
    if (scope === 'discovery') {
      await store.delete({ serverUrl }, 'discovery');
      return;
    }
    const issuer = await this.issuer();
    if (issuer === undefined || scope === 'verifier') return;
    await store.delete({ serverUrl, issuer }, scope);
  }
}
