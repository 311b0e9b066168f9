import * as vscode from 'vscode';
import { messageText, type ChosenModel, type SampledAnswer, type SamplingModels, type SamplingQuestion } from '../core/requests/sampler';

const JUSTIFICATION = 'An MCP server asks MCP Host for a completion (sampling); you approve the request and the answer.';

/**
 * The user's models through `vscode.lm`: the one pinned by `mcpHost.sampling.model` (matched by id,
 * family, `vendor/family` or `vendor/id`), else the model last used with `@mcp`, else the first
 * available. Only text goes to the model; no tools are offered.
 */
export class LmSamplingModels implements SamplingModels {
  constructor(private readonly chatModel: () => vscode.LanguageModelChat | undefined) {}

  async choose(pinned: string | undefined): Promise<ChosenModel | undefined> {
    const all = await vscode.lm.selectChatModels();
    const model = pinned ? all.find((m) => matches(m, pinned)) : (this.chatModel() ?? all[0]);
    return model ? new LmChosenModel(model) : undefined;
  }
}

class LmChosenModel implements ChosenModel {
  readonly name: string;
  constructor(private readonly model: vscode.LanguageModelChat) {
    this.name = `${model.name} (${model.vendor}/${model.id})`;
  }

  async complete(q: SamplingQuestion, signal: AbortSignal): Promise<SampledAnswer> {
    const messages = q.messages.map((m) =>
      m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(messageText(m)) : vscode.LanguageModelChatMessage.User(messageText(m)),
    );
    // vscode.lm has no system role: the server's system prompt goes first, marked as such.
    if (q.systemPrompt) messages.unshift(vscode.LanguageModelChatMessage.User(`System instructions from MCP server "${q.server}":\n${q.systemPrompt}`));
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.model.sendRequest(messages, { justification: JUSTIFICATION }, cts.token);
      let text = '';
      for await (const chunk of response.text) text += chunk;
      return { model: `${this.model.vendor}/${this.model.id}`, text, stopReason: 'endTurn' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

function matches(m: vscode.LanguageModelChat, pin: string): boolean {
  return [m.id, m.family, `${m.vendor}/${m.family}`, `${m.vendor}/${m.id}`].includes(pin);
}
