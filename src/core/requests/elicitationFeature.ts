import type { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ServerSettings } from '../settings/hostSettings';
import type { Logger } from '../util/logger';
import type { ElicitationHandler } from './elicitationHandler';

/**
 * Elicitation (protocol 2025-11-25): form mode with schema defaults (SEP-1034: the SDK fills
 * fields an accepted answer leaves out) and URL mode. Every request goes through the handler.
 */
export class ElicitationFeature implements ClientFeature {
  readonly capabilities: ClientCapabilities = { elicitation: { form: { applyDefaults: true }, url: {} } };

  constructor(
    private readonly handler: ElicitationHandler,
    private readonly logger: Logger,
  ) {}

  install(client: Client, server: ServerSettings): void {
    client.setRequestHandler('elicitation/create', (request, extra) => this.handler.handle(server.name, request.params, extra.mcpReq.signal));
    // A URL-mode interaction finished out of band: only worth a line in the log.
    client.setNotificationHandler('notifications/elicitation/complete', (n) =>
      this.logger.info(`[${server.name}] the URL elicitation ${n.params.elicitationId} is complete`),
    );
  }
}
