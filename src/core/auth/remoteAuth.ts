import { discoverOAuthServerInfo, type FetchLike, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import type { RemoteServerSettings } from '../settings/hostSettings';
import { Emitter } from '../util/event';
import { HOST_ISSUER_CHECK } from './metadataIssuer';
import { ChallengeRecorder, isStepUp, type AuthChallenge } from './authChallenge';
import { ClientCredentialsProvider } from './clientCredentialsProvider';
import { issuerOf, type CredentialStore } from './credentialStore';
import { HostOAuthProvider } from './hostOAuthProvider';
import { ServerCredentials } from './serverCredentials';
import { SignInAwareTransport } from './signInAwareTransport';
import { needsSignIn, SignInRequiredError } from './signInRequiredError';

/** A server refused the host until a person signs in (or signs in again with a wider scope). */
export interface SignInRequest {
  /** The server's name (key of `mcpHost.servers`). */
  readonly server: string;
  readonly serverUrl: string;
  /** The authorization server it names, when discovery got that far. */
  readonly issuer?: string;
  /** A 403 insufficient_scope: the token is valid but too narrow. */
  readonly stepUp: boolean;
  /** The scope the server asked for, if it said. */
  readonly scope?: string;
  /** What its last 401/403 said, for the next sign-in (scope, resource metadata URL). */
  readonly challenge?: AuthChallenge;
}

/** What the transports of one start of a remote server need for OAuth. */
export interface TransportAuth {
  readonly authProvider: OAuthClientProvider;
  /** Records the server's 401/403 challenges. */
  readonly fetch: FetchLike;
  /** Wraps the transport so that a refusal arrives as SignInRequiredError (or a plain error). */
  wrap(transport: Transport): Transport;
}

/** The port the transport factory asks for a remote server's auth. */
export interface RemoteAuthPort {
  /** For settings with variables resolved; undefined: the server does not use OAuth. */
  forServer(server: RemoteServerSettings): TransportAuth | undefined;
}

const hasAuthorizationHeader = (headers: Readonly<Record<string, string>>) => Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');

/**
 * OAuth for the connections of remote servers (issue 11). Every http/sse server gets a provider
 * over the credential store, keyed by its URL (and the issuer): stored tokens are sent and refreshed
 * silently, a client_credentials server fetches its own tokens, and nothing ever opens a browser
 * here (that is `signIn`, on a person's request). A server with its own `Authorization` header and
 * no `oauth` settings keeps its static credentials.
 *
 * When a server refuses the host, the failure is explained: with the MCP authorization flow (the
 * server names an authorization server, `oauth` is configured, or a server without headers of its
 * own answers 401: a 2025-03-26 server, signed in at the default endpoints of its origin) it becomes
 * a SignInRequiredError and a SignInRequest is remembered and announced; otherwise it stays an HTTP
 * error ("check the server's headers and secrets"), and a client_credentials server's refusal stays
 * the error it is.
 *
 * A refusal of credentials the host had means the server may have moved to another authorization
 * server: discovery is done again (SDK v2 leaves this to the host: `invalidateCredentials
 * ('discovery')` "on repeated 401s"), so the request names the authorization server the server
 * names now, and the next sign-in registers there instead of asking for the old one.
 */
export class RemoteAuth implements RemoteAuthPort {
  private readonly _onDidRequireSignIn = new Emitter<SignInRequest>();
  /** A connection or a call of a server was refused until someone signs in. */
  readonly onDidRequireSignIn = this._onDidRequireSignIn.event;
  private readonly requests = new Map<string, SignInRequest>();

  constructor(readonly store: CredentialStore) {}

  forServer(server: RemoteServerSettings): TransportAuth | undefined {
    const oauth = server.oauth;
    if (!oauth && hasAuthorizationHeader(server.headers)) return undefined;
    const serverUrl = server.url;
    const store = this.store;
    const credentials = new ServerCredentials(serverUrl, store);
    const recorder = new ChallengeRecorder(serverUrl);
    const authProvider: OAuthClientProvider =
      oauth?.grant === 'client_credentials'
        ? new ClientCredentialsProvider({
            serverUrl,
            store,
            clientId: oauth.clientId ?? '',
            ...(oauth.clientSecret !== undefined ? { clientSecret: oauth.clientSecret } : {}),
            ...(oauth.privateKey !== undefined ? { privateKey: oauth.privateKey } : {}),
            ...(oauth.signingAlgorithm !== undefined ? { signingAlgorithm: oauth.signingAlgorithm } : {}),
            ...(oauth.scopes ? { scopes: oauth.scopes } : {}),
          })
        : new HostOAuthProvider({ serverUrl, store, ...(oauth ? { settings: oauth } : {}) });
    const explain = async (error: unknown): Promise<unknown> => {
      if (!needsSignIn(error)) return error;
      const challenge = recorder.take();
      const stepUp = isStepUp(challenge);
      let discovery;
      try {
        discovery = stepUp ? await credentials.discovery().catch(() => undefined) : await rediscoverIfRefused(credentials, challenge, recorder.fetch);
      } catch (e) {
        return e; // e.g. metadata whose issuer is not the authorization server's (RFC 8414 §3.3)
      }
      // A browser cannot help a client_credentials server: its refusal is shown as it is (after a
      // move to another authorization server, the next start says its client is bound elsewhere).
      if (oauth?.grant === 'client_credentials') return error;
      const defaultEndpoints = challenge?.status === 401 && Object.keys(server.headers).length === 0;
      const mcpFlow = oauth !== undefined || discovery?.resourceMetadata !== undefined || discovery?.authorizationServerMetadata !== undefined || defaultEndpoints;
      if (!mcpFlow) {
        return new Error(`HTTP ${challenge?.status ?? 401}: the server refused the request and names no OAuth authorization server (check the server's headers and secrets)`);
      }
      const issuer = issuerOf(discovery) ?? (error instanceof SignInRequiredError ? error.issuer : undefined);
      const request: SignInRequest = {
        server: server.name,
        serverUrl,
        stepUp,
        ...(issuer !== undefined ? { issuer } : {}),
        ...(challenge?.scope !== undefined ? { scope: challenge.scope } : {}),
        ...(challenge ? { challenge } : {}),
      };
      this.requests.set(server.name, request);
      this._onDidRequireSignIn.fire(request);
      return new SignInRequiredError(serverUrl, issuer, stepUp ? { ...(challenge?.scope !== undefined ? { scope: challenge.scope } : {}) } : undefined);
    };
    return { authProvider, fetch: recorder.fetch, wrap: (t) => new SignInAwareTransport(t, explain) };
  }

  /** The last refusal of a server not yet answered by a sign-in. */
  pending(server: string): SignInRequest | undefined {
    return this.requests.get(server);
  }

  /** Forget a server's refusal (it signed in, signed out or was removed). */
  clear(server: string): void {
    this.requests.delete(server);
  }

  dispose(): void {
    this._onDidRequireSignIn.dispose();
    this.requests.clear();
  }
}

/**
 * The discovery to name in a sign-in request. When the server refused tokens the host holds for the
 * authorization server it had named, discovery is done again and kept (checked like any discovery),
 * so a server that moved to another authorization server is signed in there. Otherwise, and when
 * the new discovery cannot be made, the stored one stands.
 */
async function rediscoverIfRefused(
  credentials: ServerCredentials,
  challenge: AuthChallenge | undefined,
  fetchFn: FetchLike,
): Promise<Awaited<ReturnType<ServerCredentials['discovery']>>> {
  const stored = await credentials.discovery().catch(() => undefined);
  const hadTokens = stored !== undefined && (await credentials.tokens(issuerOf(stored)).catch(() => undefined)) !== undefined;
  if (!hadTokens) return stored;
  let fresh;
  try {
    const resourceMetadataUrl = challenge?.resourceMetadataUrl;
    fresh = await discoverOAuthServerInfo(credentials.serverUrl, { ...HOST_ISSUER_CHECK, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), fetchFn });
  } catch {
    return stored;
  }
  const state = { ...fresh, ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl.href } : {}) };
  await credentials.saveDiscovery(state);
  return state;
}
