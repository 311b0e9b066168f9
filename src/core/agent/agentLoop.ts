import type { ToolCallResult } from '../calls/toolRouter';
import { describeProgress, throttleProgress, type ProgressListener } from '../mcp/callProgress';
import type { ExposedTool } from '../tools/exposedTool';
import type { AgentMessage, ModelStreamPart, ModelToolDefinition, ToolCallIntent, ToolResultMessagePart, ToolRound } from './agentMessages';
import { RoundTools, type TokenCounter } from './roundTools';
import type { TokenCountCache, ToolBudget } from './toolBudget';

/** A call's progress reaches the user at most this often (its last step and task status changes always do). */
const PROGRESS_INTERVAL_MS = 250;

/** The model port: send messages and tools, stream back text and tool calls. */
export interface ChatModelPort {
  send(messages: readonly AgentMessage[], tools: readonly ModelToolDefinition[], signal: AbortSignal): AsyncIterable<ModelStreamPart>;
  /** The model's own tokenizer, for a role's `maxToolTokens` (vscode.lm: `countTokens`). */
  readonly tokenCounter?: TokenCounter;
}

/** Where the loop reports to the user. */
export interface ResponseSink {
  text(chunk: string): void;
  progress(message: string): void;
}

/** The host side the loop needs: tools of the active role and the router. */
export interface ToolHost {
  snapshot(): { readonly exposed: readonly ExposedTool[]; readonly toolBudget?: ToolBudget };
  call(request: { name: string; args?: unknown; signal?: AbortSignal; onProgress?: ProgressListener }): Promise<ToolCallResult>;
}

export interface AgentRunResult {
  readonly rounds: readonly ToolRound[];
  readonly stopReason: 'done' | 'maxRounds' | 'cancelled';
}

/** VS Code refuses a request with more tools than this. */
const DEFAULT_BUDGET: ToolBudget = { maxTools: 128 };

/** Convert the role's registry entries into model tool definitions. */
export function toModelTools(tools: readonly ExposedTool[]): ModelToolDefinition[] {
  return tools.map(({ entry }) => ({
    name: entry.name,
    description: entry.tool.description ?? entry.tool.title ?? entry.tool.name,
    inputSchema: (entry.tool.inputSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
  }));
}

/**
 * The bounded agent loop: ask the model, run the tool calls it makes (concurrently within a round)
 * through the host's router, feed the results back, until it answers without tool calls or
 * `maxRounds` is reached. Tool failures are results for the model, never reasons to stop.
 */
export class AgentLoop {
  constructor(
    private readonly model: ChatModelPort,
    private readonly host: ToolHost,
    private readonly sink: ResponseSink,
    private readonly maxRounds: number,
    /** Counts shared across requests, so each definition is counted once per tokenizer. */
    private readonly tokenCache?: TokenCountCache,
  ) {}

  async run(history: readonly AgentMessage[], signal: AbortSignal): Promise<AgentRunResult> {
    const messages: AgentMessage[] = [...history];
    const rounds: ToolRound[] = [];
    const query = [...history].reverse().find((m) => m.role === 'user');
    const budgeted = new RoundTools({ query: query?.role === 'user' ? query.text : '', counter: this.model.tokenCounter, cache: this.tokenCache });
    for (let round = 0; ; round++) {
      if (signal.aborted) return { rounds, stopReason: 'cancelled' };
      // Re-read every round: list_changed may have changed the role's tools meanwhile.
      const snapshot = this.host.snapshot();
      const { tools } = await budgeted.pick(toModelTools(snapshot.exposed), snapshot.toolBudget ?? DEFAULT_BUDGET);
      let text = '';
      const calls: ToolCallIntent[] = [];
      for await (const part of this.model.send(messages, tools, signal)) {
        if (part.type === 'text') {
          text += part.text;
          this.sink.text(part.text);
        } else {
          calls.push(part.call);
        }
      }
      if (calls.length === 0) return { rounds, stopReason: 'done' };
      if (round >= this.maxRounds) {
        this.sink.text(`\n\n_Stopped after ${this.maxRounds} tool rounds (mcpHost.maxToolRounds); the model still wanted to call ${calls.map((c) => c.name).join(', ')}._`);
        return { rounds, stopReason: 'maxRounds' };
      }
      messages.push({ role: 'assistant', text, toolCalls: calls });
      const results = await Promise.all(
        calls.map(async (call): Promise<ToolResultMessagePart> => {
          if (budgeted.handles(call.name)) {
            this.sink.progress('Searching tools…');
            return { callId: call.callId, name: call.name, outcome: 'ok', parts: [{ type: 'text', text: budgeted.search(call.input).text }] };
          }
          this.sink.progress(`Calling ${call.name}…`);
          const onProgress = throttleProgress((p) => this.sink.progress(`Calling ${call.name}… ${describeProgress(p)}`), PROGRESS_INTERVAL_MS);
          const r = await this.host.call({ name: call.name, args: call.input, signal, onProgress });
          return { callId: call.callId, name: call.name, outcome: r.outcome, parts: r.parts };
        }),
      );
      messages.push({ role: 'tool', results });
      rounds.push({ text, toolCalls: calls, results });
      if (signal.aborted) return { rounds, stopReason: 'cancelled' };
    }
  }
}
