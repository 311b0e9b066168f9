import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { credentialKeyOf } from './credentialStore';

/** What a server's 401 or 403 asked for, from its `WWW-Authenticate: Bearer …` header. */
export interface AuthChallenge {
  readonly status: 401 | 403;
  readonly error?: string;
  readonly scope?: string;
  readonly resourceMetadataUrl?: URL;
}

/** A 403 `insufficient_scope`: the token is valid but too narrow (step-up authorization). */
export function isStepUp(challenge: AuthChallenge | undefined): boolean {
  return challenge?.status === 403 && challenge.error === 'insufficient_scope';
}

/**
 * Wraps the fetch a transport uses and remembers the last 401/403 challenge of the MCP endpoint
 * itself, so that after the SDK gives up (SignInRequiredError, UnauthorizedError, a 403 after its
 * own upscoping try) the host knows which scope the server asked for. Reads headers only.
 */
export class ChallengeRecorder {
  private last: AuthChallenge | undefined;
  private readonly endpoint: string;
  readonly fetch: FetchLike;

  constructor(serverUrl: string, base?: FetchLike) {
    this.endpoint = credentialKeyOf(serverUrl);
    this.fetch = async (url, init) => {
      const response = await (base ?? fetch)(url, init);
      if ((response.status === 401 || response.status === 403) && credentialKeyOf(String(url)) === this.endpoint) {
        const { error, scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
        this.last = {
          status: response.status,
          ...(error !== undefined ? { error } : {}),
          ...(scope !== undefined ? { scope } : {}),
          ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl } : {}),
        };
      }
      return response;
    };
  }

  /** The last challenge seen, forgotten once taken. */
  take(): AuthChallenge | undefined {
    const c = this.last;
    this.last = undefined;
    return c;
  }
}
