import { openWithBrowserCommand } from '../core/auth/browserCommand';
import type { ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../core/requests/elicitationPrompter';
import type { Sampler, SamplingDecision, SamplingQuestion } from '../core/requests/sampler';
import type { ServerRequestAnswer } from './sessionProtocol';

type Kind = 'elicitation' | 'sampling';

interface Open {
  readonly kind: Kind;
  readonly form?: FormQuestion;
  readonly resolve: (answer: FormAnswer | UrlAnswer | SamplingDecision) => void;
}

/**
 * The session's driver as the user: every question a server puts (elicitation, sampling) becomes
 * an event with a `request` id, and the driver's `elicitation` / `sampling` op answers it. An
 * answer that does not fit (content that fails the form) is an error for the driver, and the
 * question stays open. When the input ends, open and later questions are declined.
 */
export class SessionRequests implements ElicitationPrompter, Sampler {
  private readonly open = new Map<string, Open>();
  private readonly counts = { elicitation: 0, sampling: 0 };
  private ended = false;

  constructor(
    private readonly emit: (value: unknown) => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  askForm(q: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    return this.ask<FormAnswer>('elicitation', signal, { action: 'decline' }, { mode: 'form', ...context(q), requestedSchema: q.form.schema, content: q.form.defaults() }, q);
  }

  askUrl(q: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    return this.ask<UrlAnswer>('elicitation', signal, { action: 'decline' }, { mode: 'url', ...context(q), url: q.url, elicitationId: q.elicitationId });
  }

  /** The driver has the URL; with `$BROWSER` set the host opens it too. */
  async openUrl(url: string): Promise<void> {
    const browser = this.env.BROWSER?.trim();
    if (browser) await openWithBrowserCommand(browser, url, this.env);
  }

  sample(q: SamplingQuestion, signal: AbortSignal): Promise<SamplingDecision> {
    const event = {
      server: q.server,
      role: q.role ?? null,
      duringCall: q.duringCall,
      messages: q.messages,
      ...(q.systemPrompt !== undefined ? { systemPrompt: q.systemPrompt } : {}),
      maxTokens: q.maxTokens,
      ...(q.temperature !== undefined ? { temperature: q.temperature } : {}),
      ...(q.stopSequences ? { stopSequences: q.stopSequences } : {}),
      ...(q.modelPreferences ? { modelPreferences: q.modelPreferences } : {}),
      ...(q.pinnedModel ? { model: q.pinnedModel } : {}),
    };
    return this.ask<SamplingDecision>('sampling', signal, { action: 'decline', reason: 'the session input ended' }, event);
  }

  /** Apply the driver's answer; throws (the question stays open) when it does not fit. */
  answer(op: ServerRequestAnswer): { request: string; action: string } {
    const open = this.open.get(op.request);
    if (!open) {
      const ids = [...this.open.keys()];
      throw new Error(`no open request "${op.request}" (${ids.length ? `open: ${ids.join(', ')}` : 'none is open'})`);
    }
    if (open.kind !== op.op) throw new Error(`"${op.request}" is a ${open.kind} request: answer it with {"op":"${open.kind}"}`);
    open.resolve(this.decision(open, op));
    this.open.delete(op.request);
    return { request: op.request, action: op.action };
  }

  /** The input ended: nobody is left to answer. */
  end(): void {
    this.ended = true;
    for (const [id, open] of [...this.open]) {
      this.open.delete(id);
      open.resolve(open.kind === 'sampling' ? { action: 'decline', reason: 'the session input ended' } : { action: 'decline' });
      this.emit({ event: 'requestClosed', request: id, reason: 'the session input ended: declined' });
    }
  }

  private decision(open: Open, op: ServerRequestAnswer): FormAnswer | UrlAnswer | SamplingDecision {
    if (op.action !== 'accept') return { action: op.action };
    if (open.kind === 'sampling') {
      if (typeof op.text !== 'string') throw new Error('"accept" of a sampling request needs "text": the model\'s answer');
      return { action: 'accept', answer: { model: op.model ?? 'mcp-host-session', text: op.text, ...(op.stopReason ? { stopReason: op.stopReason } : {}) } };
    }
    if (!open.form) return { action: 'accept' };
    const content = open.form.form.complete(op.content ?? {});
    const errors = open.form.form.validate(content);
    if (errors.length) throw new Error(`the content does not match the form: ${errors.join('; ')}`);
    return { action: 'accept', content };
  }

  private ask<T extends FormAnswer | UrlAnswer | SamplingDecision>(kind: Kind, signal: AbortSignal, ifEnded: T, event: object, form?: FormQuestion): Promise<T> {
    if (this.ended) return Promise.resolve(ifEnded);
    const request = `${kind}-${++this.counts[kind]}`;
    return new Promise<T>((resolve) => {
      const onAbort = () => {
        if (!this.open.delete(request)) return;
        this.emit({ event: 'requestClosed', request, reason: 'the server withdrew it' });
        resolve({ action: 'cancel' } as T);
      };
      this.open.set(request, {
        kind,
        ...(form ? { form } : {}),
        resolve: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a as T);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ event: kind, request, ...event });
    });
  }
}

function context(q: FormQuestion | UrlQuestion) {
  return { server: q.server, role: q.role ?? null, duringCall: q.duringCall, message: q.message };
}
