import type { ElicitRequestFormParams, ElicitRequestParams, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/client';
import { summarize } from '../audit/redactArguments';
import { whyNotOpenable } from '../auth/openableUrl';
import { ElicitationForm } from './elicitationForm';
import type { ElicitationPrompter } from './elicitationPrompter';
import { ServerRequestRun, type ServerRequestDeps } from './serverRequestRun';

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
    if (!asked.ok) return this.notAsked(run, signal, asked.error);
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
    const request = { mode: 'url', message: summarize(params.message), url: params.url, elicitationId: params.elicitationId };
    const run = new ServerRequestRun(this.deps, 'elicitation', server, request);
    const refused = run.refusal((p) => p.requests.allowsElicitation(server), 'mcpHost.elicitation');
    if (refused) return this.reply(run, { action: 'decline' }, { outcome: 'denied', decidedBy: 'policy', reason: refused });
    const unsafe = whyNotOpenable(params.url);
    if (unsafe) return this.reply(run, { action: 'decline' }, { outcome: 'invalid', decidedBy: 'policy', reason: `the URL is not opened: ${unsafe}` });

    const question = { server, role: run.role, duringCall: run.duringCall, message: params.message, url: params.url, elicitationId: params.elicitationId };
    const asked = await run.ask((s) => this.prompter.askUrl(question, s), signal);
    if (!asked.ok) return this.notAsked(run, signal, asked.error);
    if (asked.value.action !== 'accept') return this.reply(run, { action: asked.value.action }, { outcome: outcomeOf(asked.value.action), decidedBy: 'user' });
    try {
      await this.prompter.openUrl(params.url);
    } catch (e) {
      return this.reply(run, { action: 'decline' }, { outcome: 'error', decidedBy: 'user', reason: `the user agreed, but the URL could not be opened: ${e instanceof Error ? e.message : String(e)}` });
    }
    return this.reply(run, { action: 'accept' }, { outcome: 'accepted', decidedBy: 'user', answer: { opened: params.url } });
  }

  /** Asking failed or the server withdrew the question: never consent. */
  private notAsked(run: ServerRequestRun, signal: AbortSignal, error: string): Promise<ElicitResult> {
    if (signal.aborted) return this.reply(run, { action: 'cancel' }, { outcome: 'cancelled', decidedBy: 'user', reason: 'the server withdrew the request' });
    return this.reply(run, { action: 'decline' }, { outcome: 'error', decidedBy: 'user', reason: `asking the user failed, declined: ${error}` });
  }

  private async reply(run: ServerRequestRun, result: ElicitResult, finish: Parameters<ServerRequestRun['finish']>[0]): Promise<ElicitResult> {
    await run.finish(finish);
    return result;
  }
}

function outcomeOf(action: 'decline' | 'cancel'): 'declined' | 'cancelled' {
  return action === 'decline' ? 'declined' : 'cancelled';
}
