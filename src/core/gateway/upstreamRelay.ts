import { inputRequired, inputResponse, type InputRequest } from '@modelcontextprotocol/server';
import type { FormContent } from '../requests/elicitationForm';
import type { ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../requests/elicitationPrompter';

/** Finds who can be asked on behalf of `server`: the upstream client whose call it is serving. */
export type UpstreamAsker = (server: string) => ((input: InputRequest, signal: AbortSignal) => Promise<Record<string, unknown> | undefined>) | undefined;

/**
 * The servers' questions (elicitation, form mode) relayed to the upstream client whose tool call
 * the asking server is serving, when that client can be asked; every other question goes to
 * `fallback` (the CLI: declined with a warning). Only the asking port: the decision whether a
 * server may ask (`mcpHost.elicitation`, trust, role), the form's defaults and validation and the
 * audit stay in the host's ElicitationHandler, the one path of every question.
 */
export class UpstreamRelay implements ElicitationPrompter {
  private asker?: UpstreamAsker;

  constructor(private readonly fallback: ElicitationPrompter) {}

  /** Called by the gateway that serves the upstream clients. */
  attach(asker: UpstreamAsker): void {
    this.asker = asker;
  }

  async askForm(question: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    const ask = this.asker?.(question.server);
    if (!ask) return this.fallback.askForm(question, signal);
    const during = question.duringCall.length ? ` during the call of ${question.duringCall.join(', ')}` : '';
    const input = inputRequired.elicit({ message: `Server "${question.server}" asks${during}: ${question.message}`, requestedSchema: question.form.schema as never });
    const view = inputResponse(withKey(await ask(input, signal)), KEY);
    if (view.kind !== 'elicit') return { action: 'cancel' };
    return view.action === 'accept' ? { action: 'accept', content: (view.content ?? {}) as FormContent } : { action: view.action };
  }

  /** URL questions are not relayed: the gateway does not open pages for a client it cannot see. */
  askUrl(question: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    return this.fallback.askUrl(question, signal);
  }

  openUrl(url: string): Promise<void> {
    return this.fallback.openUrl(url);
  }
}

const KEY = 'answer';
function withKey(response: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return response ? { [KEY]: response } : undefined;
}
