import type { AuditLog } from '../audit/auditLog';
import { UI_EXTENSION_FEATURE } from './uiExtension';
import type { ServerSignIn } from './serverSignIn';
import { createDefaultTransportFactory } from '../mcp/defaultTransportFactory';
import { MemoryEraVerdictStore } from '../mcp/eraVerdicts';
import { ServerFleet, type ServerFleetOptions } from '../mcp/serverFleet';
import type { ActivePolicies } from '../policy/activePolicies';
import { ServerRequests } from '../requests/serverRequests';
import { DisposableStore } from '../util/event';
import type { Logger } from '../util/logger';
import { createHostSignIn, createRemoteAuth, serverResolver } from './hostAuth';
import { CLIENT_INFO, type McpHostOptions } from './mcpHostOptions';

export interface FleetDeps {
  readonly policies: ActivePolicies;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly trusted: () => boolean;
  /** Consent and pinning's say before a server starts; `roots`: the folders it will be given (false: none declared). */
  readonly admit: (...a: [...Parameters<NonNullable<ServerFleetOptions['admit']>>, roots: readonly string[] | false]) => Promise<string | undefined>;
  /** `mcpHost.maxMessageBytes` as of now. */
  readonly maxMessageBytes?: () => number;
}

/** The fleet and what reaches servers with it: OAuth for remote ones, the answers to servers' requests, sign-in. */
export interface HostFleet {
  readonly fleet: ServerFleet;
  readonly auth: ServerSignIn;
  /** Ends sign-in listeners and pending server requests (the fleet is closed by the host). */
  readonly store: DisposableStore;
}

/** The host's fleet: variables resolved from the host's options, real transports (with OAuth) unless a test gives others. */
export function createFleet(o: McpHostOptions, d: FleetDeps): HostFleet {
  const store = new DisposableStore();
  const requests = store.add(new ServerRequests(o.serverRequests, { policies: d.policies, trusted: d.trusted, audit: d.audit, logger: d.logger, workspaceFolder: o.workspaceFolder }));
  const remote = store.add(createRemoteAuth(o));
  const fleet = new ServerFleet(o.settings.servers, {
    resolve: serverResolver(o),
    transports: o.transports ?? createDefaultTransportFactory(remote),
    logger: d.logger,
    clientInfo: o.clientInfo ?? CLIENT_INFO,
    backoff: o.backoff,
    logLevel: o.logLevel,
    features: [...requests.features, UI_EXTENSION_FEATURE],
    calls: requests.calls,
    trusted: d.trusted,
    wanted: (s) => d.policies.current.usesServer(s.name),
    admit: (settings, resolved, explicit) => d.admit(settings, resolved, explicit, requests.rootFolders(resolved.server)),
    maxMessageBytes: d.maxMessageBytes,
    eras: o.eras ?? new MemoryEraVerdictStore(),
    toolLists: o.toolLists,
  });
  const auth = store.add(createHostSignIn(o, { remote, servers: fleet, logger: d.logger, audit: d.audit }));
  return { fleet, auth, store };
}
