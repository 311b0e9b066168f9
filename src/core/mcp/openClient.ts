import { Client, type Implementation } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';
import { featuresFor, mergeCapabilities, type ClientFeature } from './clientFeature';
import { withTimeout } from '../util/withTimeout';
import type { ServerTransport, TransportFactory, TransportHooks } from './serverTransport';

export interface OpenedClient {
  readonly client: Client;
  readonly transport: ServerTransport;
  /** The protocol version the handshake negotiated. */
  readonly protocolVersion?: string;
}

export interface OpenClientOptions extends TransportHooks {
  readonly factory: TransportFactory;
  readonly clientInfo: Implementation;
  /** Capabilities and handlers the host adds to the client (elicitation, sampling, roots, ...). */
  readonly features?: readonly ClientFeature[];
  readonly timeoutMs: number;
  /** Called with each transport before it connects, so the caller can reap it if the attempt is abandoned. */
  readonly onTransport: (t: ServerTransport) => void;
  readonly onFallback: (reason: string) => void;
}

/** What the server asked while starting (its roots) is answered: before that, no call goes to it. */
export async function featuresSettled(features: readonly ClientFeature[], client: Client): Promise<void> {
  await Promise.all(features.map((f) => f.settled?.(client)));
}

/**
 * Create the server's transport, run `initialize` and `notifications/initialized`; when the
 * factory offers a fallback for the failure (Streamable HTTP → SSE), try that. A failed attempt's
 * client and transport are closed before the error propagates.
 */
export function openClient(server: ServerSettings, o: OpenClientOptions): Promise<OpenedClient> {
  // The SDK's own timeout covers each request; this bounds the whole attempt, fallback included.
  return withTimeout(attempt(server, o), o.timeoutMs + 1000, () => `did not finish initialize within ${o.timeoutMs} ms`);
}

async function attempt(server: ServerSettings, o: OpenClientOptions): Promise<OpenedClient> {
  let transport = o.factory.create(server, o);
  for (;;) {
    try {
      return await initialize(server, transport, o);
    } catch (e) {
      const next = o.factory.fallback?.(server, transport, e, o);
      if (!next) throw e;
      o.onFallback(next.reason);
      transport = next.transport;
    }
  }
}

async function initialize(server: ServerSettings, st: ServerTransport, o: OpenClientOptions): Promise<OpenedClient> {
  const transport = st.transport;
  o.onTransport(st);
  const features = featuresFor(o.features ?? [], server);
  const client = new Client(o.clientInfo, { capabilities: mergeCapabilities(features) });
  for (const f of features) f.install(client, server);
  try {
    await client.connect(transport, { timeout: o.timeoutMs });
  } catch (e) {
    // Closing may take seconds (a server that ignores stdin EOF and SIGTERM): the caller awaits the
    // same close (a transport's close is one sequence) after reporting the failure it got.
    void client.close().catch(() => undefined);
    void transport.close().catch(() => undefined);
    throw e;
  }
  return { client, transport: st, protocolVersion: client.getNegotiatedProtocolVersion() };
}
