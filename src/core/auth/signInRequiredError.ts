import { errorChain } from '../util/errorText';
import { SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';

/**
 * Thrown (through the SDK's transport) when a server needs a sign-in that cannot happen silently:
 * nothing is stored for it, its refresh token was refused, or it asks for a wider scope. The
 * connection shows it as "needs sign-in" with the issuer; nothing was opened or registered.
 */
export class SignInRequiredError extends Error {
  constructor(
    readonly serverUrl: string,
    /** The authorization server the server names, when discovery got that far. */
    readonly issuer?: string,
    /** A step-up: the token is valid but too narrow; the scope the server asked for. */
    readonly stepUp?: { readonly scope?: string },
  ) {
    super(
      stepUp
        ? `${serverUrl} asks for additional permission${stepUp.scope ? ` (scope "${stepUp.scope}")` : ''}: sign in again${issuer ? ` with ${issuer}` : ''}`
        : issuer
          ? `${serverUrl} needs you to sign in with ${issuer}`
          : `${serverUrl} needs you to sign in`,
    );
    this.name = 'SignInRequiredError';
  }
}

/**
 * Whether a failed connect or request means "sign in (again)": our SignInRequiredError, the SDK's
 * UnauthorizedError, or a 401/403 the SDK gave up on (a token refused right after it was obtained,
 * or a scope still insufficient after the one step-up it tries).
 */
export function needsSignIn(error: unknown): boolean {
  return errorChain(error, 5).some(
    (e) => e instanceof SignInRequiredError || e instanceof UnauthorizedError || (e instanceof SdkHttpError && (e.status === 401 || e.status === 403)),
  );
}

/**
 * The SignInRequiredError behind a failed connect, also when the SDK wrapped it (protocol
 * `auto`: the era probe's 401 comes back as "Version negotiation probe failed", its cause the
 * sign-in; a 401 is never evidence of an era).
 */
export function signInRequiredIn(error: unknown): SignInRequiredError | undefined {
  return errorChain(error, 5).find((e): e is SignInRequiredError => e instanceof SignInRequiredError);
}
