/**
 * The user's side of server requests, scripted for tests: a prompter and a sampler that record
 * every question and answer as told. These stand in for the person (the editor's dialogs, a
 * terminal), not for the protocol: the servers are real and speak MCP to the host's real client.
 */
import type { ServerRequestAuditRecord } from '../../../../src/core/audit/auditRecord';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../../../../src/core/requests/elicitationPrompter';
import type { Sampler, SamplingDecision, SamplingQuestion } from '../../../../src/core/requests/sampler';
import type { ServerRequestPorts } from '../../../../src/core/requests/serverRequests';
import type { RootsSource } from '../../../../src/core/requests/rootsSource';

type Answer<Q, A> = (q: Q, signal: AbortSignal) => A | Promise<A>;

export class ScriptedPrompter implements ElicitationPrompter {
  readonly forms: FormQuestion[] = [];
  readonly urls: UrlQuestion[] = [];
  readonly opened: string[] = [];
  constructor(
    public form: Answer<FormQuestion, FormAnswer> = (q) => ({ action: 'accept', content: q.form.defaults() }),
    public url: Answer<UrlQuestion, UrlAnswer> = () => ({ action: 'accept' }),
    public open: (url: string) => Promise<void> = async () => undefined,
  ) {}
  async askForm(q: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    this.forms.push(q);
    return this.form(q, signal);
  }
  async askUrl(q: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    this.urls.push(q);
    return this.url(q, signal);
  }
  async openUrl(url: string): Promise<void> {
    this.opened.push(url);
    await this.open(url);
  }
}

export class ScriptedSampler implements Sampler {
  readonly questions: SamplingQuestion[] = [];
  constructor(
    public answer: Answer<SamplingQuestion, SamplingDecision> = (q) => ({
      action: 'accept',
      answer: { model: 'scripted-model', text: `echo of: ${JSON.stringify(q.messages[0]?.content)}` },
    }),
  ) {}
  async sample(q: SamplingQuestion, signal: AbortSignal): Promise<SamplingDecision> {
    this.questions.push(q);
    return this.answer(q, signal);
  }
}

/** Ports plus an audit sink to read the records back. */
export function requestPorts(o: { prompter?: ScriptedPrompter; sampler?: ScriptedSampler; roots?: RootsSource } = {}) {
  const prompter = o.prompter ?? new ScriptedPrompter();
  const sampler = o.sampler ?? new ScriptedSampler();
  const audit = new MemorySink();
  const ports: ServerRequestPorts = { elicitation: prompter, sampler, ...(o.roots ? { roots: o.roots } : {}) };
  return { prompter, sampler, audit, options: { serverRequests: ports, auditSinks: [audit] } };
}

/** The audit records of server requests. */
export function requestRecords(sink: MemorySink, kind?: ServerRequestAuditRecord['kind']): ServerRequestAuditRecord[] {
  return sink.records.filter((r): r is ServerRequestAuditRecord => r.kind !== 'call' && r.kind !== 'toolsChanged' && (!kind || r.kind === kind));
}

/** The JSON a fixture tool returned as its text. */
export function resultJson(modelText: string): Record<string, unknown> {
  return JSON.parse(modelText) as Record<string, unknown>;
}

/** Resolves when `signal` aborts (a question the server withdraws). */
export function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('withdrawn')), { once: true }));
}
