import type { CreateMessageRequestParams, SamplingMessage } from '@modelcontextprotocol/client';

/** A server's `sampling/createMessage`, as the user is shown it. */
export interface SamplingQuestion {
  readonly server: string;
  readonly role?: string;
  readonly duringCall: readonly string[];
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: CreateMessageRequestParams['modelPreferences'];
  /** `mcpHost.sampling.model`: the model that must answer, if pinned. */
  readonly pinnedModel?: string;
}

/** What the model said (text only: no tool use is offered inside sampling). */
export interface SampledAnswer {
  readonly model: string;
  readonly text: string;
  readonly stopReason?: string;
}

export type SamplingDecision = { readonly action: 'accept'; readonly answer: SampledAnswer } | { readonly action: 'decline' | 'cancel'; readonly reason?: string };

/**
 * The port that answers a sampling request once the host's policy allowed it: the editor shows the
 * request, sends it to the user's model and shows the answer ({@link ApprovedSampler}); the driver
 * of `mcp-host session` answers it itself. Throwing counts as a refusal.
 */
export interface Sampler {
  sample(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingDecision>;
}

/** A model that can answer: its name (shown before sending) and the completion. */
export interface ChosenModel {
  readonly name: string;
  complete(question: SamplingQuestion, signal: AbortSignal): Promise<SampledAnswer>;
}

/** The user's language models (`vscode.lm` in the editor). */
export interface SamplingModels {
  /** The pinned model, else the one the user chose; undefined when none is available. */
  choose(pinned: string | undefined): Promise<ChosenModel | undefined>;
}

/** The user's two approvals: before the request goes to the model, and before the answer goes back. */
export interface SamplingApprover {
  approveRequest(question: SamplingQuestion, model: string, signal: AbortSignal): Promise<boolean>;
  approveAnswer(question: SamplingQuestion, answer: SampledAnswer, signal: AbortSignal): Promise<boolean>;
}

/** Show the request → send it to the model → show the answer → return it only when the user agreed twice. */
export class ApprovedSampler implements Sampler {
  constructor(
    private readonly approver: SamplingApprover,
    private readonly models: SamplingModels,
  ) {}

  async sample(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingDecision> {
    const model = await this.models.choose(question.pinnedModel);
    if (!model) {
      const which = question.pinnedModel ? `the model "${question.pinnedModel}" (mcpHost.sampling.model) is not available` : 'no language model is available';
      return { action: 'decline', reason: which };
    }
    if (!(await this.approver.approveRequest(question, model.name, signal))) return { action: 'decline', reason: 'the user refused to send the request to the model' };
    const answer = await model.complete(question, signal);
    if (!(await this.approver.approveAnswer(question, answer, signal))) return { action: 'decline', reason: 'the user refused to return the answer' };
    return { action: 'accept', answer };
  }
}

/** Refuses every request (nobody to ask: the CLI without a session driver). */
export function refusingSampler(why: string, tell: (line: string) => void = () => undefined): Sampler {
  return {
    sample: async (q) => {
      tell(`server "${q.server}" asks for a model completion and ${why}: refused`);
      return { action: 'decline', reason: why };
    },
  };
}

/** The text of a sampling message's content (non-text blocks as placeholders). */
export function messageText(message: SamplingMessage): string {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  return blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type} content]`)).join('\n');
}
