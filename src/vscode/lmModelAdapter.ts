import * as vscode from 'vscode';
import type { ChatModelPort } from '../core/agent/agentLoop';
import type { TokenCounter } from '../core/agent/roundTools';
import type { AgentMessage, ModelStreamPart, ModelToolDefinition } from '../core/agent/agentMessages';
import { toLmMessages } from './lmMessages';
import { lmTokenCounter } from './lmTokenCounter';

/** The core's ChatModelPort over a `vscode.LanguageModelChat` (the model the user picked in Chat). */
export class LmModelAdapter implements ChatModelPort {
  /** The model's own tokenizer, for a role's maxToolTokens: works with every vscode.lm model. */
  readonly tokenCounter: TokenCounter;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly justification?: string,
  ) {
    this.tokenCounter = lmTokenCounter(model);
  }

  async *send(messages: readonly AgentMessage[], tools: readonly ModelToolDefinition[], signal: AbortSignal): AsyncIterable<ModelStreamPart> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    if (signal.aborted) cts.cancel();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      const options: vscode.LanguageModelChatRequestOptions = {
        ...(this.justification ? { justification: this.justification } : {}),
        ...(tools.length ? { tools: toLmTools(tools) } : {}),
      };
      const response = await this.model.sendRequest(toLmMessages(messages), options, cts.token);
      for await (const part of response.stream) {
        const converted = fromLmPart(part);
        if (converted) yield converted;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

export function toLmTools(tools: readonly ModelToolDefinition[]): vscode.LanguageModelChatTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** A streamed `vscode.lm` part as the core's stream part; other kinds (e.g. thinking) are skipped. */
export function fromLmPart(part: unknown): ModelStreamPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    return { type: 'toolCall', call: { callId: part.callId, name: part.name, input: part.input } };
  }
  return undefined;
}
