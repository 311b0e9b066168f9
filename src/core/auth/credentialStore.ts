import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';

/**
 * Where the host keeps what OAuth sign-in produces, per MCP server URL and authorization server
 * (its issuer identifier, see `issuerKeyOf`): tokens, client information (a dynamic registration, or the binding of a configured
 * client to the issuer it was first used with), the PKCE code verifier of a sign-in under way, and
 * the discovery state (which names the issuer, so it is kept per server URL only).
 *
 * The CLI implements it over a 0600 JSON file (FileCredentialStore), the editor over SecretStorage.
 * Implementations never log, print or put into an error message any stored value.
 */
export interface CredentialStore {
  get<K extends CredentialKind>(key: CredentialKey<K>, kind: K): Promise<CredentialValues[K] | undefined>;
  set<K extends CredentialKind>(key: CredentialKey<K>, kind: K, value: CredentialValues[K]): Promise<void>;
  delete(key: CredentialKey, kind: CredentialKind): Promise<void>;
  /** The issuers that hold anything for this server URL. */
  issuers(serverUrl: string): Promise<string[]>;
  /** Forget everything kept for this server URL (sign out); true when anything was kept. */
  forget(serverUrl: string): Promise<boolean>;
}

export interface StoredTokens {
  readonly tokens: OAuthTokens;
  /** Epoch ms when the tokens were received, so `expires_in` can be turned into a time. */
  readonly obtainedAt: number;
}

export interface CredentialValues {
  tokens: StoredTokens;
  client: OAuthClientInformationMixed;
  codeVerifier: string;
  discovery: OAuthDiscoveryState;
}

export type CredentialKind = keyof CredentialValues;

/** Kinds kept per server URL and issuer; `discovery` is kept per server URL only. */
export type IssuerCredentialKind = Exclude<CredentialKind, 'discovery'>;

export type CredentialKey<K extends CredentialKind = CredentialKind> = K extends 'discovery'
  ? { readonly serverUrl: string; readonly issuer?: undefined }
  : { readonly serverUrl: string; readonly issuer: string };

/**
 * The form a server URL or issuer takes as a key: parsed and serialized (so `HTTPS://Host:443/mcp`
 * and `https://host/mcp` are one key; a pathless URL gains its "/"), without its fragment. A value
 * that is not a URL is kept as written.
 */
export function credentialKeyOf(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

/**
 * The form an authorization server's issuer identifier takes as a key: `credentialKeyOf` without a
 * trailing "/". RFC 8414 issuers are compared as strings with one tolerance, a single trailing "/"
 * (`https://as.example` from metadata and `https://as.example/` from `new URL(...)` name one server;
 * the SDK's `issuersMatch` has the same rule), so both spellings are one key.
 */
export function issuerKeyOf(issuer: string): string {
  const key = credentialKeyOf(issuer);
  return key.endsWith('/') ? key.slice(0, -1) : key;
}

/**
 * The authorization server a discovery result names, as SDK v2 names it to providers (`ctx.issuer`)
 * and stamps it on tokens and clients: the metadata's `issuer`, else (no metadata: the 2025-03-26
 * default endpoints) the URL discovery used. Where protected-resource metadata named the
 * authorization server, the metadata's `issuer` has been checked to be that URL (RFC 8414 §3.3) up to
 * the trailing "/" `issuerKeyOf` drops. A 2025-03-26 server's metadata, looked up at its origin, may
 * name another issuer (conformance's back-compat scenario serves `<origin>/oauth`); the SDK keys what
 * it obtains by that name, so the host does too, and the idle provider finds the tokens the sign-in
 * stored.
 */
export function issuerOf(discovery: Pick<OAuthDiscoveryState, 'authorizationServerUrl' | 'authorizationServerMetadata'> | undefined): string | undefined {
  return discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
}
