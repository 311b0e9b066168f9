import { z } from 'zod';
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

/** A slash command of a turn; anything else there counts as none. */
const commandSchema = z.string().optional().catch(undefined);

/** The fields of the editor's turn classes read here (class instances parse like objects). */
const requestTurnSchema = z.object({ prompt: z.string(), command: commandSchema });
const responseTurnSchema = z.object({
  response: z.array(z.unknown()),
  result: z.object({ metadata: z.unknown() }).optional().catch(undefined),
  command: commandSchema,
});
/** A `ChatResponseMarkdownPart`: its `value` is a MarkdownString. */
const markdownPartSchema = z.object({ value: z.object({ value: z.string() }) });

/**
 * The conversation so far as agent messages: each earlier prompt, then the answer — replaying its
 * tool-call rounds from the result metadata when we kept them, else the response's markdown.
 * Turns of slash commands (`/role`, `/tools`, `/servers`) are not conversation and are skipped.
 */
export function historyToMessages(history: ReadonlyArray<RequestTurnLike | ResponseTurnLike | unknown>, skipCommands: ReadonlySet<string>): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const item of history) {
    const request = requestTurnSchema.safeParse(item);
    const response = request.success ? undefined : responseTurnSchema.safeParse(item);
    if (request.success) {
      const turn = request.data;
      if (turn.command && skipCommands.has(turn.command)) continue;
      if (turn.prompt.trim()) out.push({ role: 'user', text: turn.prompt });
    } else if (response?.success) {
      const turn = response.data;
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
    const markdown = markdownPartSchema.safeParse(part);
    if (markdown.success) text += markdown.data.value.value;
  }
  return text.trim();
}
