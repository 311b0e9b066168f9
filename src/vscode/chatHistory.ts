import type { AgentMessage } from '../core/agent/agentMessages';
import { fromTurnMetadata } from './roundMetadata';

/**
 * The shapes of `vscode.ChatRequestTurn` / `vscode.ChatResponseTurn` this module reads. Duck-typed
 * so it runs under plain mocha; the editor's classes satisfy them.
 */
export interface RequestTurnLike {
  readonly prompt: string;
  readonly command?: string;
}
export interface ResponseTurnLike {
  readonly response: ReadonlyArray<unknown>;
  readonly result: { readonly metadata?: unknown };
  readonly command?: string;
}

/**
 * The conversation so far as agent messages: each earlier prompt, then the answer — replaying its
 * tool-call rounds from the result metadata when we kept them, else the response's markdown.
 * Turns of slash commands (`/role`, `/tools`, `/servers`) are not conversation and are skipped.
 */
export function historyToMessages(history: ReadonlyArray<RequestTurnLike | ResponseTurnLike | unknown>, skipCommands: ReadonlySet<string>): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const turn of history) {
    if (isRequestTurn(turn)) {
      if (turn.command && skipCommands.has(turn.command)) continue;
      if (turn.prompt.trim()) out.push({ role: 'user', text: turn.prompt });
    } else if (isResponseTurn(turn)) {
      if (turn.command && skipCommands.has(turn.command)) continue;
      const replay = fromTurnMetadata(turn.result?.metadata);
      if (replay) {
        for (const r of replay.rounds) {
          out.push({ role: 'assistant', text: r.text, toolCalls: r.toolCalls });
          out.push({ role: 'tool', results: r.results });
        }
        if (replay.finalText) out.push({ role: 'assistant', text: replay.finalText, toolCalls: [] });
      } else {
        const text = markdownOf(turn.response);
        if (text) out.push({ role: 'assistant', text, toolCalls: [] });
      }
    }
  }
  return out;
}

/** The markdown parts of a response, joined. */
export function markdownOf(response: ReadonlyArray<unknown>): string {
  let text = '';
  for (const part of response) {
    const value = (part as { value?: unknown })?.value;
    if (typeof value === 'object' && value !== null && typeof (value as { value?: unknown }).value === 'string') {
      text += (value as { value: string }).value;
    }
  }
  return text.trim();
}

function isRequestTurn(t: unknown): t is RequestTurnLike {
  return typeof t === 'object' && t !== null && typeof (t as RequestTurnLike).prompt === 'string';
}

function isResponseTurn(t: unknown): t is ResponseTurnLike {
  return typeof t === 'object' && t !== null && Array.isArray((t as ResponseTurnLike).response);
}
