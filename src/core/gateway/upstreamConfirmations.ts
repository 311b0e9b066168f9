import { randomUUID } from 'node:crypto';
import { inputRequired, inputResponse, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '../calls/confirmer';
import type { ToolCallResult } from '../calls/toolRouter';
import { cut } from '../util/text';

/** The key of the gateway's question in `inputRequests` / `inputResponses`. */
export const CONFIRM_KEY = 'confirm';
/** How long a question waits for the client's retry before the call is denied (the SDK's default round timeout). */
const DEFAULT_WAIT_MS = 600_000;

/** A tool call of an upstream client in flight through the router, possibly waiting for its answer. */
interface PendingCall {
  readonly owner: string;
  readonly name: string;
  readonly result: Promise<ToolCallResult>;
  readonly abort: AbortController;
  /** Set while the router waits for the client's answer. */
  question?: { readonly request: ConfirmationRequest; readonly answer: (a: ConfirmationAnswer) => void };
  /** Resolves when the router asks (again). */
  asked: Promise<void>;
  onAsked: () => void;
  timer?: NodeJS.Timeout;
}

/** What one round of a `tools/call` returns: the call's result, or the question for the client. */
export type CallRound = { readonly done: ToolCallResult } | { readonly ask: InputRequiredResult };

/**
 * Confirmation by the upstream client (`confirmations: 'upstream'`), over the multi-round-trip
 * flow of the SDK (input_required results): when the router asks, the `tools/call` answers with
 * an elicitation naming tool, server and arguments, and the call waits in the router; the client's
 * retry (its `requestState` names the call) answers the question and the call goes on. On
 * 2025-era connections the SDK's legacy shim turns this into a real `elicitation/create` request,
 * so both eras ask the same way. Decline, cancel, no answer in time or a retry that does not fit
 * deny; the call never runs unasked.
 */
export class UpstreamConfirmations {
  private readonly calls = new Map<string, PendingCall>();

  constructor(private readonly waitMs = DEFAULT_WAIT_MS) {}

  /** Starts a call whose confirmation is asked of `owner`; `run` gets the per-call confirmer and signal. */
  async start(owner: string, name: string, signal: AbortSignal, run: (confirmer: Confirmer, signal: AbortSignal) => Promise<ToolCallResult>): Promise<CallRound> {
    const id = randomUUID();
    const abort = new AbortController();
    let onAsked!: () => void;
    const pending: PendingCall = { owner, name, abort, asked: new Promise<void>((r) => (onAsked = r)), onAsked: () => onAsked(), result: undefined as unknown as Promise<ToolCallResult> };
    const confirmer: Confirmer = {
      confirm: (request, callSignal) =>
        new Promise<ConfirmationAnswer>((resolve) => {
          const answer = (a: ConfirmationAnswer) => {
            clearTimeout(pending.timer);
            pending.question = undefined;
            resolve(a);
          };
          if (callSignal?.aborted) return resolve('deny');
          callSignal?.addEventListener('abort', () => answer('deny'), { once: true });
          pending.question = { request, answer };
          pending.timer = setTimeout(() => answer('deny'), this.waitMs);
          pending.timer.unref?.();
          const fire = pending.onAsked;
          pending.asked = new Promise<void>((r) => (pending.onAsked = r));
          fire();
        }),
    };
    (pending as { result: Promise<ToolCallResult> }).result = run(confirmer, abort.signal).finally(() => this.calls.delete(id));
    this.calls.set(id, pending);
    return this.round(id, pending, signal);
  }

  /** A retry with `requestState`: answers the question and goes on; undefined when the state names no call of this client. */
  async resume(owner: string, name: string, state: string, responses: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallRound | undefined> {
    const pending = this.calls.get(state);
    if (!pending || pending.owner !== owner || pending.name !== name || !pending.question) return undefined;
    const response = inputResponse(responses, CONFIRM_KEY);
    const content = response.kind === 'elicit' && response.action === 'accept' ? response.content : undefined;
    pending.question.answer(content?.approve === true ? 'once' : 'deny');
    return this.round(state, pending, signal);
  }

  /** Ends every waiting call (denied: nobody answered). */
  dispose(): void {
    for (const p of this.calls.values()) p.question?.answer('deny');
  }

  /** Waits until the call ends or asks; the client's abort of this round cancels the call. */
  private async round(id: string, pending: PendingCall, signal: AbortSignal): Promise<CallRound> {
    const cancel = () => pending.abort.abort(signal.reason);
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const next = await Promise.race([pending.result.then((done) => ({ done })), pending.asked.then(() => undefined)]);
      if (next) return next;
      const q = pending.question!.request;
      return { ask: inputRequired({ inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ message: questionText(q), requestedSchema: APPROVE_SCHEMA }) }, requestState: id }) };
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
