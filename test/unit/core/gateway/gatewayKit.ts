/**
 * What the gateway tests share: the gateway under test and its upstream SDK clients, closed after
 * each test, and a real SDK v2 client connected over Streamable HTTP with the bearer token.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Gateway, GatewayHttp } from '../../../../src/core/gateway/gateway';
import type { Any } from '../helpers';

export interface GatewayTestState {
  gateway?: Gateway;
  /** Connects an upstream client (closed after the test); `modern`: it negotiates 2026-07-28. */
  connect(http: GatewayHttp, token: string, capabilities?: Any, name?: string, o?: { readonly modern?: boolean; readonly version?: string }): Promise<Client>;
}

/** Per test of the enclosing `describe`: clients closed, then the gateway. */
export function useGatewayTest(): GatewayTestState {
  let clients: Client[] = [];
  const state: GatewayTestState = {
    async connect(http, token, capabilities = {}, name = 'test-agent', o = {}) {
      const client = new Client({ name, version: o.version ?? '1.2.3' }, { capabilities, ...(o.modern ? { versionNegotiation: { mode: 'auto' } } : {}) } as Any);
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    },
  };
  afterEach(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    clients = [];
    await state.gateway?.close();
    state.gateway = undefined;
  });
  return state;
}
