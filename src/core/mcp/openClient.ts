import { Client, type Implementation, type PriorDiscovery, type ResponseCacheStore } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';
import { acceptTaskResults, TASKS_EXTENSION_FEATURE } from './call/tasksExtension';
import { featuresFor, mergeCapabilities, type ClientFeature } from './clientFeature';
import { negotiationMode, priorOf, type EraVerdictStore } from './eraVerdicts';
import { initializeTimeoutText } from './startFailure';
import { withTimeout } from '../util/withTimeout';
import type { ServerTransport, TransportFactory, TransportHooks } from './serverTransport';

/**
 * How many times one request (tools/call, prompts/get, resources/read) of a 2026-07-28 server may
 * answer `input_required` before the host gives up on it: each round asks the person (or the
 * policy) again, so a server that never stops asking must not keep them answering.
 */
export const MRTR_MAX_ROUNDS = 10;

export interface OpenedClient {
  readonly client: Client;
  readonly transport: ServerTransport;
  /** The protocol version the handshake negotiated. */
  readonly protocolVersion?: string;
  /**
   * Opened from a remembered 2026-07-28 verdict, with no round trip (the server's discover result
   * was still fresh): nothing has proven it yet, so the caller's first requests do (see
   * ServerConnection.connect), and a failure there forgets the verdict and connects again.
   */
  readonly unproven?: boolean;
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
  /** Where the era verdict of this server (`protocol: auto`) is kept, under its identity hash. */
  readonly eras?: { readonly store: EraVerdictStore; readonly identity: string };
  /** The server's result cache (ServerResponseCache) and the partition of its `private` results. */
  readonly cache?: { readonly store: ResponseCacheStore; readonly partition: string };
  /**
   * True once the caller gave this start up (the server is being stopped): a failed attempt then
   * ends there, with no new transport (no new process) and the remembered era left as it was.
   */
  readonly abandoned?: () => boolean;
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
  // The SDK's own timeout covers each request; this bounds the whole attempt, the era probe and
  // fallback included. Either way the person reads the same words (the probe is not theirs to know).
  return withTimeout(attempt(server, o), o.timeoutMs + 1000, () => initializeTimeoutText(o.timeoutMs));
}

async function attempt(server: ServerSettings, o: OpenClientOptions): Promise<OpenedClient> {
  const auto = negotiationMode(server.protocol) === 'auto' && o.eras;
  let prior = auto ? priorOf(await o.eras!.store.get(o.eras!.identity).catch(() => undefined)) : undefined;
  let transport = o.factory.create(server, o);
  let probed = false;
  for (;;) {
    try {
      const opened = await initialize(server, transport, o, prior);
      if (auto && (!prior || probed)) await remember(o.eras!, opened.client);
      // A remembered modern verdict skips every round trip (2026-07-28 has no ping to prove it with).
      return prior?.kind === 'modern' && !probed ? { ...opened, unproven: true } : opened;
    } catch (e) {
      if (o.abandoned?.()) throw e;
      if (prior && !probed) {
        // The cached verdict stopped working (the server changed era): forget it and probe again.
        await o.eras!.store.delete(o.eras!.identity).catch(() => undefined);
        o.onFallback(`the remembered protocol era (${prior.kind}) did not work; detecting it again`);
        prior = undefined;
        probed = true;
        transport = o.factory.create(server, o);
        continue;
      }
      const next = o.factory.fallback?.(server, transport, e, o);
      if (!next) throw e;
      o.onFallback(next.reason);
      transport = next.transport;
    }
  }
}

/** Keep what the probe found (the SDK's era and, for a modern server, its discover result). */
async function remember(eras: NonNullable<OpenClientOptions['eras']>, client: Client): Promise<void> {
  const era = client.getProtocolEra();
  const discover = client.getDiscoverResult();
  if (!era || (era === 'modern' && !discover)) return;
  const at = new Date().toISOString();
  await eras.store.set(eras.identity, era === 'modern' ? { era, discover, at } : { era, at }).catch(() => undefined);
}

async function initialize(server: ServerSettings, st: ServerTransport, o: OpenClientOptions, prior: PriorDiscovery | undefined): Promise<OpenedClient> {
  const transport = st.transport;
  // Stopped while an earlier step was awaited: nothing is started that nobody would stop.
  if (o.abandoned?.()) throw new Error('the server was stopped while starting');
  o.onTransport(st);
  const features = featuresFor(o.features ?? [], server);
  const cache = o.cache ? { responseCacheStore: o.cache.store, cachePartition: o.cache.partition } : {};
  // Every call follows tasks (mcp/call): the extension is declared, and its answers reach the call.
  const client = new Client(o.clientInfo, {
    capabilities: mergeCapabilities([...features, TASKS_EXTENSION_FEATURE]),
    versionNegotiation: { mode: negotiationMode(server.protocol) },
    // MRTR (2026-07-28): the SDK fulfils input_required through the handlers the features installed
    // (the host's decision path), retrying with the answers; a server that keeps asking is stopped.
    inputRequired: { autoFulfill: true, maxRounds: MRTR_MAX_ROUNDS },
    ...cache,
  });
  for (const f of features) f.install(client, server);
  try {
    await client.connect(acceptTaskResults(transport), { timeout: o.timeoutMs, ...(prior ? { prior } : {}) });
  } catch (e) {
    // Closing may take seconds (a server that ignores stdin EOF and SIGTERM): the caller awaits the
    // same close (a transport's close is one sequence) after reporting the failure it got.
    void client.close().catch(() => undefined);
    void transport.close().catch(() => undefined);
    throw e;
  }
  return { client, transport: st, protocolVersion: client.getNegotiatedProtocolVersion() };
}
