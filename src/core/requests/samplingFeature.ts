import type { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ServerSettings } from '../settings/hostSettings';
import type { SamplingHandler } from './samplingHandler';

/**
 * Sampling, without tool use (`sampling.tools` is not declared) and without context inclusion.
 * Declared to every server; whether a request is answered is decided per request by the policy,
 * so a settings or role change applies without restarting servers.
 */
export class SamplingFeature implements ClientFeature {
  readonly capabilities: ClientCapabilities = { sampling: {} };

  constructor(private readonly handler: SamplingHandler) {}

  install(client: Client, server: ServerSettings): void {
    client.setRequestHandler('sampling/createMessage', (request, extra) => this.handler.handle(server.name, request.params, extra.mcpReq.signal));
  }
}
