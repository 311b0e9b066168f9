import type { AuditLog } from '../audit/auditLog';
import type { ServerRequestAuditRecord, ServerRequestKind, ServerRequestOutcome } from '../audit/auditRecord';
import type { ActivePolicies, PolicySet } from '../policy/activePolicies';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import type { PromptQueue } from './promptQueue';
import type { ServerCalls } from '../mcp/call/serverCalls';
import { isoNow } from '../util/isoNow';

/** What every kind of server-initiated request needs from the host. */
export interface ServerRequestDeps {
  /** Read on every request, so a settings or role change applies at once. */
  readonly policies: ActivePolicies;
  readonly trusted: () => boolean;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly calls: ServerCalls;
  readonly queue: PromptQueue;
}

export type Asked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface Finish {
  readonly outcome: ServerRequestOutcome;
  readonly decidedBy: 'user' | 'policy';
  readonly answer?: unknown;
  readonly reason?: string;
}

/**
 * One request a server sent the host, on its one path: the policy decision (trust, role, the
 * setting of its kind), the question to the user (one at a time; the server's call clocks stop
 * meanwhile; a failure to ask is never consent), then exactly one audit record.
 */
export class ServerRequestRun {
  readonly policy: PolicySet;
  readonly duringCall: readonly string[];
  private readonly started = performance.now();

  constructor(
    private readonly deps: ServerRequestDeps,
    readonly kind: ServerRequestKind,
    readonly server: string,
    /** What the server asked, as the audit shows it. */
    private readonly request: unknown,
  ) {
    this.policy = deps.policies.current;
    this.duringCall = deps.calls.inFlight(server);
  }

  get role(): string | undefined {
    return this.policy.roleName;
  }

  /** Why the host refuses without asking: untrusted workspace, a server outside the role, or the kind's setting. */
  refusal(allowed: (p: PolicySet) => boolean, setting: string): string | undefined {
    if (!this.deps.trusted()) return 'the workspace is not trusted';
    if (!this.policy.usesServer(this.server)) {
      return this.role ? `role "${this.role}" does not use server "${this.server}"` : `server "${this.server}" is not in use`;
    }
    if (!allowed(this.policy)) return `${setting} does not allow server "${this.server}"${this.role ? ` (role "${this.role}")` : ''}`;
    return undefined;
  }

  /**
   * Put a question to the user after the ones already open. Resolves `{ ok: false }` when asking
   * failed (the prompter threw, a dialog was refused); `signal` is the server's withdrawal of the
   * request, which ends the wait even when the prompter ignores it.
   */
  ask<T>(question: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<Asked<T>> {
    return this.deps.queue.run(async () => {
      if (signal.aborted) return { ok: false, error: 'the server withdrew the request' };
      const hold = this.deps.calls.askingUser(this.server);
      try {
        return { ok: true, value: await untilAborted(question(signal), signal) };
      } catch (e) {
        return { ok: false, error: signal.aborted ? 'the server withdrew the request' : errorText(e) };
      } finally {
        hold.dispose();
      }
    });
  }

  /** Write the one audit record of this request, before the answer goes back. */
  async finish(f: Finish): Promise<void> {
    const durationMs = Math.round((performance.now() - this.started) * 10) / 10;
    const record: ServerRequestAuditRecord = {
      kind: this.kind,
      ts: isoNow(),
      role: this.role ?? null,
      server: this.server,
      duringCall: this.duringCall,
      request: this.request,
      answer: f.answer ?? null,
      outcome: f.outcome,
      decidedBy: f.decidedBy,
      ...(f.reason ? { reason: f.reason } : {}),
      durationMs,
    };
    await this.deps.audit.record(record);
    const why = f.reason ? `: ${f.reason}` : '';
    const line = `[${this.server}] ${this.kind} → ${f.outcome} (${f.decidedBy}) in ${durationMs} ms${why}`;
    if (f.outcome === 'error' || f.outcome === 'invalid') this.deps.logger.warn(line);
    else this.deps.logger.info(line);
  }
}

function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<T>((_, reject) => {
    onAbort = () => reject(new Error('the server withdrew the request'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
