import type { ElicitRequestFormParams, ElicitRequestParams, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/client';
import { summarize } from '../audit/redactArguments';
import { whyNotOpenable } from '../auth/openableUrl';
import { ElicitationForm } from './elicitationForm';
import type { ElicitationPrompter } from './elicitationPrompter';
import { ServerRequestRun, type Finish, type ServerRequestDeps } from './serverRequestRun';

/**
 * The one path of every `elicitation/create`: policy (trust, role, `mcpHost.elicitation`) →
 * the user, always (never answered for them) → defaults and validation (form) or the URL check
 * and opening after consent (URL) → one audit record → the answer. A failure to ask is a decline.
 */
export class ElicitationHandler {
  constructor(
    private readonly deps: ServerRequestDeps,
    private readonly prompter: ElicitationPrompter,
  ) {}

  async handle(server: string, params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult> {
    return params.mode === 'url' ? this.url(server, params, signal) : this.form(server, params as ElicitRequestFormParams, signal);
  }

  private async form(server: string, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const form = new ElicitationForm(params.requestedSchema);
    const run = new ServerRequestRun(this.deps, 'elicitation', server, { mode: 'form', message: summarize(params.message), fields: form.summary() });
    const refused = run.refusal((p) => p.requests.allowsElicitation(server), 'mcpHost.elicitation');
    if (refused) return this.reply(run, { action: 'decline' }, { outcome: 'denied', decidedBy: 'policy', reason: refused });

    const context = { server, role: run.role, duringCall: run.duringCall, message: params.message };
    const asked = await run.ask((s) => this.prompter.askForm({ ...context, form }, s), signal);
    if (!asked.ok) return this.reply(run, ...notAsked(signal, asked.error));
    const answer = asked.value;
    if (answer.action !== 'accept') return this.reply(run, { action: answer.action }, { outcome: outcomeOf(answer.action), decidedBy: 'user' });

    const content = form.complete(answer.content);
    const errors = form.validate(content);
    if (errors.length) {
      return this.reply(run, { action: 'decline' }, { outcome: 'invalid', decidedBy: 'user', answer: form.redact(content), reason: `the answer does not match the form: ${errors.join('; ')}` });
    }
    return this.reply(run, { action: 'accept', content: content as ElicitResult['content'] }, { outcome: 'accepted', decidedBy: 'user', answer: form.redact(content) });
  }

  private async url(server: string, params: ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult> {
    return (await this.decideUrl(server, params, signal)).result;
  }

  /**
   * A URL elicitation a server's -32042 (URL elicitation required) names, on the same path as
   * `elicitation/create` in URL mode; `signal` is the call's (a Stop or its timeout ends the
   * question). Returns the answer and how it was decided (what the call's error says when it was
   * not accepted); the audit record says where the question came from.
   */
  urlRequired(server: string, params: Omit<ElicitRequestURLParams, 'mode'>, signal: AbortSignal): Promise<UrlDecision> {
    return this.decideUrl(server, { ...params, mode: 'url' }, signal, { via: 'urlElicitationRequired', withdrawn: 'the call was stopped' });
  }

  private async decideUrl(server: string, params: ElicitRequestURLParams, signal: AbortSignal, from: UrlSource = {}): Promise<UrlDecision> {
    const request = { mode: 'url', message: summarize(params.message), url: params.url, elicitationId: params.elicitationId, ...(from.via ? { via: from.via } : {}) };
    const run = new ServerRequestRun(this.deps, 'elicitation', server, request);
    const refused = run.refusal((p) => p.requests.allowsElicitation(server), 'mcpHost.elicitation');
    if (refused) return this.decided(run, { action: 'decline' }, { outcome: 'denied', decidedBy: 'policy', reason: refused });
    const unsafe = whyNotOpenable(params.url);
    if (unsafe) return this.decided(run, { action: 'decline' }, { outcome: 'invalid', decidedBy: 'policy', reason: `the URL is not opened: ${unsafe}` });

    const question = { server, role: run.role, duringCall: run.duringCall, message: params.message, url: params.url, origin: new URL(params.url).origin, elicitationId: params.elicitationId };
    const asked = await run.ask((s) => this.prompter.askUrl(question, s), signal);
    if (!asked.ok) return this.decided(run, ...notAsked(signal, asked.error, from.withdrawn));
    if (asked.value.action !== 'accept') return this.decided(run, { action: asked.value.action }, { outcome: outcomeOf(asked.value.action), decidedBy: 'user' });
    try {
      await this.prompter.openUrl(params.url);
    } catch (e) {
      return this.decided(run, { action: 'decline' }, { outcome: 'error', decidedBy: 'user', reason: `the user agreed, but the URL could not be opened: ${e instanceof Error ? e.message : String(e)}` });
    }
    return this.decided(run, { action: 'accept' }, { outcome: 'accepted', decidedBy: 'user', answer: { opened: params.url } });
  }

  private async reply(run: ServerRequestRun, result: ElicitResult, finish: Finish): Promise<ElicitResult> {
    await run.finish(finish);
    return result;
  }

  private async decided(run: ServerRequestRun, result: ElicitResult, finish: Finish): Promise<UrlDecision> {
    await run.finish(finish);
    return { result, finish };
  }
}

/** Where a URL question came from, when not from `elicitation/create`. */
interface UrlSource {
  /** Recorded in the audit record's request. */
  readonly via?: 'urlElicitationRequired';
  /** What an abort of the signal means (default: the server withdrew the request). */
  readonly withdrawn?: string;
}

/** The answer to a URL question and how it was decided (its audit record). */
export interface UrlDecision {
  readonly result: ElicitResult;
  readonly finish: Finish;
}

/** Asking failed or the question was withdrawn (by the server, or a Stop of the call): never consent. */
function notAsked(signal: AbortSignal, error: string, withdrawn = 'the server withdrew the request'): [ElicitResult, Finish] {
  if (signal.aborted) return [{ action: 'cancel' }, { outcome: 'cancelled', decidedBy: 'user', reason: withdrawn }];
  return [{ action: 'decline' }, { outcome: 'error', decidedBy: 'user', reason: `asking the user failed, declined: ${error}` }];
}

function outcomeOf(action: 'decline' | 'cancel'): 'declined' | 'cancelled' {
  return action === 'decline' ? 'declined' : 'cancelled';
}
