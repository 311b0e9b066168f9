import { cliCommand } from './nextCommand';
import type { McpHost } from '../core/host/mcpHost';
import type { Write } from './stderrLogger';

/**
 * `--login`: the command signs in by itself to servers that need it, one at a time (one browser
 * page at a time). Like withSignIn, per server and per run at most one sign-in because it was
 * refused (401) and one step-up because a scope was too narrow (403 insufficient_scope); after that
 * the server keeps its state and the command reports it. No retry loops.
 */
export class LoginWhenNeeded {
  private readonly signedIn = new Set<string>();
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
    return !(request.stepUp ? this.steppedUp : this.signedIn).has(server);
  }

  /** One sign-in for the server's last refusal, if the limits allow it (serialized); true when it signed in. */
  signIn(server: string): Promise<boolean> {
    const run = this.queue.then(() => this.run(server));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(server: string): Promise<boolean> {
    if (!this.allowed(server) || this.signal?.aborted) return false;
    const stepUp = this.host.auth.pending(server)?.stepUp ?? false;
    (stepUp ? this.steppedUp : this.signedIn).add(server);
    this.write(`mcp-host: "${server}" ${stepUp ? 'asks for additional permission' : 'needs you to sign in'}; signing in (--login)\n`);
    const result = await this.host.auth.signIn(server, this.signal ? { signal: this.signal } : {});
    if (result.kind === 'signedIn') {
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
