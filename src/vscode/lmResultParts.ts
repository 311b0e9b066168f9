import * as vscode from 'vscode';
import type { ToolResultMessagePart } from '../core/agent/agentMessages';
import { placeholder, type ModelPart } from '../core/calls/resultConversion';

export type LmResultContent = vscode.LanguageModelTextPart | vscode.LanguageModelDataPart;

/** Whether this editor has `LanguageModelDataPart.image` (checked at run time: older hosts lack it). */
export function hasImageParts(): boolean {
  const DataPart = (vscode as { LanguageModelDataPart?: { image?: unknown } }).LanguageModelDataPart;
  return typeof DataPart?.image === 'function';
}

/**
 * The core's model-neutral result parts as `vscode.lm` tool-result content: text stays text,
 * images become image data parts where the API has them; anything else becomes the same
 * one-line placeholder the audit and logs show.
 */
export function toLmResultContent(parts: readonly ModelPart[], images = hasImageParts()): LmResultContent[] {
  const out: LmResultContent[] = [];
  for (const part of parts) {
    if (part.type === 'text') out.push(new vscode.LanguageModelTextPart(part.text));
    else if (part.kind === 'image' && images) out.push(vscode.LanguageModelDataPart.image(part.data, part.mimeType));
    else out.push(new vscode.LanguageModelTextPart(placeholder(part)));
  }
  if (out.length === 0) out.push(new vscode.LanguageModelTextPart('(the tool returned no content)'));
  return out;
}

export function toLmToolResultPart(result: ToolResultMessagePart, images = hasImageParts()): vscode.LanguageModelToolResultPart {
  return new vscode.LanguageModelToolResultPart(result.callId, toLmResultContent(result.parts, images));
}
