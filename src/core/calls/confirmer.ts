import type { ToolAnnotations } from '@modelcontextprotocol/client';
import type { RuleHit } from '../policy/argumentRules';
import type { CallActor } from '../audit/callActor';

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
  /**
   * The argument rule that makes this call ask (its `reason` and where it is written). Such a
   * question is about these arguments only: "for this session" is not offered, and not honoured.
   */
  readonly rule?: RuleHit;
  /** Who asks for the call when it is not the model (an app's view, a gateway client); shown to the person. */
  readonly actor?: CallActor;
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
