import type { RuleHit } from '../policy/argumentRules';
import type { ChangedTool } from '../tools/toolListDiff';

export type CallOutcome = 'ok' | 'isError' | 'timeout' | 'cancelled' | 'denied' | 'notFound' | 'invalidArgs' | 'error';

/** Who let a call run: the policy (autoApprove), the user now, an earlier "for this session", the CLI's --yes, or nobody. */
export type ConfirmedBy = 'policy' | 'user' | 'session' | 'flag' | null;

export interface CallAuditRecord {
  readonly kind: 'call';
  readonly ts: string;
  readonly role: string | null;
  readonly server: string | null;
  readonly tool: string | null;
  readonly name: string;
  readonly args: unknown;
  readonly outcome: CallOutcome;
  readonly isError: boolean;
  readonly durationMs: number;
  readonly confirmedBy: ConfirmedBy;
  /** Summary of what the model was given, at most 1 KB. */
  readonly result: string;
  readonly definitionHash: string | null;
  /** The argument rule that decided the call: where it is written (with its index), its action, reason, any failure. */
  readonly rule?: RuleHit;
}

export interface ToolsChangedAuditRecord {
  readonly kind: 'toolsChanged';
  readonly ts: string;
  readonly server: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

export type AuditRecord = CallAuditRecord | ToolsChangedAuditRecord;
