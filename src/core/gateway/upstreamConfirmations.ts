import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, type ClientCapabilities, type InputRequest, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { ConfirmationRequest, Confirmer } from '../calls/confirmer';
import type { ToolCallResult } from '../calls/toolRouter';
import { cut } from '../util/text';

/** The key of the gateway's question in `inputRequests` / `inputResponses`. */
export const ASK_KEY = 'mcp-host';
/** How long a question waits for the client's retry before it counts as declined (the SDK's default round timeout). */
const DEFAULT_WAIT_MS = 600_000;

/** One question to the client: what to send, and what to do with its response (undefined: none came). */
interface Question {
  readonly input: InputRequest;
  readonly answer: (response: Record<string, unknown> | undefined) => void;
}

/** Who makes a call: the upstream client's id, its name (for messages) and what it declared it can answer. */
export interface Caller {
  readonly id: string;
  readonly name: string;
  readonly capabilities: ClientCapabilities | undefined;
}

/** The upstream call a server's request belongs to: who can be asked, what it can answer, and how to ask it. */
export interface UpstreamCall {
  readonly client: string;
  readonly tool: string;
  readonly capabilities: ClientCapabilities | undefined;
  ask(input: InputRequest, signal: AbortSignal): Promise<Record<string, unknown> | undefined>;
}

/** A tool call of an upstream client in flight through the router, possibly waiting for an answer. */
interface PendingCall {
  readonly caller: Caller;
  readonly name: string;
  /** The server behind the call (the tool's server), looked up only when a server asks something. */
  readonly server: () => string | undefined;
  readonly abort: AbortController;
  result?: Promise<ToolCallResult>;
  question?: Question;
  /** The router asked for a confirmation the caller cannot give (no form elicitation): denied unasked. */
  unasked?: boolean;
  /** Resolves when a question is posed. */
  asked: Promise<void>;
  onAsked: () => void;
}

/**
 * What one round of a `tools/call` returns: the call's result (`unasked`: it needed a confirmation
 * the client cannot give, and was denied), or the question for the client.
 */
export type CallRound = { readonly done: ToolCallResult; readonly unasked?: boolean } | { readonly ask: InputRequiredResult };

/** Whether a client can answer a form question (elicitation declared; `{}` alone means form, as the spec keeps it). */
export function answersForms(capabilities: ClientCapabilities | undefined): boolean {
  const e = capabilities?.elicitation;
  return !!e && (e.form !== undefined || e.url === undefined);
}

/**
 * The upstream client's calls in flight, and the questions they put to it over the SDK's
 * multi-round-trip flow (input_required results): a confirmation the router asks for
 * (`confirmations: 'upstream'`), or a question a server behind asks during the call (relayed,
 * see UpstreamRelay). The `tools/call` answers with the question while the call waits; the
 * client's retry (its `requestState` names the call) answers it and the call goes on. On 2025-era
 * connections the SDK's legacy shim turns this into a real `elicitation/create` request, so both
 * eras ask the same way. Decline, cancel, no answer in time or a retry that does not fit count as
 * no; a call never runs unasked.
 */
export class UpstreamConfirmations {
  private readonly calls = new Map<string, PendingCall>();

  constructor(private readonly waitMs = DEFAULT_WAIT_MS) {}

  /** Starts a call; `run` gets the confirmer that asks the caller, and the call's signal. */
  async start(caller: Caller, name: string, server: () => string | undefined, signal: AbortSignal, run: (confirmer: Confirmer, signal: AbortSignal) => Promise<ToolCallResult>): Promise<CallRound> {
    const id = randomUUID();
    let onAsked!: () => void;
    const pending: PendingCall = { caller, name, server, abort: new AbortController(), asked: new Promise<void>((r) => (onAsked = r)), onAsked: () => onAsked() };
    const confirmer: Confirmer = {
      confirm: async (request, callSignal) => {
        if (!answersForms(caller.capabilities)) {
          // Nobody to ask: denied, and the result says why (never run unasked).
          pending.unasked = true;
          return 'deny';
        }
        const input = inputRequired.elicit({ message: questionText(request), requestedSchema: APPROVE_SCHEMA });
        const response = await this.pose(pending, input, callSignal);
        const view = inputResponse(response ? { [ASK_KEY]: response } : undefined, ASK_KEY);
        return view.kind === 'elicit' && view.action === 'accept' && view.content?.approve === true ? 'once' : 'deny';
      },
    };
    this.calls.set(id, pending);
    pending.result = run(confirmer, pending.abort.signal).finally(() => this.calls.delete(id));
    return this.round(id, pending, signal);
  }

  /** A retry with `requestState`: answers the question and goes on; undefined when the state names no waiting call of this client. */
  async resume(owner: string, name: string, state: string, responses: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallRound | undefined> {
    const pending = this.calls.get(state);
    if (!pending || pending.caller.id !== owner || pending.name !== name || !pending.question) return undefined;
    const response = responses?.[ASK_KEY];
    pending.question.answer(response && typeof response === 'object' ? (response as Record<string, unknown>) : undefined);
    return this.round(state, pending, signal);
  }

  /**
   * The one upstream call of `server` in flight, through which a question of that server is put to
   * the client that made it; undefined when there is no such call, or more than one (then nobody can
   * tell whose it is).
   */
  callOf(server: string): UpstreamCall | undefined {
    const calls = [...this.calls.values()].filter((c) => !c.question && c.server() === server);
    if (calls.length !== 1) return undefined;
    const [pending] = calls;
    return { client: pending.caller.name, tool: pending.name, capabilities: pending.caller.capabilities, ask: (input, signal) => this.pose(pending, input, signal) };
  }

  /** Ends every waiting question (no answer). */
  dispose(): void {
    for (const p of this.calls.values()) p.question?.answer(undefined);
  }

  private pose(pending: PendingCall, input: InputRequest, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    return new Promise((resolve) => {
      if (signal?.aborted || pending.question) return resolve(undefined);
      const answer = (response: Record<string, unknown> | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (pending.question === question) pending.question = undefined;
        resolve(response);
      };
      const onAbort = () => answer(undefined);
      const question: Question = { input, answer };
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(onAbort, this.waitMs);
      timer.unref?.();
      pending.question = question;
      const fire = pending.onAsked;
      pending.asked = new Promise<void>((r) => (pending.onAsked = r));
      fire();
    });
  }

  /** Waits until the call ends or asks; the client's abort of this round cancels the call. */
  private async round(id: string, pending: PendingCall, signal: AbortSignal): Promise<CallRound> {
    const cancel = () => pending.abort.abort(signal.reason);
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const next = await Promise.race([pending.result!.then((done) => ({ done, ...(pending.unasked ? { unasked: true } : {}) })), pending.asked.then(() => undefined)]);
      if (next) return next;
      return { ask: inputRequired({ inputRequests: { [ASK_KEY]: pending.question!.input }, requestState: id }) };
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }
}

const APPROVE_SCHEMA = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Run this tool call', description: 'Yes runs the call once; no (or declining) denies it.' } },
  required: ['approve'],
};

/** The question as the client shows it: tool, server, arguments and why it asks. */
export function questionText(q: ConfirmationRequest): string {
  const args = cut(JSON.stringify(q.args, null, 2), 2000);
  const why = q.rule ? `\nAsked because of ${q.rule.setting}: ${q.rule.reason}.` : '';
  return `MCP Host: allow the call of tool "${q.tool}" of server "${q.server}" (as ${q.name}${q.role ? `, role ${q.role}` : ''})?${why}\nArguments:\n${args}`;
}
