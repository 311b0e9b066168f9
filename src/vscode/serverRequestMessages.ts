import type { ElicitationContext, FormQuestion, UrlQuestion } from '../core/requests/elicitationPrompter';
import { messageText, type SampledAnswer, type SamplingQuestion } from '../core/requests/sampler';

/** The texts of the dialogs for servers' questions and sampling requests (no editor API here, so they are unit-tested). */

export const FILL_IN = 'Fill In…';
export const DECLINE = 'Decline';
export const OPEN_URL = 'Open URL';
export const SEND_TO_MODEL = 'Send to Model';
export const RETURN_ANSWER = 'Return Answer';
export const REFUSE = 'Refuse';

const DETAIL_CHARS = 3000;

export interface DialogText {
  readonly message: string;
  readonly detail: string;
}

export function formDialog(q: FormQuestion): DialogText {
  const fields = q.form.fields.map((f) => `${f.label}${f.required ? ' (required)' : ''}`).join(', ');
  return {
    message: `MCP server "${q.server}" asks you for information`,
    detail: cap(
      [
        `"${q.message}"`,
        '',
        `Fields: ${fields}`,
        ...context(q),
        '',
        'Each field is asked in turn; nothing is sent before you finish. "Decline" tells the server no; Cancel dismisses the question.',
      ].join('\n'),
    ),
  };
}

export function urlDialog(q: UrlQuestion): DialogText {
  return {
    message: `MCP server "${q.server}" asks you to open a web page`,
    detail: cap([`"${q.message}"`, '', `Site: ${q.origin}`, q.url, ...context(q), '', 'The page opens in your browser only if you choose "Open URL".'].join('\n')),
  };
}

export function samplingRequestDialog(q: SamplingQuestion, model: string): DialogText {
  const lines = [`It asks "${model}" for at most ${q.maxTokens} tokens${q.temperature !== undefined ? ` (temperature ${q.temperature})` : ''}.`];
  if (q.systemPrompt) lines.push('', 'System prompt:', q.systemPrompt);
  lines.push('', 'Messages:');
  for (const m of q.messages) lines.push(`[${m.role}] ${messageText(m)}`);
  if (q.duringCall.length || q.role) lines.push('', ...context(q));
  lines.push('', 'Nothing is sent before you choose "Send to Model"; you see the answer before it goes back. No tools are offered to the model.');
  return { message: `MCP server "${q.server}" wants to use your language model`, detail: cap(lines.join('\n')) };
}

export function samplingAnswerDialog(q: SamplingQuestion, answer: SampledAnswer): DialogText {
  return {
    message: `Return this answer of "${answer.model}" to MCP server "${q.server}"?`,
    detail: cap(answer.text || '(empty answer)'),
  };
}

/** One line for the chat while a server asks during a tool call. */
export function askingProgress(kind: 'elicitation' | 'sampling', q: ElicitationContext | SamplingQuestion): string {
  const during = q.duringCall.length ? ` during ${q.duringCall.join(', ')}` : '';
  if (kind === 'sampling') return `MCP server "${q.server}" asks to use your language model${during}…`;
  return `MCP server "${q.server}" asks you${during}: ${oneLine((q as ElicitationContext).message, 120)}`;
}

function context(q: { duringCall: readonly string[]; role?: string }): string[] {
  const lines: string[] = [];
  if (q.duringCall.length) lines.push(`Asked during its tool call: ${q.duringCall.join(', ')}.`);
  if (q.role) lines.push(`Role: ${q.role}.`);
  return lines;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function cap(text: string): string {
  return text.length <= DETAIL_CHARS ? text : `${text.slice(0, DETAIL_CHARS - 1)}…`;
}
