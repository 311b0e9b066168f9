import type { ServerCalls } from '../mcp/call/serverCalls';
import type { RequiredUrlElicitation, UrlElicitationStep } from '../mcp/call/urlElicitationRequired';
import type { Logger } from '../util/logger';
import { cut } from '../util/text';
import type { ElicitationHandler, UrlDecision } from './elicitationHandler';

/**
 * The step a server's -32042 (URL elicitation required, protocol 2025-11-25) asks of one client's
 * server: each URL elicitation goes through the elicitation handler like an `elicitation/create` in
 * URL mode (trust, role, `mcpHost.elicitation`, the person, one audit record each), one after the
 * other; the first one not accepted ends the step with a text saying why. Once every URL is open,
 * the host waits for the server's `notifications/elicitation/complete` of each (spec: a client MAY
 * wait for it to retry) at most `waitMs`, with the server's call clocks stopped: a server that never
 * sends it is retried when the wait ends, and says itself whether the step is done. Notices for ids
 * it is not waiting for are ignored (spec: unknown or already completed ids MUST be ignored).
 */
export class ClientUrlSteps implements UrlElicitationStep {
  /** The ids of the step in progress, true once the server said it completed. */
  private readonly pending = new Map<string, boolean>();
  /** The waits in progress (calls of this server may meet -32042 at the same time). */
  private readonly waits = new Set<() => void>();

  constructor(
    private readonly server: string,
    private readonly handler: ElicitationHandler,
    private readonly calls: ServerCalls,
    private readonly logger: Logger,
  ) {}

  async complete(elicitations: readonly RequiredUrlElicitation[], signal: AbortSignal, waitMs: number): Promise<void> {
    // Registered before the first question: a notice that arrives while the person is asked counts.
    for (const e of elicitations) this.pending.set(e.elicitationId, false);
    try {
      for (const e of elicitations) {
        const decision = await this.handler.urlRequired(this.server, { message: e.message, url: e.url, elicitationId: e.elicitationId }, signal);
        if (signal.aborted) throw signal.reason;
        if (decision.result.action !== 'accept') throw new Error(notDoneText(this.server, e, decision));
      }
      await this.completion(elicitations, signal, waitMs);
    } finally {
      for (const e of elicitations) this.pending.delete(e.elicitationId);
    }
  }

  /** `notifications/elicitation/complete` from the server. */
  completed(elicitationId: string): void {
    if (this.pending.get(elicitationId) !== false) return;
    this.pending.set(elicitationId, true);
    for (const wait of this.waits) wait();
  }

  /** Until the server said every id completed, `waitMs` passed, or the call ended; the clocks of the server's calls stand still meanwhile. */
  private async completion(elicitations: readonly RequiredUrlElicitation[], signal: AbortSignal, waitMs: number): Promise<void> {
    const done = () => elicitations.every((e) => this.pending.get(e.elicitationId));
    if (done() || signal.aborted) return;
    this.logger.info(`[${this.server}] waiting up to ${waitMs} ms for the server to confirm the step in the browser (notifications/elicitation/complete)`);
    const hold = this.calls.askingUser(this.server);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: () => void = () => undefined;
    let check: () => void = () => undefined;
    try {
      const finished = await new Promise<boolean>((resolve) => {
        check = () => void (done() && resolve(true));
        this.waits.add(check);
        onAbort = () => resolve(false);
        signal.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => resolve(false), waitMs);
      });
      if (!finished && !signal.aborted) this.logger.info(`[${this.server}] no confirmation of the step in the browser after ${waitMs} ms: the request is sent again, the server decides`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.waits.delete(check);
      hold.dispose();
    }
  }
}

/** Why the call fails: the step in the browser was not done, for the model and the person. */
function notDoneText(server: string, e: RequiredUrlElicitation, d: UrlDecision): string {
  const why =
    d.finish.outcome === 'declined'
      ? 'the person declined to open it'
      : d.finish.outcome === 'cancelled'
        ? (d.finish.reason ?? 'the person dismissed the question')
        : d.finish.decidedBy === 'policy' && d.finish.outcome === 'denied'
          ? `the host refused it: ${d.finish.reason}`
          : (d.finish.reason ?? d.finish.outcome);
  return `server "${server}" needs a step in the browser before this tool can run ("${cut(e.message, 200)}", ${siteOf(e.url)}), and it was not done: ${why}. The tool did not run.`;
}

function siteOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}
