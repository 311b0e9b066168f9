import { HOST_ISSUER_CHECK } from '../auth/metadataIssuer';
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { RemoteAuthPort, TransportAuth } from '../auth/remoteAuth';
import { DEFAULTS, type RemoteServerSettings, type ServerSettings } from '../settings/hostSettings';
import { HttpGuard, namingFetch } from './guardedHttpTransport';
import { ProcessStdioTransport } from './processStdioTransport';
import { httpStatusOf } from './transportErrorText';
import type { ServerTransport, TransportFactory, TransportHooks } from './serverTransport';

export interface DefaultTransportOptions {
  /** Default true; false sends every request of a stdio server through the SDK (the plain path DirectRequests is held to in tests and the bench). */
  readonly directRequests?: boolean;
}

/**
 * stdio servers run as a child process in their own process group; `http` is Streamable HTTP,
 * falling back to SSE when the endpoint answers a 4xx (except 401/403, which are credential
 * problems that SSE would only obscure); `sse` is SSE only. Remote servers get OAuth from `auth`
 * (stored tokens, silent refresh, "needs sign-in"); without it they carry only their headers.
 */
export function createDefaultTransportFactory(auth?: RemoteAuthPort, o: DefaultTransportOptions = {}): TransportFactory {
  return {
    create(server: ServerSettings, hooks: TransportHooks): ServerTransport {
      switch (server.type) {
        case 'stdio':
          return stdioTransport(
            new ProcessStdioTransport({
              command: server.command,
              args: server.args,
              env: server.env,
              cwd: server.cwd,
              onStderrLine: hooks.onStderrLine,
              name: hooks.name,
              maxMessageBytes: hooks.maxMessageBytes,
              directRequests: o.directRequests,
            }),
          );
        case 'sse':
          return { kind: 'sse', transport: sseTransport(server, auth?.forServer(server)) };
        case 'http': {
          const a = auth?.forServer(server);
          // The guard fails a request whose response stream ends unanswered or is over the bound;
          // it fetches through the auth's fetch (which records 401/403 challenges).
          const guard = new HttpGuard({ url: server.url, name: hooks.name ?? server.name, maxMessageBytes: hooks.maxMessageBytes ?? DEFAULTS.maxMessageBytes, fetch: a?.fetch });
          const transport = new StreamableHTTPClientTransport(new URL(server.url), {
            requestInit: { headers: { ...server.headers } },
            ...(a ? { authProvider: a.authProvider, ...HOST_ISSUER_CHECK } : {}),
            fetch: guard.fetch,
          });
          const guarded = guard.wrap(transport);
          return { kind: 'streamableHttp', transport: a ? a.wrap(guarded) : guarded };
        }
      }
    },

    fallback(server, failed, error) {
      if (server.type !== 'http' || failed.kind !== 'streamableHttp') return undefined;
      const code = httpStatusOf(error);
      if (code === undefined || code < 400 || code >= 500 || code === 401 || code === 403) return undefined;
      return { transport: { kind: 'sse', transport: sseTransport(server, auth?.forServer(server)) }, reason: `Streamable HTTP answered ${code}; falling back to SSE` };
    },
  };
}

/** Processes and HTTP without OAuth. */
export const defaultTransportFactory: TransportFactory = createDefaultTransportFactory();

function stdioTransport(t: ProcessStdioTransport): ServerTransport {
  return {
    kind: 'stdio',
    transport: t,
    get pid() {
      return t.pid;
    },
    exitReason: () => t.exitReason(),
    direct: t.direct,
  };
}

function sseTransport(server: RemoteServerSettings, a: TransportAuth | undefined): Transport {
  const transport = new SSEClientTransport(new URL(server.url), {
    requestInit: { headers: { ...server.headers } },
    ...(a ? { authProvider: a.authProvider, ...HOST_ISSUER_CHECK } : {}),
    fetch: namingFetch(server.url, a?.fetch),
  });
  return a ? a.wrap(transport) : transport;
}
