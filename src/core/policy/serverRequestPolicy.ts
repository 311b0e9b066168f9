import type { HostSettings } from '../settings/hostSettings';
import { SERVER_REQUEST_DEFAULTS, type ServerRequestSettings } from '../settings/serverRequestSettings';
import { compileGlobs, type Matcher } from './globMatcher';

/**
 * Which servers may put a question to the user (elicitation) or use the user's model (sampling)
 * under the active role: the role's own list from `mcpHost.elicitation.roles` / `mcpHost.sampling.roles`
 * when it has one, else the `servers` list. Whether the server runs for the role at all and
 * whether the workspace is trusted are decided before this (PolicySet.usesServer, trust).
 */
export class ServerRequestPolicy {
  private readonly elicitationAllowed: Matcher;
  private readonly samplingAllowed: Matcher;
  readonly samplingModel: string | undefined;

  constructor(settings: Pick<HostSettings, 'elicitation' | 'sampling'>, roleName: string | undefined) {
    this.elicitationAllowed = compileGlobs(listFor(settings.elicitation ?? SERVER_REQUEST_DEFAULTS.elicitation, roleName));
    this.samplingAllowed = compileGlobs(listFor(settings.sampling ?? SERVER_REQUEST_DEFAULTS.sampling, roleName));
    this.samplingModel = settings.sampling?.model;
  }

  allowsElicitation(server: string): boolean {
    return this.elicitationAllowed(server);
  }

  allowsSampling(server: string): boolean {
    return this.samplingAllowed(server);
  }
}

function listFor(s: ServerRequestSettings, roleName: string | undefined): readonly string[] {
  return roleName !== undefined && Object.prototype.hasOwnProperty.call(s.roles, roleName) ? s.roles[roleName] : s.servers;
}
