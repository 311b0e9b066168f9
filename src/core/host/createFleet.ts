import type { RemoteAuth } from '../auth/remoteAuth';
import { createDefaultTransportFactory } from '../mcp/defaultTransportFactory';
import { ServerFleet, type ServerFleetOptions } from '../mcp/serverFleet';
import type { Logger } from '../util/logger';
import { serverResolver } from './hostAuth';
import { CLIENT_INFO, type McpHostOptions } from './mcpHostOptions';

type FleetHooks = Pick<ServerFleetOptions, 'trusted' | 'wanted' | 'admit' | 'features' | 'calls'>;

/** The host's fleet: variables resolved from the host's options, real transports (with OAuth) unless a test gives others. */
export function createFleet(o: McpHostOptions, logger: Logger, remote: RemoteAuth, hooks: FleetHooks): ServerFleet {
  return new ServerFleet(o.settings.servers, {
    resolve: serverResolver(o),
    transports: o.transports ?? createDefaultTransportFactory(remote),
    logger,
    clientInfo: o.clientInfo ?? CLIENT_INFO,
    backoff: o.backoff,
    logLevel: o.logLevel,
    ...hooks,
  });
}
