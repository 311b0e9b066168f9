import type { McpHost } from '../core/host/mcpHost';
import type { CallProgress } from '../core/mcp/callProgress';
import { CallAbortController } from '../core/util/callAbort';
import { callView, problemViews, serverViews } from './jsonViews';
import { usableRoleNames, type Workspace } from './loadWorkspace';
import { runCatalogOp } from './sessionCatalogOps';
import type { SessionRequest } from './sessionProtocol';
import type { SessionRequests } from './sessionRequests';
import { SessionTools } from './sessionTools';

export type SessionAnswer = Record<string, unknown>;

/**
 * Runs one session request against the host and returns its answer. Requests wait until the
 * servers' start-up has settled. A failing request is answered `{ id, error }`; nothing throws.
 *
 * Requests run concurrently but keep the order of the lines around a role switch: the switch
 * waits for the calls already in flight (they were allowed under the old role and must not lose
 * their server), and every request after it waits for the switch.
 */
export class SessionHandler {
  private readonly callsInFlight = new Set<Promise<unknown>>();
  /** Settles when the last role switch has. */
  private barrier: Promise<void> = Promise.resolve();
  /**
   * Each call's own stop, aborted by the session's signal (one listener on it for the whole
   * session): a call gets a signal that costs nothing to link to, where the session's real
   * AbortSignal took an EventTarget listener added and removed on every call.
   */
  private readonly stops = new Set<CallAbortController>();
  /** The tools offered to the driving model within the role's budget, and its search_tools. */
  private readonly offer: SessionTools;

  constructor(
    private readonly host: McpHost,
    private readonly workspace: Workspace,
    private readonly ready: Promise<unknown>,
    /** Aborted when the session ends by a signal: calls in flight are cancelled. */
    private readonly signal?: AbortSignal,
    /** The servers' open questions (elicitation, sampling) that the driver answers. */
    private readonly requests?: SessionRequests,
    /** Prints an event line (a call's progress). */
    private readonly emit?: (event: Record<string, unknown>) => void,
  ) {
    this.offer = new SessionTools(host);
    signal?.addEventListener('abort', () => {
      for (const stop of this.stops) stop.abort(signal.reason);
    }, { once: true });
  }

  async handle(request: SessionRequest): Promise<SessionAnswer> {
    try {
      // An answer to a server's question never waits: the call that asked may be what start-up waits for.
      if (request.op !== 'elicitation' && request.op !== 'sampling') await this.ready;
      return { id: request.id, op: request.op, ...(await this.run(request)) };
    } catch (e) {
      return { id: request.id, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Runs synchronously up to its first await, so requests see each other in line order. */
  private async run(request: SessionRequest): Promise<Record<string, unknown>> {
    const host = this.host;
    const gate = this.barrier;
    switch (request.op) {
      case 'tools':
        await gate;
        return this.offer.offer({ query: request.query, all: request.all });
      case 'servers':
        await gate;
        return this.servers();
      case 'call': {
        const onProgress = (p: CallProgress) => this.emit?.({ event: 'progress', request: request.id, name: request.name, ...p });
        const stop = new CallAbortController();
        if (this.signal?.aborted) stop.abort(this.signal.reason);
        this.stops.add(stop);
        // search_tools (when the role is over its budget) is the session's own tool, as in the chat.
        const call = gate.then(async () => (await this.offer.search(request.name, request.args)) ?? host.call({ name: request.name, args: request.args, signal: stop.signal, onProgress }));
        this.callsInFlight.add(call);
        try {
          const result = await call;
          return 'found' in result ? { ...result } : { ...callView(result, host.snapshot()) };
        } finally {
          this.callsInFlight.delete(call);
          this.stops.delete(stop);
        }
      }
      case 'refresh':
        if (request.server !== undefined && !host.snapshot().server(request.server)) throw new Error(`no server named "${request.server}"`);
        await gate;
        await host.servers.refreshTools(request.server);
        return this.offer.offer();
      case 'role': {
        const roles = usableRoleNames(this.workspace);
        if (request.name !== null && !roles.includes(request.name)) {
          throw new Error(`unknown role "${request.name}" (${roles.length ? `roles: ${roles.join(', ')}` : 'no roles are defined'})`);
        }
        const earlier = [...this.callsInFlight];
        const name = request.name ?? undefined;
        const change = gate.then(() => Promise.allSettled(earlier)).then(() => host.setRole(name));
        this.barrier = change.then(
          () => undefined,
          () => undefined,
        );
        await change;
        return this.servers();
      }
      case 'elicitation':
      case 'sampling':
        if (!this.requests) throw new Error('this session has no open questions');
        return this.requests.answer(request);
      default:
        await gate;
        return runCatalogOp(host, request, this.signal);
    }
  }

  private servers(): Record<string, unknown> {
    const snapshot = this.host.snapshot();
    return {
      role: snapshot.role ?? null,
      servers: serverViews(snapshot, false),
      problems: problemViews(this.workspace.problems, snapshot),
    };
  }
}
