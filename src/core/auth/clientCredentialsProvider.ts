import * as crypto from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type { CredentialStore } from './credentialStore';
import { CLIENT_NAME } from './hostOAuthProvider';
import type { JwtSigningAlgorithm } from '../settings/oauthSettings';
import { ServerCredentials, type IssuerContext } from './serverCredentials';

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
 * never the secret, is stored); it is never presented to another one, and no client is registered
 * there instead, so a server cannot redirect these credentials elsewhere by changing its metadata.
 */
export class ClientCredentialsProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly options: ClientCredentialsProviderOptions;
  private readonly credentials: ServerCredentials;

  constructor(options: ClientCredentialsProviderOptions) {
    if (options.clientSecret === undefined && options.privateKey === undefined) {
      throw new Error('client_credentials needs a clientSecret or a privateKey');
    }
    this.options = options;
    this.credentials = new ServerCredentials(options.serverUrl, options.store);
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

  async clientInformation(ctx?: IssuerContext): Promise<OAuthClientInformationMixed> {
    const { clientId, clientSecret } = this.options;
    // Refused here rather than by the SDK: given a client stamped for another issuer, SDK v2 would
    // register a new client at the authorization server the MCP server now names.
    const stamp = await this.credentials.configuredClientIssuer(clientId, ctx?.issuer ?? (await this.credentials.issuer()));
    return {
      client_id: clientId,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...(stamp !== undefined ? { issuer: stamp } : {}),
    };
  }

  /** Called by the SDK for a client it stamped with an issuer: keep the binding only, never the secret. */
  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: IssuerContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    if (issuer === undefined) return;
    await this.credentials.bindClient(info.client_id, issuer);
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.credentials.discovery();
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.credentials.saveDiscovery(state);
  }

  async tokens(ctx?: IssuerContext): Promise<OAuthTokens | undefined> {
    return this.credentials.tokens(ctx?.issuer ?? (await this.credentials.issuer()));
  }

  async saveTokens(tokens: OAuthTokens, ctx?: IssuerContext): Promise<void> {
    await this.credentials.saveTokens(tokens, ctx?.issuer ?? tokens.issuer ?? (await this.credentials.issuer()), this.options.clientId);
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
      await this.credentials.forgetDiscovery();
      return;
    }
    const issuer = await this.credentials.issuer();
    if (issuer === undefined || scope === 'verifier') return;
    await store.delete({ serverUrl, issuer }, scope);
  }
}
