import { isStepUp, type AuthChallenge, type ChallengeRecorder } from './authChallenge';
import { needsSignIn } from './signInRequiredError';
import type { SignInResult } from './signIn';

/** An operation could not be authorized: the sign-in did not succeed, or the retry limits were reached. */
export class SignInStoppedError extends Error {
  constructor(
    message: string,
    /** The sign-in's result, when one ran and did not succeed. */
    readonly result?: SignInResult,
  ) {
    super(message);
    this.name = 'SignInStoppedError';
  }
}

export interface WithSignInOptions {
  readonly challenges: ChallengeRecorder;
  /** One interactive sign-in for the challenge (e.g. `signIn({ ...ports, challenge })`). */
  readonly signIn: (challenge: AuthChallenge | undefined) => Promise<SignInResult>;
}

/**
 * Runs `operation` (connect, list tools, call a tool), signing in when the server asks for it and
 * then running it again. Limits, so that a server that keeps refusing never loops: at most one
 * sign-in because credentials were missing or refused (401), and at most one step-up because the
 * scope was too narrow (403 insufficient_scope, re-authorized with the wider scope). A refusal
 * after that ends in SignInStoppedError.
 *
 * `operation` must be repeatable: a failed `Client.connect` closes the client, so a connect
 * operation builds its transport anew each time; a request on a connected client is simply sent again.
 */
export async function withSignIn<T>(operation: () => Promise<T>, options: WithSignInOptions): Promise<T> {
  let signedIn = false;
  let steppedUp = false;
  for (;;) {
    options.challenges.take();
    try {
      return await operation();
    } catch (e) {
      if (!needsSignIn(e)) throw e;
      const challenge = options.challenges.take();
      const stepUp = isStepUp(challenge);
      if (stepUp ? steppedUp : signedIn) {
        throw new SignInStoppedError(
          stepUp
            ? `the server still answers insufficient_scope${challenge?.scope ? ` (wants "${challenge.scope}")` : ''} after signing in with a wider scope; not trying again`
            : 'the server still refuses the credentials right after signing in; not trying again',
        );
      }
      if (stepUp) steppedUp = true;
      else signedIn = true;
      const result = await options.signIn(challenge);
      if (result.kind !== 'signedIn') throw new SignInStoppedError(`sign-in ${result.kind}: ${result.reason}`, result);
    }
  }
}
