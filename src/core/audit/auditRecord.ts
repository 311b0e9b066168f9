import type { ChangedTool } from '../tools/toolListDiff';

export type CallOutcome = 'ok' | 'isError' | 'timeout' | 'cancelled' | 'denied' | 'notFound' | 'invalidArgs' | 'quarantined' | 'error';

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
}

export interface ToolsChangedAuditRecord {
  readonly kind: 'toolsChanged';
  readonly ts: string;
  readonly server: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

/** Who made a decision: the OS user, and where (the editor, a terminal, or a `--yes` flag). */
export interface Actor {
  readonly user: string;
  readonly via: 'editor' | 'cli' | 'flag';
}

/** A person approved or rejected one server's tool definitions (the lockfile's review). */
export interface ReviewAuditRecord {
  readonly kind: 'review';
  readonly ts: string;
  readonly server: string;
  readonly decision: 'approve' | 'reject';
  readonly by: Actor;
  /** The server had no lockfile entry: all its tools were reviewed. */
  readonly firstReview: boolean;
  readonly added: readonly { readonly tool: string; readonly hash: string }[];
  readonly changed: readonly { readonly tool: string; readonly fields: readonly string[]; readonly before: string; readonly after: string }[];
  readonly removed: readonly { readonly tool: string; readonly hash: string }[];
  readonly identityChanges: readonly string[];
}

/** A person allowed or refused the start of a server (consent before its first start). */
export interface ConsentAuditRecord {
  readonly kind: 'consent';
  readonly ts: string;
  readonly server: string;
  readonly decision: 'allow' | 'deny';
  readonly by: Actor;
  /** Kept for the next starts (false: `--yes`, or a dismissed question). */
  readonly remembered: boolean;
  /** The command line or URL shown (secrets masked). */
  readonly target: string;
  readonly identityHash: string;
}

export type AuditRecord = CallAuditRecord | ToolsChangedAuditRecord | ReviewAuditRecord | ConsentAuditRecord;
