import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type ContentBlock,
  type Implementation,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { SEARCH_TOOL_NAME } from '../agent/roundTools';
import type { CallActor } from '../audit/callActor';
import type { Confirmer } from '../calls/confirmer';
import type { ToolCallResult } from '../calls/toolRouter';
import type { McpHost } from '../host/mcpHost';
import type { Logger } from '../util/logger';
import type { GatewayCatalog } from './gatewayCatalog';
import type { GatewayOffer } from './gatewayOffer';
import type { UpstreamClient, UpstreamClients, UpstreamTransport } from './upstreamClients';
import type { CallRound, UpstreamConfirmations } from './upstreamConfirmations';

export const GATEWAY_INFO: Implementation = { name: 'mcp-host-gateway', version: '0.1.0' };

/** What every connection of one gateway shares. */
export interface GatewayContext {
  readonly host: McpHost;
  readonly confirmations: 'upstream' | 'host';
  readonly clients: UpstreamClients;
  readonly asking: UpstreamConfirmations;
  readonly catalog: GatewayCatalog;
  readonly logger: Logger;
  /** The offer (and `search_tools` finds) of one upstream client. */
  offer(clientId: string): GatewayOffer;
  /** A `search_tools` call found tools: the client's list changed. */
  toolsFound(clientId: string): void;
}

/** One serving unit: a stdio connection (`id` fixed), a 2025-era HTTP session, or one 2026-era HTTP request. */
export interface SessionSpec {
  readonly transport: UpstreamTransport;
  /** The client's id when the connection names it (stdio); else the HTTP session id, else its `clientInfo`. */
  readonly id?: string;
}

/**
 * One low-level SDK `Server` serving the host's role view: `tools/list` (the client's offer),
 * `tools/call` (through `McpHost.call`, the upstream client as actor), resources and prompts
 * (through `host.catalog`). The handlers read the host on every request, so a role or settings
 * change applies at once.
 */
export function createGatewayServer(gw: GatewayContext, spec: SessionSpec): Server {
  const server = new Server(GATEWAY_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
    instructions: 'MCP Host: the tools, resources and prompts of the servers MCP Host runs for its active role. Every call goes through its policy and audit; a call may be denied or need confirmation.',
  });
  const who = (ctx: ServerContext): UpstreamClient => {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const info = server.getClientVersion() ?? (envelope[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? { name: 'unknown', version: '' };
    const id = spec.id ?? ctx.sessionId ?? `http:${info.name}@${info.version}`;
    return gw.clients.seen(id, info, spec.transport);
  };
  const capabilities = (ctx: ServerContext): ClientCapabilities | undefined => {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    return server.getClientCapabilities() ?? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined);
  };

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const offered = await gw.offer(who(ctx).id).list(gw.host.snapshot());
    return { tools: offered.tools };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const client = who(ctx);
    const { name } = request.params;
    const offer = gw.offer(client.id);
    // A client may search before it listed: the offer is made first, as a listing would.
    if (name.startsWith(SEARCH_TOOL_NAME) && !offer.handlesSearch(name)) await offer.list(gw.host.snapshot());
    if (offer.handlesSearch(name)) {
      const { text, found } = offer.search(request.params.arguments);
      if (found.length) gw.toolsFound(client.id);
      return { content: [{ type: 'text', text }] };
    }
    gw.clients.called(client.id);
    const actor = actorOf(client);
    const token = request.params._meta?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (p: { progress?: number; total?: number; message?: string }) =>
            void ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken: token, progress: p.progress ?? 0, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) } })
              .catch(() => undefined);
    const call = (signal: AbortSignal, confirmer?: Confirmer) => gw.host.call({ name, args: request.params.arguments ?? {}, signal, onProgress, actor, ...(confirmer ? { confirmer } : {}) });
    if (gw.confirmations === 'host') return toCallResult(await call(ctx.mcpReq.signal));

    const state = ctx.mcpReq.requestState<unknown>();
    let round: CallRound | undefined;
    if (typeof state === 'string') {
      round = await gw.asking.resume(client.id, name, state, ctx.mcpReq.inputResponses, ctx.mcpReq.signal);
      if (!round) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no confirmation of tool "${name}" is waiting for this answer (it was answered, timed out or belongs to another call)`);
    } else {
      // Every call is known while in flight, so what its server asks meanwhile reaches this client (UpstreamRelay).
      const server = () => gw.host.snapshot().exposed.find((t) => t.entry.name === name)?.entry.server;
      const caller = { id: client.id, name: client.name, capabilities: capabilities(ctx) };
      round = await gw.asking.start(caller, name, server, ctx.mcpReq.signal, (confirmer, signal) => call(signal, confirmer));
    }
    if ('ask' in round) return round.ask;
    if (!round.unasked) return toCallResult(round.done);
    return errorResult(
      `Tool "${name}" needs confirmation and MCP Host cannot ask: client "${client.name}" did not declare the elicitation capability (form). The call was denied and not run; a person can allow it in MCP Host's policy (autoApprove) or use a client that supports elicitation.`,
    );
  });

  server.setRequestHandler('resources/list', () => ({ resources: gw.catalog.resources() }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: gw.catalog.templates() }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const target = gw.catalog.serverOf(uri);
    if (!target) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `resource "${uri}" is not available to the active role`);
    const read = await gw.host.catalog.readResource({ server: target, uri, purpose: 'gateway', actor: actorOf(who(ctx)), signal: ctx.mcpReq.signal });
    if (read.outcome !== 'ok') throw new ProtocolError(contextErrorCode(read.outcome), read.text);
    return { contents: read.contents };
  });

  server.setRequestHandler('prompts/list', () => ({ prompts: gw.catalog.prompts().map((p) => ({ ...p.prompt, name: p.name })) }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const offered = gw.catalog.prompt(request.params.name);
    if (!offered) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt "${request.params.name}" is not available to the active role`);
    const used = await gw.host.catalog.getPrompt({ server: offered.server, name: offered.prompt.name, args: request.params.arguments, actor: actorOf(who(ctx)), signal: ctx.mcpReq.signal });
    if (used.outcome !== 'ok') throw new ProtocolError(contextErrorCode(used.outcome), used.text);
    return { ...(used.description !== undefined ? { description: used.description } : {}), messages: used.messages };
  });

  return server;
}

/** The audit's actor for what an upstream client asks: its `clientInfo` and the transport it came over. */
function actorOf(client: UpstreamClient): CallActor {
  return { kind: 'upstream', client: client.name, ...(client.version ? { version: client.version } : {}), transport: client.transport };
}

function contextErrorCode(outcome: string): number {
  return outcome === 'notAllowed' || outcome === 'notFound' || outcome === 'invalidArgs' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
}

/** The router's result as the client gets it: the parts a model gets from `@mcp` (converted, capped, redacted). */
export function toCallResult(r: ToolCallResult): CallToolResult {
  const content: ContentBlock[] = r.parts.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: p.kind, mimeType: p.mimeType, data: Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength).toString('base64') },
  );
  const structured = (r.outcome === 'ok' || r.outcome === 'isError') && r.structuredContent ? { structuredContent: r.structuredContent } : {};
  return { content, ...structured, isError: r.outcome !== 'ok' };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
