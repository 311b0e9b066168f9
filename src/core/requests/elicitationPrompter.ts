import type { ElicitationForm, FormContent } from './elicitationForm';

/** Who asks and in what context: shown with every question. */
export interface ElicitationContext {
  readonly server: string;
  readonly role?: string;
  /** The server's tools with a call in flight: the question is part of those calls. */
  readonly duringCall: readonly string[];
  /** The server's own words on what it needs and why. */
  readonly message: string;
}

export interface FormQuestion extends ElicitationContext {
  /** Fields, defaults (SEP-1034, shown pre-filled) and validation. */
  readonly form: ElicitationForm;
}

export interface UrlQuestion extends ElicitationContext {
  /** The exact URL, already checked: https, or http to this machine. */
  readonly url: string;
  /** The URL's origin (scheme, host, port): the site the person is sent to, to show apart from the rest of the URL. */
  readonly origin: string;
  readonly elicitationId: string;
}

/** accept: the user submitted the form; decline: the user said no; cancel: the user dismissed it. */
export type FormAnswer = { readonly action: 'accept'; readonly content: FormContent } | { readonly action: 'decline' | 'cancel' };
export type UrlAnswer = { readonly action: 'accept' | 'decline' | 'cancel' };

/**
 * The port through which the core asks the user for what a server wants to know (the editor's
 * input flow, a terminal, the driver of `mcp-host session`). `signal` aborts when the server
 * withdraws the question. Throwing counts as a decline, never as consent.
 */
export interface ElicitationPrompter {
  askForm(question: FormQuestion, signal: AbortSignal): Promise<FormAnswer>;
  /** Whether to open `url`; the core opens it through `openUrl` only after an accept. */
  askUrl(question: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer>;
  openUrl(url: string): Promise<void>;
}

/** Declines every question (nobody to ask: no terminal, no editor), saying why through `tell`. */
export function decliningPrompter(why: string, tell: (line: string) => void = () => undefined): ElicitationPrompter {
  const decline = async (q: ElicitationContext) => {
    tell(`server "${q.server}" asks for information ("${q.message}") and ${why}: declined`);
    return { action: 'decline' as const };
  };
  return {
    askForm: decline,
    askUrl: decline,
    openUrl: async () => {
      throw new Error(why);
    },
  };
}
