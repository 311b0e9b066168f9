import * as vscode from 'vscode';
import type { AgentMessage } from '../core/agent/agentMessages';
import { hasImageParts, toLmToolResultPart } from './lmResultParts';

/**
 * The agent loop's messages as `vscode.lm` chat messages: user text, assistant text with its
 * tool calls, and one user message carrying the tool results of a round.
 */
export function toLmMessages(messages: readonly AgentMessage[], images = hasImageParts()): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'user':
        out.push(vscode.LanguageModelChatMessage.User(m.text));
        break;
      case 'assistant': {
        const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
        if (m.text) parts.push(new vscode.LanguageModelTextPart(m.text));
        for (const c of m.toolCalls) parts.push(new vscode.LanguageModelToolCallPart(c.callId, c.name, toToolInput(c.input)));
        if (parts.length) out.push(vscode.LanguageModelChatMessage.Assistant(parts));
        break;
      }
      case 'tool':
        if (m.results.length) out.push(vscode.LanguageModelChatMessage.User(m.results.map((r) => toLmToolResultPart(r, images))));
        break;
    }
  }
  return out;
}

/** `LanguageModelToolCallPart.input` must be an object; a model may have sent a JSON string or nothing. */
export function toToolInput(input: unknown): object {
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: keep what the model sent, visibly
    }
    return input === '' ? {} : { input };
  }
  if (input && typeof input === 'object' && !Array.isArray(input)) return input;
  return {};
}
