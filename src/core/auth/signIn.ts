import * as crypto from 'node:crypto';
import { auth, discoverOAuthServerInfo, type FetchLike } from '@modelcontextprotocol/client';
import { isStepUp, type AuthChallenge } from './authChallenge';
import type { AuthEventListener } from './authEvents';
import type { CredentialStore } from './credentialStore';
import { HostOAuthProvider } from './hostOAuthProvider';
import { HOST_ISSUER_CHECK } from './metadataIssuer';
import type { LoopbackRedirectReceiver, RedirectOutcome } from './loopbackRedirectReceiver';
import { loadRedirectReceiver } from './loadRedirectReceiver';
import type { OAuthSettings } from '../settings/oauthSettings';

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInOptions {
  readonly serverUrl: string;
  readonly store: CredentialStore;
  /** The server's `oauth` settings, variables substituted. */
  readonly settings?: OAuthSettings;
  /** Opens the authorization URL in the user's browser (only https:, or http: on loopback, reach it). */
  readonly openUrl: (url: URL) => Promise<void>;
  /** What the server's last 401/403 asked for: its scope and resource metadata URL. */
  readonly challenge?: AuthChallenge;
  /** How long to wait for the browser's redirect (default 5 minutes). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: AuthEventListener;
  readonly fetchFn?: FetchLike;
}

export type SignInResult =
  | { readonly kind: 'signedIn'; readonly issuer: string; readonly scope?: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly issuer?: string }
  /** Stopped by the caller, by the user declining, or abandoned (no redirect before the timeout). */
  | { readonly kind: 'cancelled'; readonly reason: string };

function scopeTokens(s: string | undefined): string[] {
  return s ? s.split(/\s+/).filter(Boolean) : [];
}

/**
 * The scope to ask for. Configured `scopes` come first, then the scope of the server's challenge;
 * with neither, none is passed and the SDK uses the resource's `scopes_supported` (or omits it).
 * A step-up (403 insufficient_scope) asks for the union of the configured scopes, the scopes
 * already granted and the challenge's scope, so nothing that worked before is lost.
 */
export function selectScope(settings: OAuthSettings | undefined, challenge: AuthChallenge | undefined, granted: string | undefined): string | undefined {
  const configured = settings?.scopes ?? [];
  if (isStepUp(challenge)) {
    const all = [...configured, ...scopeTokens(granted), ...scopeTokens(challenge?.scope)];
    return all.length ? [...new Set(all)].join(' ') : undefined;
  }
  if (configured.length) return configured.join(' ');
  return challenge?.scope || undefined;
}

/**
 * `offline_access` (SEP-2207, MCP 2026-07-28) is asked for only where the authorization server lists
 * it in `scopes_supported`: taken out of the scope otherwise (configured, challenged or the resource's
 * `scopes_supported` may name it), and added to a non-empty scope when listed, since this client
 * registers for refresh tokens (SDK v2's `determineScope` adds it the same way; SDK 1.x never does).
 */
export function withOfflineAccess(scope: string | undefined, authorizationServerScopes: readonly string[] | undefined): string | undefined {
  const listed = authorizationServerScopes?.includes('offline_access') === true;
  const tokens = scopeTokens(scope).filter((t) => listed || t !== 'offline_access');
  if (listed && tokens.length && !tokens.includes('offline_access')) tokens.push('offline_access');
  return tokens.length ? [...new Set(tokens)].join(' ') : undefined;
}

function describeOutcome(outcome: Exclude<RedirectOutcome, { kind: 'code' }>): SignInResult {
  switch (outcome.kind) {
    case 'aborted':
      return { kind: 'cancelled', reason: 'the sign-in was cancelled' };
    case 'timeout':
      return { kind: 'cancelled', reason: `no answer from the browser within ${outcome.afterMs >= 1000 ? `${Math.round(outcome.afterMs / 1000)} s` : `${outcome.afterMs} ms`}` };
    case 'stateMismatch':
      return { kind: 'failed', reason: 'the redirect carried a different state than the one sent (possibly forged); sign-in stopped' };
    case 'error':
      return outcome.error === 'access_denied'
        ? { kind: 'cancelled', reason: `access was denied at the authorization server${outcome.description ? `: ${outcome.description}` : ''}` }
        : { kind: 'failed', reason: `the authorization server answered ${outcome.error}${outcome.description ? `: ${outcome.description}` : ''}` };
  }
}

/** RFC 9207: an `iss` in the redirect must name the authorization server the request went to. */
function issProblem(iss: string | undefined, metadata: Record<string, unknown> | undefined): string | undefined {
  const expected = typeof metadata?.issuer === 'string' ? metadata.issuer : undefined;
  if (iss === undefined) {
    return metadata?.authorization_response_iss_parameter_supported === true
      ? 'the redirect has no "iss" although the authorization server promises one (RFC 9207); sign-in stopped'
      : undefined;
  }
  if (expected !== undefined && iss !== expected) {
    return `the redirect names the authorization server ${iss}, not ${expected} (mix-up, RFC 9207); sign-in stopped`;
  }
  return undefined;
}

/**
 * Runs the authorization_code + PKCE flow for one server URL over the SDK's `auth()`: discovery
 * (resource metadata from the challenge or the well-known paths, authorization server metadata and
 * the 2025-03-26 fallbacks), client registration when needed (or the configured client, or a client
 * metadata document), the authorization URL opened through `openUrl`, the redirect received on a
 * loopback listener (exact `state`), and the code exchanged for tokens, which end up in the store.
 * Every path ends with the listener closed. Never throws: the result says how it ended, and the
 * events (without any token value) say it too.
 */
export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const { serverUrl, store, settings, challenge, onEvent } = options;
  const stepUp = isStepUp(challenge);
  let granted: string | undefined;
  if (stepUp) {
    const idle = new HostOAuthProvider({ serverUrl, store, settings });
    granted = (await idle.tokens().catch(() => undefined))?.scope;
  }
  const wanted = selectScope(settings, challenge, granted);
  onEvent?.({ type: 'signInStarted', serverUrl, stepUp, ...(wanted ? { scope: wanted } : {}) });

  const state = crypto.randomBytes(32).toString('base64url');
  let receiver: LoopbackRedirectReceiver | undefined;
  let provider: HostOAuthProvider | undefined;
  const finish = (result: SignInResult): SignInResult => {
    if (result.kind === 'signedIn') onEvent?.({ type: 'signInCompleted', serverUrl, issuer: result.issuer, ...(result.scope ? { scope: result.scope } : {}) });
    else if (result.kind === 'failed') onEvent?.({ type: 'signInFailed', serverUrl, reason: result.reason, ...(result.issuer ? { issuer: result.issuer } : {}) });
    else onEvent?.({ type: 'signInCancelled', serverUrl, reason: result.reason });
    return result;
  };
  try {
    receiver = await loadRedirectReceiver().LoopbackRedirectReceiver.start({
      state,
      timeoutMs: options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    provider = new HostOAuthProvider({
      serverUrl,
      store,
      ...(settings ? { settings } : {}),
      interaction: { redirectUrl: receiver.redirectUrl, state, openUrl: options.openUrl },
    });
    // Discovery first (the SDK's), so that the scope can follow the authorization server's metadata;
    // auth() then goes on from this discovery, which the provider has checked (RFC 8414 §3.3) and kept.
    const resourceMetadataUrl = challenge?.resourceMetadataUrl;
    const fetchFn = options.fetchFn;
    const discovered = await discoverOAuthServerInfo(serverUrl, { ...HOST_ISSUER_CHECK, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(fetchFn ? { fetchFn } : {}) });
    await provider.saveDiscoveryState({ ...discovered, ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}) });
    // The SDK's rule when nothing was chosen: the resource's scopes_supported.
    const scope = withOfflineAccess(wanted ?? discovered.resourceMetadata?.scopes_supported?.join(' '), discovered.authorizationServerMetadata?.scopes_supported);
    const authOptions = {
      serverUrl,
      ...HOST_ISSUER_CHECK,
      ...(scope ? { scope } : {}),
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(fetchFn ? { fetchFn } : {}),
    };
    const first = await auth(provider, authOptions);
    if (first !== 'AUTHORIZED') {
      const outcome = await receiver.outcome;
      if (outcome.kind !== 'code') return finish(describeOutcome(outcome));
      const discovery = await provider.discoveryState();
      const problem = issProblem(outcome.iss, discovery?.authorizationServerMetadata as Record<string, unknown> | undefined);
      if (problem) return finish({ kind: 'failed', reason: problem });
      const second = await auth(provider, { ...authOptions, authorizationCode: outcome.code, ...(outcome.iss !== undefined ? { iss: outcome.iss } : {}) });
      if (second !== 'AUTHORIZED') return finish({ kind: 'failed', reason: 'the authorization code was not accepted' });
    }
    const issuer = (await provider.currentIssuer()) ?? serverUrl;
    await store.delete({ serverUrl, issuer }, 'codeVerifier');
    const tokens = await store.get({ serverUrl, issuer }, 'tokens');
    return finish({ kind: 'signedIn', issuer, ...(tokens?.tokens.scope ? { scope: tokens.tokens.scope } : {}) });
  } catch (e) {
    if (options.signal?.aborted) return finish({ kind: 'cancelled', reason: 'the sign-in was cancelled' });
    const issuer = await provider?.currentIssuer().catch(() => undefined);
    return finish({ kind: 'failed', reason: e instanceof Error ? e.message : String(e), ...(issuer ? { issuer } : {}) });
  } finally {
    await receiver?.close();
  }
}
