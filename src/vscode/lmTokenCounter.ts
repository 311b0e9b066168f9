import type * as vscode from 'vscode';
import type { TokenCounter } from '../core/agent/roundTools';

/** A chat model's own tokenizer (`countTokens`), keyed by vendor and model for the count cache. */
export function lmTokenCounter(model: vscode.LanguageModelChat): TokenCounter {
  return { key: `${model.vendor}/${model.id}`, count: async (text) => model.countTokens(text) };
}
