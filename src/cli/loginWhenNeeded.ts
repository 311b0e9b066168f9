import { issuerKeyOf } from '../core/auth/credentialStore';
import { cliCommand } from './nextCommand';
import type { McpHost } from '../core/host/mcpHost';
import type { Write } from './stderrLogger';

/** Authorization servers one server may be signed in with per run: its own, and one it moved to (SEP-2352). */
const MAX_AUTHORIZATION_SERVERS_PER_RUN = 2;

/**
 * `--login`: the command signs in by itself to servers that need it, one at a time (one browser
 * page at a time). Like withSignIn, per server and per run at most one sign-in because it was
 * refused (401) and one step-up because a scope was too narrow (403 insufficient_scope); after that
 * the server keeps its state and the command reports it. No retry loops. The one exception: a
 * server that names another authorization server after the sign-in (it moved, SEP-2352) gets one
 * sign-in there, since nothing obtained from the first one is presented to it.
 */
export class LoginWhenNeeded {
  /** Per server, the authorization servers (issuer keys; "" where none was known) signed in with this run. */
  private readonly signedIn = new Map<string, Set<string>>();
  private readonly steppedUp = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: McpHost,
    private readonly write: Write,
    private readonly signal?: AbortSignal,
  ) {}

  /** Sign in to every server of the role that waits for it, as long as the limits allow; then their connections have restarted. */
  async signInWaiting(): Promise<void> {
    for (;;) {
      const next = this.host.snapshot().servers.find((s) => s.usedByRole && s.needsSignIn && this.allowed(s.name));
      if (!next || this.signal?.aborted) return;
      await this.signIn(next.name);
    }
  }

  /** Whether a sign-in for the server's last refusal is still within the limits. */
  allowed(server: string): boolean {
    const request = this.host.auth.pending(server);
    if (!request) return false;
    if (request.stepUp) return !this.steppedUp.has(server);
    const used = this.signedIn.get(server);
    if (!used) return true;
    return request.issuer !== undefined && !used.has(issuerKeyOf(request.issuer)) && used.size < MAX_AUTHORIZATION_SERVERS_PER_RUN;
  }

  /** One sign-in for the server's last refusal, if the limits allow it (serialized); true when it signed in. */
  signIn(server: string): Promise<boolean> {
    const run = this.queue.then(() => this.run(server));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(server: string): Promise<boolean> {
    if (!this.allowed(server) || this.signal?.aborted) return false;
    const request = this.host.auth.pending(server);
    const stepUp = request?.stepUp ?? false;
    let used: Set<string> | undefined;
    if (stepUp) this.steppedUp.add(server);
    else {
      used = this.signedIn.get(server) ?? new Set<string>();
      this.signedIn.set(server, used);
      used.add(request?.issuer !== undefined ? issuerKeyOf(request.issuer) : '');
    }
    this.write(`mcp-host: "${server}" ${stepUp ? 'asks for additional permission' : 'needs you to sign in'}; signing in (--login)\n`);
    const result = await this.host.auth.signIn(server, this.signal ? { signal: this.signal } : {});
    if (result.kind === 'signedIn') {
      if (used?.delete('')) used.add(issuerKeyOf(result.issuer));
      this.write(`mcp-host: signed in to "${server}" with ${result.issuer}\n`);
      return true;
    }
    this.write(`mcp-host: sign-in to "${server}" ${result.kind}: ${result.reason}\n`);
    return false;
  }
}

/** The command that signs in to `server`, for messages. */
export function loginCommand(server: string, workspace: string | undefined): string {
  return cliCommand(['login', server], { workspace });
}
