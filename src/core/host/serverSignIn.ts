import { auth } from '@modelcontextprotocol/client';
import { ConnectionState } from '../mcp/connectionState';
import type { RemoteServerSettings, ServerSettings } from '../settings/hostSettings';
import { redactSecrets } from '../settings/redactSecrets';
import type { ResolvedServer } from '../settings/resolveServerSettings';
import { errorText } from '../util/errorText';
import { DisposableStore, type Event } from '../util/event';
import type { AuthEvent } from '../auth/authEvents';
import { issuerOf } from '../auth/credentialStore';
import { HOST_ISSUER_CHECK } from '../auth/metadataIssuer';
import type { RemoteAuth, SignInRequest } from '../auth/remoteAuth';
import { signIn, type SignInResult } from '../auth/signIn';
import { signOut } from '../auth/signOut';

/** Sign in to and out of remote servers: what the editor's commands and the CLI's login/logout use. */
export interface SignInControl {
  /**
   * Sign in to a remote server: the authorization page opens in the browser (a client_credentials
   * server just fetches a token), then the server's connection restarts if it was started. At most
   * one sign-in per server runs at a time: a second request gets the first one's result. Rejects
   * only for an unknown server name; how the sign-in ended is the result.
   */
  signIn(server: string, options?: { readonly signal?: AbortSignal }): Promise<SignInResult>;
  /** Forget the server's tokens and registrations; restarts its connection if it was started. True when anything was stored. */
  signOut(server: string): Promise<boolean>;
  /** Why a server last refused the host, until a sign-in answers it. */
  pending(server: string): SignInRequest | undefined;
  /** A connection or a call of a server was refused until someone signs in (or signs in again with a wider scope). */
  readonly onDidRequireSignIn: Event<SignInRequest>;
}

/** What ServerSignIn needs of the server fleet. */
export interface SignInServers {
  get(name: string): { readonly settings: ServerSettings; readonly state: ConnectionState; forgetResults(): void } | undefined;
  restartServer(name: string): Promise<void>;
}

export interface ServerSignInOptions {
  readonly remote: RemoteAuth;
  readonly servers: SignInServers;
  readonly resolve: (settings: ServerSettings) => Promise<ResolvedServer>;
  /** Opens a URL in the user's browser; without it a sign-in that needs a browser fails. */
  readonly openUrl?: (url: URL) => Promise<void>;
  /** How long a sign-in waits for the browser's redirect (default 5 minutes). */
  readonly timeoutMs?: number;
  /** Every sign-in event, for the audit and the log (no token values in it). */
  readonly onEvent: (server: string, e: AuthEvent) => void;
}

export class ServerSignIn implements SignInControl {
  readonly onDidRequireSignIn: Event<SignInRequest>;
  private readonly running = new Map<string, Promise<SignInResult>>();
  private readonly disposables = new DisposableStore();

  constructor(private readonly o: ServerSignInOptions) {
    this.onDidRequireSignIn = o.remote.onDidRequireSignIn;
    // A connected server that stops accepting its tokens (revoked, refresh refused) is reconnected,
    // which lands it in "needs sign-in". A step-up concerns one call: the connection stays.
    this.disposables.add(
      o.remote.onDidRequireSignIn((r) => {
        const c = o.servers.get(r.server);
        if (r.stepUp || !c || !ConnectionState.isConnected(c.state)) return;
        // After the refused request has failed with its own error, not with "connection closed".
        setImmediate(() => void o.servers.restartServer(r.server).catch(() => undefined));
      }),
    );
  }

  signIn(server: string, options: { readonly signal?: AbortSignal } = {}): Promise<SignInResult> {
    let remote: RemoteServerSettings;
    try {
      remote = this.remoteSettings(server);
    } catch (e) {
      return Promise.reject(e);
    }
    let run = this.running.get(server);
    if (!run) {
      run = this.run(remote, options.signal).finally(() => this.running.delete(server));
      this.running.set(server, run);
    }
    return run;
  }

  async signOut(server: string): Promise<boolean> {
    const settings = this.remoteSettings(server);
    const resolved = await this.o.resolve(settings);
    const url = resolved.ok ? (resolved.server as RemoteServerSettings).url : settings.url;
    const had = await signOut(url, this.o.remote.store, (e) => this.o.onEvent(server, e));
    await this.credentialsChanged(server);
    return had;
  }

  pending(server: string): SignInRequest | undefined {
    return this.o.remote.pending(server);
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private remoteSettings(server: string): RemoteServerSettings {
    const settings = this.o.servers.get(server)?.settings;
    if (!settings) throw new Error(`no server named "${server}"`);
    if (settings.type === 'stdio') throw new Error(`server "${server}" is a local (stdio) server; only remote (http, sse) servers sign in`);
    return settings;
  }

  private async run(settings: RemoteServerSettings, signal: AbortSignal | undefined): Promise<SignInResult> {
    const name = settings.name;
    const resolved = await this.o.resolve(settings);
    if (!resolved.ok) {
      const result: SignInResult = { kind: 'failed', reason: resolved.error };
      this.o.onEvent(name, { type: 'signInFailed', serverUrl: settings.url, reason: resolved.error });
      return result;
    }
    const server = resolved.server as RemoteServerSettings;
    const redact = (t: string) => redactSecrets(t, resolved.secretValues);
    const onEvent = (e: AuthEvent) => this.o.onEvent(name, 'reason' in e ? { ...e, reason: redact(e.reason) } : e);
    const result =
      server.oauth?.grant === 'client_credentials'
        ? await this.clientCredentials(server, onEvent)
        : this.o.openUrl
          ? await signIn({
              serverUrl: server.url,
              store: this.o.remote.store,
              ...(server.oauth ? { settings: server.oauth } : {}),
              openUrl: this.o.openUrl,
              ...(this.o.remote.pending(name)?.challenge ? { challenge: this.o.remote.pending(name)?.challenge } : {}),
              ...(this.o.timeoutMs !== undefined ? { timeoutMs: this.o.timeoutMs } : {}),
              ...(signal ? { signal } : {}),
              onEvent,
            })
          : this.noBrowser(server, onEvent);
    if (result.kind !== 'signedIn') return 'reason' in result ? { ...result, reason: redact(result.reason) } : result;
    await this.credentialsChanged(name);
    return result;
  }

  /** client_credentials: no browser; fetching a token now shows at once whether the credentials work. */
  private async clientCredentials(server: RemoteServerSettings, onEvent: (e: AuthEvent) => void): Promise<SignInResult> {
    const serverUrl = server.url;
    onEvent({ type: 'signInStarted', serverUrl, stepUp: false, ...(server.oauth?.scopes?.length ? { scope: server.oauth.scopes.join(' ') } : {}) });
    try {
      const provider = this.o.remote.forServer(server)?.authProvider;
      if (!provider || (await auth(provider, { serverUrl, ...HOST_ISSUER_CHECK })) !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
      const issuer = issuerOf(await this.o.remote.store.get({ serverUrl }, 'discovery')) ?? serverUrl;
      onEvent({ type: 'signInCompleted', serverUrl, issuer });
      return { kind: 'signedIn', issuer };
    } catch (e) {
      const reason = errorText(e);
      onEvent({ type: 'signInFailed', serverUrl, reason });
      return { kind: 'failed', reason };
    }
  }

  private noBrowser(server: RemoteServerSettings, onEvent: (e: AuthEvent) => void): SignInResult {
    const reason = 'this host has no way to open a browser for the sign-in';
    onEvent({ type: 'signInFailed', serverUrl: server.url, reason });
    return { kind: 'failed', reason };
  }

  /**
   * The server's credentials changed (signed in, perhaps as another account, or out): its pending
   * sign-in request is answered, nothing the last credentials were served (`private` results) is
   * served again, and a started connection restarts with the new ones.
   */
  private async credentialsChanged(server: string): Promise<void> {
    this.o.remote.clear(server);
    const c = this.o.servers.get(server);
    c?.forgetResults();
    if (c && ConnectionState.needsStop(c.state)) await this.o.servers.restartServer(server);
  }
}
