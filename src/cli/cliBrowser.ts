import { openWithBrowserCommand } from '../core/auth/browserCommand';
import type { Write } from './stderrLogger';

/** How long the CLI waits, at its end, for browser commands it started to exit (a real browser may keep running). */
const SETTLE_MS = 2000;

/**
 * How the CLI shows a sign-in page: `$BROWSER URL` when BROWSER is set (split on whitespace, `%s`
 * replaced by the URL, never through a shell), otherwise the URL printed on stderr for the user
 * to open. Either way the host then waits for the browser's redirect on 127.0.0.1.
 */
export class CliBrowser {
  private readonly started: Promise<unknown>[] = [];

  constructor(
    private readonly env: Record<string, string | undefined>,
    private readonly write: Write,
  ) {}

  readonly openUrl = async (url: URL): Promise<void> => {
    const command = this.env.BROWSER?.trim();
    if (command) {
      try {
        const opened = await openWithBrowserCommand(command, url, this.env as NodeJS.ProcessEnv);
        this.started.push(opened.exited);
        this.write('mcp-host: opened the sign-in page with $BROWSER; waiting for the browser to come back…\n');
        return;
      } catch (e) {
        this.write(`mcp-host warning: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
    this.write(`mcp-host: open this URL in your browser to sign in:\n\n  ${url.href}\n\nWaiting for the browser to come back…\n`);
  };

  /** Wait a little for the browser commands started to exit, so none outlives the CLI needlessly. */
  async settle(): Promise<void> {
    if (this.started.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(this.started), new Promise<void>((r) => (timer = setTimeout(r, SETTLE_MS)))]);
    if (timer) clearTimeout(timer);
  }
}
