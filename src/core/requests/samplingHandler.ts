import { ProtocolErrorCode, type CreateMessageRequestParams, type CreateMessageResult } from '@modelcontextprotocol/client';
import { summarize } from '../audit/redactArguments';
import { messageText, type Sampler, type SamplingQuestion } from './sampler';
import { ServerRequestRun, type Finish, type ServerRequestDeps } from './serverRequestRun';

/** The spec's code for "User rejected sampling request" (outside JSON-RPC's reserved range). */
export const USER_REJECTED = -1;

/**
 * The one path of every `sampling/createMessage`: policy (trust, role, `mcpHost.sampling`: off by
 * default) → no tool use → the sampler (the user sees the request and the answer) → a checked
 * answer → one audit record. Anything short of the user's yes is an error result for the server.
 */
export class SamplingHandler {
  constructor(
    private readonly deps: ServerRequestDeps,
    private readonly sampler: Sampler,
  ) {}

  async handle(server: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    const request = {
      messages: params.messages.map((m) => ({ role: m.role, text: summarize(messageText(m), 512) })),
      ...(params.systemPrompt !== undefined ? { systemPrompt: summarize(params.systemPrompt, 512) } : {}),
      maxTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.includeContext ? { includeContext: params.includeContext } : {}),
      ...(params.tools ? { tools: params.tools.map((t) => t.name) } : {}),
    };
    const run = new ServerRequestRun(this.deps, 'sampling', server, request);
    const refused = run.refusal((p) => p.requests.allowsSampling(server), 'mcpHost.sampling');
    if (refused) return this.fail(run, { outcome: 'denied', decidedBy: 'policy', reason: refused }, `Sampling is not allowed: ${refused}`);
    if (params.tools?.length || params.toolChoice) {
      const reason = 'tool use inside sampling is not offered by this client (no sampling.tools capability)';
      return this.fail(run, { outcome: 'invalid', decidedBy: 'policy', reason }, reason, ProtocolErrorCode.InvalidParams);
    }

    const question: SamplingQuestion = {
      server,
      role: run.role,
      duringCall: run.duringCall,
      messages: params.messages,
      maxTokens: params.maxTokens,
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
      ...(params.modelPreferences ? { modelPreferences: params.modelPreferences } : {}),
      ...(run.policy.requests.samplingModel ? { pinnedModel: run.policy.requests.samplingModel } : {}),
    };
    const asked = await run.ask((s) => this.sampler.sample(question, s), signal);
    if (!asked.ok) {
      if (signal.aborted) return this.fail(run, { outcome: 'cancelled', decidedBy: 'user', reason: asked.error }, 'The request was withdrawn');
      return this.fail(run, { outcome: 'error', decidedBy: 'user', reason: `sampling failed, refused: ${asked.error}` }, 'User rejected sampling request');
    }
    const decision = asked.value;
    if (decision.action !== 'accept') {
      const outcome = decision.action === 'decline' ? 'declined' : 'cancelled';
      // The reason goes to the server too, so it can tell "nobody could be asked" from a no.
      return this.fail(run, { outcome, decidedBy: 'user', ...(decision.reason ? { reason: decision.reason } : {}) }, `User rejected sampling request${decision.reason ? ` (${decision.reason})` : ''}`);
    }
    const { answer } = decision;
    if (typeof answer.text !== 'string' || typeof answer.model !== 'string' || answer.model.trim() === '') {
      return this.fail(run, { outcome: 'invalid', decidedBy: 'user', reason: 'the answer has no text or no model name' }, 'User rejected sampling request');
    }
    const stopReason = answer.stopReason ?? 'endTurn';
    await run.finish({ outcome: 'accepted', decidedBy: 'user', answer: { model: answer.model, stopReason, text: summarize(answer.text) } });
    return { role: 'assistant', content: { type: 'text', text: answer.text }, model: answer.model, stopReason };
  }

  private async fail(run: ServerRequestRun, finish: Finish, message: string, code: number = USER_REJECTED): Promise<never> {
    await run.finish(finish);
    // The SDK sends `code` and `message` as the JSON-RPC error (an McpError would prefix "MCP error <code>:" to the text).
    throw Object.assign(new Error(message), { code });
  }
}
