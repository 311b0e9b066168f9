import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { Server } from '@modelcontextprotocol/server';
import type { McpHost } from '../host/mcpHost';
import { DisposableStore, type Event } from '../util/event';
import type { Logger } from '../util/logger';
import { GatewayCatalog } from './gatewayCatalog';
import { GatewayOffer } from './gatewayOffer';
import { createGatewayServer, type GatewayContext } from './gatewaySession';
import { listenHttp, type HttpListener } from './httpGateway';
import { UpstreamClients, type UpstreamClient } from './upstreamClients';
import { UpstreamConfirmations } from './upstreamConfirmations';
import type { UpstreamRelay } from './upstreamRelay';
import { ViewChanges } from './viewChanges';

export type { UpstreamClient, UpstreamTransport } from './upstreamClients';

export interface GatewayOptions {
  /**
   * Who answers a call that needs confirmation: `upstream` asks the upstream client through
   * elicitation (denied with a clear message when it cannot be asked); `host` asks through the
   * host's own confirmer (the editor's dialogs).
   */
  readonly confirmations: 'upstream' | 'host';
  /** Tools the host auto-approves carry `readOnlyHint: true` (so an editor does not ask again); tools that ask never do. */
  readonly annotateForEditor?: boolean;
  readonly logger: Logger;
  /**
   * The host's server-request ports (McpHostOptions.serverRequests, `relay.ports()`) when the
   * servers' requests should go to the upstream client whose call they serve (`confirmations: 'upstream'` only).
   */
  readonly relay?: UpstreamRelay;
}

export interface GatewayHttp {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  close(): Promise<void>;
}

export interface GatewayStdio {
  /** Resolves when the client closed the connection (or `close()` was called). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP Host as an MCP server: the host's active role view (tools under their exposed names with
 * their reviewed definitions, resources, prompts, `search_tools` over budget) to any MCP client,
 * over stdio or Streamable HTTP on 127.0.0.1. Every call goes through `McpHost.call` with the
 * upstream client as actor, so role, validation, pins, rules, timeout, confirmation and audit
 * apply as for `@mcp`. Serves the 2025-era protocol (initialize) and the 2026-07-28 revision
 * (per-request envelope) through the SDK's serving entries.
 */
export class Gateway {
  private readonly store = new DisposableStore();
  private readonly upstream = new UpstreamClients();
  private readonly asking = new UpstreamConfirmations();
  private readonly offers = new Map<string, GatewayOffer>();
  private readonly stdio = new Set<{ server?: Server; close(): Promise<void> }>();
  private readonly http = new Set<HttpListener>();
  private readonly context: GatewayContext;
  private nextStdio = 1;
  private closing?: Promise<void>;

  /** The connected upstream clients changed (one came, went, or made a call). */
  readonly onDidChangeClients: Event<readonly UpstreamClient[]> = this.upstream.onDidChange;

  constructor(
    private readonly host: McpHost,
    private readonly options: GatewayOptions,
  ) {
    this.context = {
      host,
      confirmations: options.confirmations,
      clients: this.upstream,
      asking: this.asking,
      catalog: new GatewayCatalog(() => host.snapshot()),
      logger: options.logger,
      offer: (id) => this.offer(id),
      toolsFound: () => this.notify('tools'),
    };
    options.relay?.attach((server) => this.asking.callOf(server));
    const changes = new ViewChanges(() => host.snapshot(), (kind) => this.notify(kind));
    this.store.add(host.onDidChange(() => changes.check()));
  }

  /** Serves one client over a pair of streams (the CLI: stdin/stdout). */
  serveStdio(input: Readable, output: Writable): GatewayStdio {
    const id = `stdio:${this.nextStdio++}`;
    let resolveClosed!: () => void;
    const closed = new Promise<void>((r) => (resolveClosed = r));
    const entry: { server?: Server; close(): Promise<void> } = { close: () => handle.close() };
    const transport = new StdioServerTransport(input, output);
    const handle = sdkServeStdio(
      () => {
        const server = createGatewayServer(this.context, { transport: 'stdio', id });
        entry.server = server;
        return server;
      },
      { transport, onerror: (e) => this.options.logger.debug(`gateway stdio: ${e.message}`) },
    );
    // The entry owns the transport; its close (end of input) ends this client.
    const ended = () => {
      this.stdio.delete(entry);
      this.upstream.gone(id);
      this.offers.delete(id);
      resolveClosed();
    };
    input.once('end', ended);
    input.once('close', ended);
    this.stdio.add(entry);
    return {
      closed,
      close: async () => {
        await handle.close();
        ended();
      },
    };
  }

  /** Streamable HTTP on 127.0.0.1 (a random port unless `port`), every request behind `token`. */
  async listenHttp(options: { readonly port?: number; readonly token: string }): Promise<GatewayHttp> {
    if (!options.token) throw new Error('the gateway needs a token for HTTP: no token, no access');
    const listener = await listenHttp({
      port: options.port,
      token: options.token,
      logger: this.options.logger,
      newServer: () => createGatewayServer(this.context, { transport: 'http' }),
      onSessionClosed: (sid) => {
        this.upstream.gone(sid);
        this.offers.delete(sid);
      },
    });
    this.http.add(listener);
    return {
      url: listener.url,
      close: async () => {
        this.http.delete(listener);
        await listener.close();
        if (!this.http.size) this.upstream.goneWhere('http');
      },
    };
  }

  /** The upstream clients connected now. */
  clients(): readonly UpstreamClient[] {
    return this.upstream.list();
  }

  /** Stops serving: waiting confirmations are denied, listeners and connections closed. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.store.dispose();
      this.asking.dispose();
      await Promise.all([...this.http].map((h) => h.close()));
      await Promise.all([...this.stdio].map((s) => s.close().catch(() => undefined)));
      this.http.clear();
      this.stdio.clear();
      this.upstream.dispose();
    })();
    return this.closing;
  }

  private offer(id: string): GatewayOffer {
    let offer = this.offers.get(id);
    if (!offer) this.offers.set(id, (offer = new GatewayOffer(this.options.annotateForEditor ?? false)));
    return offer;
  }

  private notify(kind: 'tools' | 'resources' | 'prompts'): void {
    for (const s of this.stdio) {
      const server = s.server;
      if (!server) continue;
      const send = kind === 'tools' ? server.sendToolListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
      send.catch(() => undefined);
    }
    for (const h of this.http) h.notify(kind);
  }
}
