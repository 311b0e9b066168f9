import type { ModelPart } from '../calls/resultConversion';

/** A tool the model may call, in the neutral shape every model API accepts. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface ToolCallIntent {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

export interface ToolResultMessagePart {
  readonly callId: string;
  readonly name: string;
  readonly outcome: string;
  readonly parts: readonly ModelPart[];
}

export type AgentMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly ToolCallIntent[] }
  | { readonly role: 'tool'; readonly results: readonly ToolResultMessagePart[] };

/** What a model streams back. */
export type ModelStreamPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'toolCall'; readonly call: ToolCallIntent };

/** One round: what the model said and asked for, and what the tools answered. Kept for follow-up turns. */
export interface ToolRound {
  readonly text: string;
  readonly toolCalls: readonly ToolCallIntent[];
  readonly results: readonly ToolResultMessagePart[];
}
