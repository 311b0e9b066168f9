import { inputRequired, inputResponse, type ClientCapabilities, type CreateMessageRequestParams, type Root } from '@modelcontextprotocol/server';
import type { FormContent } from '../requests/elicitationForm';
import type { ElicitationContext, ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../requests/elicitationPrompter';
import type { RootsSource } from '../requests/rootsSource';
import type { SamplingDecision, SamplingQuestion } from '../requests/sampler';
import type { ServerRequestPorts } from '../requests/serverRequests';
import type { Logger } from '../util/logger';
import { answersForms, type UpstreamCall } from './upstreamConfirmations';

/** Finds the upstream call a request of `server` belongs to (see UpstreamConfirmations.callOf). */
export type UpstreamAsker = (server: string) => UpstreamCall | undefined;

/** What a relayed request needs the client to have declared, and how the server is told when it did not. */
const NEEDS = {
  form: { has: answersForms, what: 'elicitation (form)' },
  url: { has: (c: ClientCapabilities | undefined) => !!c?.elicitation?.url, what: 'elicitation.url' },
  sampling: { has: (c: ClientCapabilities | undefined) => !!c?.sampling, what: 'sampling' },
  roots: { has: (c: ClientCapabilities | undefined) => !!c?.roots, what: 'roots' },
} as const;
type Need = keyof typeof NEEDS;

/**
 * The servers' requests relayed to the upstream client whose tool call the asking server is
 * serving: form and URL elicitation, sampling (`sampling/createMessage`) and roots. Only the
 * asking port: whether a server may ask at all (trust, role, `mcpHost.elicitation`,
 * `mcpHost.sampling`), the form's defaults and validation, the URL check, the roots the settings
 * allow and the audit stay on the host's one path of every server request (src/core/requests), so
 * a request the policy refuses never reaches the client. The client gets the request as the SDK
 * delivers it on its era: a server-to-client request (2025-11-25) or `input_required` (2026-07-28).
 *
 * A request of a server with no call in flight (or several, from different clients) goes to
 * `fallback` as it would without a gateway. A client that did not declare the capability is not
 * asked: the server is declined, told why (sampling's error; the log for elicitation). Roots are
 * the exception: without the client's roots the server keeps the roots the settings give it.
 */
export class UpstreamRelay implements ElicitationPrompter {
  private asker?: UpstreamAsker;
  /** URLs a client accepted (and opens itself): the host opens none of them again. */
  private readonly openedByClient = new Map<string, number>();

  constructor(
    private readonly fallback: ServerRequestPorts,
    private readonly logger: Logger,
  ) {}

  /** Called by the gateway that serves the upstream clients. */
  attach(asker: UpstreamAsker): void {
    this.asker = asker;
  }

  /** The host's ports (McpHostOptions.serverRequests): this relay in front of `fallback`, roots within `base`. */
  ports(base: RootsSource): ServerRequestPorts {
    return {
      elicitation: this,
      sampler: { sample: (q, s) => this.sample(q, s) },
      roots: { roots: () => base.roots(), ...(base.onDidChange ? { onDidChange: base.onDidChange } : {}), current: (server, signal) => this.roots(server, signal) },
    };
  }

  async askForm(question: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    const call = this.callFor(question.server, 'form', question.message);
    if (call === undefined) return this.fallback.elicitation.askForm(question, signal);
    if ('declined' in call) return { action: 'decline' };
    const input = inputRequired.elicit({ message: relayedText(question), requestedSchema: question.form.schema as never });
    const view = inputResponse(withKey(await call.ask(input, signal)), KEY);
    if (view.kind !== 'elicit') return { action: 'cancel' };
    return view.action === 'accept' ? { action: 'accept', content: (view.content ?? {}) as FormContent } : { action: view.action };
  }

  /** The client opens the page itself on accept (its user sees the URL there). */
  async askUrl(question: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    const call = this.callFor(question.server, 'url', question.message);
    if (call === undefined) return this.fallback.elicitation.askUrl(question, signal);
    if ('declined' in call) return { action: 'decline' };
    const input = inputRequired.elicitUrl({ message: relayedText(question), url: question.url });
    const view = inputResponse(withKey(await call.ask(input, signal)), KEY);
    if (view.kind !== 'elicit') return { action: 'cancel' };
    if (view.action === 'accept') this.openedByClient.set(question.url, (this.openedByClient.get(question.url) ?? 0) + 1);
    return { action: view.action };
  }

  openUrl(url: string): Promise<void> {
    const opened = this.openedByClient.get(url);
    if (!opened) return this.fallback.elicitation.openUrl(url);
    if (opened === 1) this.openedByClient.delete(url);
    else this.openedByClient.set(url, opened - 1);
    return Promise.resolve();
  }

  /** Text only, as the host's own sampling: the client's answer must be text (and of the pinned model, if one is). */
  async sample(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingDecision> {
    const call = this.callFor(question.server, 'sampling', 'a model completion');
    if (call === undefined) return this.fallback.sampler.sample(question, signal);
    if ('declined' in call) return { action: 'decline', reason: call.declined };
    const input = inputRequired.createMessage(samplingParams(question));
    const view = inputResponse(withKey(await call.ask(input, signal)), KEY);
    if (view.kind !== 'sampling') return { action: 'cancel', reason: `client "${call.client}" gave no answer` };
    const { result } = view;
    const blocks = Array.isArray(result.content) ? result.content : [result.content];
    if (blocks.length !== 1 || blocks[0].type !== 'text') return { action: 'decline', reason: `client "${call.client}" answered with ${blocks.map((b) => b.type).join(', ') || 'nothing'}, not text` };
    const model = typeof result.model === 'string' ? result.model : '';
    if (question.pinnedModel && !model.toLowerCase().includes(question.pinnedModel.toLowerCase())) {
      return { action: 'decline', reason: `client "${call.client}" answered with model "${model}", but mcpHost.sampling.model is "${question.pinnedModel}"` };
    }
    return { action: 'accept', answer: { model, text: blocks[0].text, ...(result.stopReason ? { stopReason: result.stopReason } : {}) } };
  }

  /** The client's roots, when a call of `server` is in flight and its client declared roots (the host narrows the server's roots to them). */
  private async roots(server: string, signal: AbortSignal): Promise<readonly Root[] | undefined> {
    const call = this.asker?.(server);
    if (!call || !NEEDS.roots.has(call.capabilities)) return undefined;
    const view = inputResponse(withKey(await call.ask(inputRequired.listRoots(), signal)), KEY);
    return view.kind === 'roots' ? view.roots.filter((r) => typeof r?.uri === 'string') : undefined;
  }

  /** The call to ask through; undefined: nobody (the fallback answers); `declined`: why its client is not asked. */
  private callFor(server: string, need: Need, what: string): UpstreamCall | { readonly declined: string } | undefined {
    const call = this.asker?.(server);
    if (!call) return undefined;
    if (NEEDS[need].has(call.capabilities)) return call;
    const declined = `client "${call.client}" (whose call of ${call.tool} server "${server}" serves) did not declare ${NEEDS[need].what}`;
    this.logger.warn(`server "${server}" asks for ${what} and ${declined}: declined`);
    return { declined };
  }
}

function relayedText(q: ElicitationContext): string {
  const during = q.duringCall.length ? ` during the call of ${q.duringCall.join(', ')}` : '';
  return `Server "${q.server}" asks${during}: ${q.message}`;
}

/** The request as the client gets it: what the host's policy let through (no tools, no context), the pinned model as the first hint. */
function samplingParams(q: SamplingQuestion): CreateMessageRequestParams {
  const hints = [...(q.pinnedModel ? [{ name: q.pinnedModel }] : []), ...(q.modelPreferences?.hints ?? [])];
  const preferences = q.modelPreferences || hints.length ? { modelPreferences: { ...(q.modelPreferences ?? {}), ...(hints.length ? { hints } : {}) } } : {};
  return {
    messages: [...q.messages],
    maxTokens: q.maxTokens,
    ...(q.systemPrompt !== undefined ? { systemPrompt: q.systemPrompt } : {}),
    ...(q.temperature !== undefined ? { temperature: q.temperature } : {}),
    ...(q.stopSequences ? { stopSequences: [...q.stopSequences] } : {}),
    ...preferences,
  };
}

const KEY = 'answer';
function withKey(response: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return response ? { [KEY]: response } : undefined;
}
