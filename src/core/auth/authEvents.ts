/**
 * What sign-in and sign-out report to the audit and the output channel: per server, never a token,
 * code, verifier or secret.
 */
export type AuthEvent =
  | { readonly type: 'signInStarted'; readonly serverUrl: string; readonly stepUp: boolean; readonly scope?: string }
  | { readonly type: 'signInCompleted'; readonly serverUrl: string; readonly issuer: string; readonly scope?: string }
  | { readonly type: 'signInFailed'; readonly serverUrl: string; readonly reason: string; readonly issuer?: string }
  | { readonly type: 'signInCancelled'; readonly serverUrl: string; readonly reason: string }
  | { readonly type: 'signedOut'; readonly serverUrl: string; readonly hadCredentials: boolean };

export type AuthEventListener = (event: AuthEvent) => void;
