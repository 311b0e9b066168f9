import { defaultTransportFactory } from '../mcp/defaultTransportFactory';
import { ServerFleet, type ServerFleetOptions } from '../mcp/serverFleet';
import { resolveServerSettings } from '../settings/resolveServerSettings';
import type { Logger } from '../util/logger';
import { CLIENT_INFO, type McpHostOptions } from './mcpHostOptions';

/** The host's fleet: variables resolved from the host's options, real transports unless a test gives others. */
export function createFleet(o: McpHostOptions, logger: Logger, hooks: Pick<ServerFleetOptions, 'trusted' | 'wanted' | 'admit'>): ServerFleet {
  return new ServerFleet(o.settings.servers, {
    resolve: (s) => resolveServerSettings(s, { workspaceFolder: o.workspaceFolder, env: o.env ?? process.env, secrets: o.secrets }),
    transports: o.transports ?? defaultTransportFactory,
    logger,
    clientInfo: o.clientInfo ?? CLIENT_INFO,
    backoff: o.backoff,
    ...hooks,
  });
}
