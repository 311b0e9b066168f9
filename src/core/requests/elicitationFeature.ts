import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
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
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => this.handler.handle(server.name, request.params, extra.signal));
    // A URL-mode interaction finished out of band: only worth a line in the log.
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) =>
      this.logger.info(`[${server.name}] the URL elicitation ${n.params.elicitationId} is complete`),
    );
  }
}
