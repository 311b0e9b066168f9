import type { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ServerCalls } from '../mcp/call/serverCalls';
import { setUrlElicitationStep } from '../mcp/call/urlElicitationRequired';
import type { ServerSettings } from '../settings/hostSettings';
import type { Logger } from '../util/logger';
import type { ElicitationHandler } from './elicitationHandler';
import { ClientUrlSteps } from './urlElicitationStep';

/**
 * Elicitation (protocol 2025-11-25): form mode with schema defaults (SEP-1034: the SDK fills
 * fields an accepted answer leaves out) and URL mode, also as the step a -32042 (URL elicitation
 * required) asks for before its request is sent again (ClientUrlSteps, which the server's
 * `notifications/elicitation/complete` reaches). Every request goes through the handler.
 */
export class ElicitationFeature implements ClientFeature {
  readonly capabilities: ClientCapabilities = { elicitation: { form: { applyDefaults: true }, url: {} } };

  constructor(
    private readonly handler: ElicitationHandler,
    private readonly calls: ServerCalls,
    private readonly logger: Logger,
  ) {}

  install(client: Client, server: ServerSettings): void {
    client.setRequestHandler('elicitation/create', (request, extra) => this.handler.handle(server.name, request.params, extra.mcpReq.signal));
    const steps = new ClientUrlSteps(server.name, this.handler, this.calls, this.logger);
    setUrlElicitationStep(client, steps);
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      this.logger.info(`[${server.name}] the URL elicitation ${n.params.elicitationId} is complete`);
      steps.completed(n.params.elicitationId);
    });
  }
}
