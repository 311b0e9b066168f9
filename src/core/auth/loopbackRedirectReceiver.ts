import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a sign-in's redirect ended. */
export type RedirectOutcome =
  | { readonly kind: 'code'; readonly code: string; /** RFC 9207 `iss`, when the server sent it. */ readonly iss?: string }
  /** The authorization server redirected with an error (`access_denied` when the user declined). */
  | { readonly kind: 'error'; readonly error: string; readonly description?: string }
  /** A redirect arrived whose `state` is not the one sent: possibly forged, so the sign-in stops. */
  | { readonly kind: 'stateMismatch' }
  | { readonly kind: 'timeout'; readonly afterMs: number }
  | { readonly kind: 'aborted' };

export interface LoopbackRedirectReceiverOptions {
  /** The `state` the authorization request carries; the redirect must bring back exactly this. */
  readonly state: string;
  /** How long to wait for the redirect before giving up. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Path of the redirect URI (default `/callback`). */
  readonly path?: string;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};

function page(title: string, text: string): string {
  // Nothing from the request is echoed into the page.
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
    '<style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:32em;color:#222}</style></head>' +
    `<body><h1>${title}</h1><p>${text}</p></body></html>`
  );
}

/**
 * Receives the authorization server's redirect for one sign-in on http://127.0.0.1:<random port>.
 * It settles exactly once (code, error answer, state mismatch, timeout or abort) and then closes
 * its listener and every connection, so nothing is left listening after success, failure or an
 * abandoned sign-in. Requests to other paths (a browser's favicon) get a 404 and are not counted.
 */
export class LoopbackRedirectReceiver {
  /** Settles once with how the redirect ended; never rejects. */
  readonly outcome: Promise<RedirectOutcome>;
  private settleOutcome!: (o: RedirectOutcome) => void;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.finish({ kind: 'aborted' });
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly server: http.Server,
    /** The port listened on. */
    readonly port: number,
    readonly redirectUrl: string,
    private readonly options: LoopbackRedirectReceiverOptions,
  ) {
    this.outcome = new Promise((resolve) => (this.settleOutcome = resolve));
  }

  /** Starts listening on 127.0.0.1 (a port the OS chooses). */
  static async start(options: LoopbackRedirectReceiverOptions): Promise<LoopbackRedirectReceiver> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const receiver = new LoopbackRedirectReceiver(server, port, `http://127.0.0.1:${port}${options.path ?? '/callback'}`, options);
    server.on('request', (req, res) => receiver.handle(req, res));
    receiver.timer = setTimeout(() => receiver.finish({ kind: 'timeout', afterMs: options.timeoutMs }), options.timeoutMs);
    if (options.signal?.aborted) receiver.finish({ kind: 'aborted' });
    else options.signal?.addEventListener('abort', receiver.onAbort, { once: true });
    return receiver;
  }

  /** Whether the listener still accepts connections. */
  get listening(): boolean {
    return this.server.listening;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.redirectUrl);
    if (req.method !== 'GET' || url.pathname !== new URL(this.redirectUrl).pathname || this.settled) {
      res.writeHead(404, { ...PAGE_HEADERS, connection: 'close' }).end(page('Not found', 'Nothing here.'));
      return;
    }
    const q = url.searchParams;
    const code = q.get('code');
    const error = q.get('error');
    if (code === null && error === null) {
      res.writeHead(400, { ...PAGE_HEADERS, connection: 'close' }).end(page('Not a sign-in answer', 'This address waits for an authorization server.'));
      return;
    }
    let outcome: RedirectOutcome;
    let status = 200;
    if (q.get('state') !== this.options.state) {
      outcome = { kind: 'stateMismatch' };
      status = 400;
      res.writeHead(status, { ...PAGE_HEADERS, connection: 'close' });
      res.end(page('Sign-in stopped', 'This answer does not belong to the sign-in MCP Host started, so it was ignored and the sign-in stopped. Try again from MCP Host.'));
    } else if (error !== null) {
      const description = q.get('error_description');
      outcome = { kind: 'error', error, ...(description ? { description } : {}) };
      res.writeHead(status, { ...PAGE_HEADERS, connection: 'close' });
      res.end(page('Sign-in not completed', 'The authorization server did not grant access. You can close this tab and see MCP Host for details.'));
    } else {
      const iss = q.get('iss');
      outcome = { kind: 'code', code: code as string, ...(iss !== null ? { iss } : {}) };
      res.writeHead(status, { ...PAGE_HEADERS, connection: 'close' });
      res.end(page('Signed in', 'MCP Host received the authorization. You can close this tab.'));
    }
    // Close only once the page has gone out.
    res.once('finish', () => this.finish(outcome));
    res.once('close', () => this.finish(outcome));
  }

  private finish(outcome: RedirectOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.settleOutcome(outcome);
    void this.close();
  }

  /** Stops listening and drops every connection; resolves once the listener is closed. Idempotent. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.timer) clearTimeout(this.timer);
      this.options.signal?.removeEventListener('abort', this.onAbort);
      if (!this.settled) {
        this.settled = true;
        this.settleOutcome({ kind: 'aborted' });
      }
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.closed;
  }
}
