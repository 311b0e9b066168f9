import * as vscode from 'vscode';
import { toModelTools } from '../core/agent/agentLoop';
import { measureTools, TokenCountCache, type ToolBudgetMeasure } from '../core/agent/toolBudget';
import type { McpHost } from '../core/host/mcpHost';
import { Emitter, type Event } from '../core/util/event';
import type { Logger } from '../core/util/logger';
import { lmTokenCounter } from './lmTokenCounter';

/** A role's measure and the model whose tokenizer counted it. */
export interface RoleToolMeasure extends ToolBudgetMeasure {
  readonly role: string | undefined;
  /** Name of the model that counted the tokens; undefined when no model is available. */
  readonly model?: string;
}

const RECOUNT_DELAY_MS = 300;

/**
 * Keeps the active role's tool count and definition tokens for the tree, counted with the model
 * last used with `@mcp` (else the first chat model VS Code offers), recounted after changes.
 * Counts are cached per model and definition, shared with the chat participant.
 */
export class ToolBudgetTally implements vscode.Disposable {
  readonly cache = new TokenCountCache();
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange: Event<void> = this._onDidChange.event;
  private model?: vscode.LanguageModelChat;
  private measure?: RoleToolMeasure;
  private timer?: NodeJS.Timeout;
  private generation = 0;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly host: () => McpHost,
    onHostChange: Event<void>,
    private readonly logger: Logger,
  ) {
    this.subscription = onHostChange(() => this.schedule());
    this.schedule();
  }

  /** The latest measure of the active role (tool count at least; tokens once counted). */
  current(): RoleToolMeasure | undefined {
    return this.measure;
  }

  /** The chat uses this model now: count with its tokenizer from here on. */
  useModel(model: vscode.LanguageModelChat): void {
    if (this.model?.id === model.id && this.model.vendor === model.vendor) return;
    this.model = model;
    this.schedule();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this._onDidChange.dispose();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.recount(), RECOUNT_DELAY_MS);
  }

  private async recount(): Promise<void> {
    this.timer = undefined;
    const run = ++this.generation;
    const snapshot = this.host().snapshot();
    const defs = toModelTools(snapshot.exposed);
    const base = { role: snapshot.role };
    const prior = this.measure;
    // Show the new tool count at once unless only the token count could have changed.
    if (!prior || prior.role !== snapshot.role || prior.tools !== defs.length) this.publish(run, { ...base, ...(await measureTools(defs, snapshot.toolBudget)) });
    try {
      const model = this.model ?? (await vscode.lm.selectChatModels())[0];
      if (!model || run !== this.generation) return;
      const counted = await measureTools(defs, snapshot.toolBudget, { ...lmTokenCounter(model), cache: this.cache });
      this.publish(run, { ...base, tools: counted.tools, tokens: counted.tokens, budget: counted.budget, over: counted.over, model: model.name });
    } catch (e) {
      this.logger.debug(`tool tokens not counted: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private publish(run: number, measure: RoleToolMeasure): void {
    if (run !== this.generation) return;
    this.measure = measure;
    this._onDidChange.fire();
  }
}
