import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { RemoteServerSettings, ServerSettings } from '../settings/hostSettings';
import { ProcessStdioTransport } from './processStdioTransport';

export interface ConnectedClient {
  readonly client: Client;
  readonly transport: Transport;
  /** What `initialize` negotiated (the SDK keeps it only for HTTP transports). */
  readonly protocolVersion?: string;
  readonly transportKind: 'stdio' | 'streamableHttp' | 'sse';
}

export interface ConnectOptions {
  readonly clientInfo: Implementation;
  readonly timeoutMs: number;
  readonly onStderrLine?: (line: string) => void;
  readonly onFallback?: (reason: string) => void;
  /** Called with the transport before connect, so the caller can reap it if the attempt is abandoned. */
  readonly onTransport?: (t: Transport) => void;
}

/**
 * Create the transport for resolved server settings, run `initialize` and `notifications/initialized`.
 * `http` tries Streamable HTTP first and falls back to SSE when the endpoint answers with a 4xx
 * (except 401/403, which are credential problems that SSE would only obscure).
 */
export async function connectClient(server: ServerSettings, options: ConnectOptions): Promise<ConnectedClient> {
  switch (server.type) {
    case 'stdio': {
      const transport = new ProcessStdioTransport({
        command: server.command,
        args: server.args,
        env: server.env,
        cwd: server.cwd,
        onStderrLine: options.onStderrLine,
      });
      return connectWith(transport, 'stdio', options);
    }
    case 'sse':
      return connectWith(sseTransport(server), 'sse', options);
    case 'http': {
      try {
        return await connectWith(
          new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } } }),
          'streamableHttp',
          options,
        );
      } catch (e) {
        const code = e instanceof StreamableHTTPError ? e.code : undefined;
        if (code === undefined || code < 400 || code >= 500 || code === 401 || code === 403) throw e;
        options.onFallback?.(`Streamable HTTP answered ${code}; falling back to SSE`);
        return connectWith(sseTransport(server), 'sse', options);
      }
    }
  }
}

function sseTransport(server: RemoteServerSettings): SSEClientTransport {
  return new SSEClientTransport(new URL(server.url), { requestInit: { headers: { ...server.headers } } });
}

async function connectWith(transport: Transport, kind: ConnectedClient['transportKind'], options: ConnectOptions): Promise<ConnectedClient> {
  let protocolVersion: string | undefined;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    protocolVersion = v;
    original?.(v);
  };
  options.onTransport?.(transport);
  const client = new Client(options.clientInfo, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (e) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw e;
  }
  return { client, transport, protocolVersion, transportKind: kind };
}
