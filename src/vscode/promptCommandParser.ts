import type { PromptView } from '../core/host/hostSnapshot';

export type ParsedPromptCommand =
  | { readonly kind: 'list' }
  | { readonly kind: 'unknown'; readonly name: string; readonly candidates: readonly PromptView[] }
  | { readonly kind: 'use'; readonly prompt: PromptView; readonly args: Readonly<Record<string, string>>; readonly rest: string };

/**
 * `/prompt [server/]NAME [arg=value …] [text]`: the prompt (by `server/name`, or by name when only
 * one visible prompt has it), the arguments given inline (`key=value`, `key="a value"`, only keys
 * the prompt declares), and the rest of the text, which follows the prompt's messages.
 */
export function parsePromptCommand(text: string, visible: readonly PromptView[]): ParsedPromptCommand {
  const input = text.trim();
  if (!input) return { kind: 'list' };
  const nameEnd = input.search(/\s/);
  const name = nameEnd < 0 ? input : input.slice(0, nameEnd);
  let rest = nameEnd < 0 ? '' : input.slice(nameEnd).trim();
  const slash = name.indexOf('/');
  const candidates =
    slash > 0 ? visible.filter((p) => p.server === name.slice(0, slash) && p.prompt.name === name.slice(slash + 1)) : visible.filter((p) => p.prompt.name === name);
  if (candidates.length !== 1) return { kind: 'unknown', name, candidates };
  const prompt = candidates[0];
  const declared = new Set((prompt.prompt.arguments ?? []).map((a) => a.name));
  const args: Record<string, string> = {};
  for (;;) {
    const m = /^([^\s=]+)=(?:"((?:[^"\\]|\\.)*)"|(\S*))(?:\s+|$)/.exec(rest);
    if (!m || !declared.has(m[1])) break;
    args[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
    rest = rest.slice(m[0].length);
  }
  return { kind: 'use', prompt, args, rest: rest.trim() };
}
