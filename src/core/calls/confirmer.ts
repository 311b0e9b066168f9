import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

export interface ConfirmationRequest {
  readonly role?: string;
  /** Exposed name. */
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly title?: string;
  readonly description?: string;
  readonly args: Record<string, unknown>;
  /** The server's own claims about the tool; shown, never trusted. */
  readonly annotations?: ToolAnnotations;
}

/** allow once, allow for the session (per role and tool), or deny. */
export type ConfirmationAnswer = 'once' | 'session' | 'deny';

/** The port through which the core asks the user. A failure to ask counts as a denial. */
export interface Confirmer {
  confirm(request: ConfirmationRequest, signal?: AbortSignal): Promise<ConfirmationAnswer>;
}

/** Answers every request the same way (CLI `--yes`, non-interactive denial, tests). */
export function fixedConfirmer(answer: ConfirmationAnswer): Confirmer {
  return { confirm: async () => answer };
}
