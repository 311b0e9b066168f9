import * as http from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import { bearerMatches } from './bearerToken';

/** The largest request body the gateway reads (an MCP request, not a file upload). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpGatewayOptions {
  readonly port?: number;
  readonly token: string;
  /** A fresh server for a 2025-era session, or for one 2026-era request. */
  readonly newServer: (era: 'legacy' | 'modern', sessionId?: () => string | undefined) => Server;
  readonly onSessionClosed: (sessionId: string) => void;
  readonly logger: Logger;
}

export interface HttpListener {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  close(): Promise<void>;
  /** Sends `notifications/*\/list_changed` to every open session and 2026-era subscription. */
  notify(kind: 'tools' | 'resources' | 'prompts'): void;
}

/**
 * Streamable HTTP on 127.0.0.1 only, every request behind the bearer token (401 without it, the
 * token compared in constant time). Both protocol eras: 2025-era clients get a session of their
 * own (a `Server` per `Mcp-Session-Id`, so notifications and server-to-client requests reach
 * them), 2026-era requests go to the SDK's per-request handler (`createMcpHandler`).
 */
export async function listenHttp(options: HttpGatewayOptions): Promise<HttpListener> {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: Server }>();
  const onerror = (e: Error) => options.logger.debug(`gateway http: ${e.message}`);
  const modern: McpHttpHandler = createMcpHandler(() => options.newServer('modern'), { legacy: 'reject', onerror });

  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    const known = id ? sessions.get(id) : undefined;
    if (known) return known.transport.handleRequest(request, { parsedBody });
    if (id) return jsonError(404, 'Session not found: start a new session with initialize.');
    let sessionId: string | undefined;
    const server = options.newServer('legacy', () => sessionId);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sid) => {
        sessionId = sid;
        sessions.set(sid, { transport, server });
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
        options.onSessionClosed(sid);
      },
    });
    transport.onclose = () => {
      if (sessionId && sessions.delete(sessionId)) options.onSessionClosed(sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody });
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer realm="mcp-host"' }).end(JSON.stringify({ error: 'unauthorized', error_description: 'MCP Host gateway: a valid bearer token is required.' }));
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (body === 'tooLarge') {
      res.writeHead(413).end('request body too large');
      return;
    }
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined, signal: abort.signal });
    const response = (await isLegacyRequest(request.clone(), parsed)) ? await legacy(request, parsed) : await modern.fetch(request, { parsedBody: parsed });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (!response.body) return void res.end();
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).on('error', () => res.end()).pipe(res);
  };

  const httpServer = http.createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      options.logger.warn(`gateway http: ${errorText(e)}`);
      if (!res.headersSent) res.writeHead(500).end('internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    notify(kind) {
      for (const { server } of sessions.values()) {
        const send = kind === 'tools' ? server.sendToolListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
        send.catch(() => undefined);
      }
      if (kind === 'tools') modern.notify.toolsChanged();
      else if (kind === 'resources') modern.notify.resourcesChanged();
      else modern.notify.promptsChanged();
    },
    close() {
      closing ??= (async () => {
        for (const { transport } of [...sessions.values()]) await transport.close().catch(() => undefined);
        sessions.clear();
        await modern.close().catch(() => undefined);
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closing;
    },
  };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer | 'tooLarge'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return 'tooLarge';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}
