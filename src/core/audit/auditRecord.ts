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
}

export interface ToolsChangedAuditRecord {
  readonly kind: 'toolsChanged';
  readonly ts: string;
  readonly server: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

/** Sign-in and sign-out of a remote server (issue 11): never a token, code, verifier or secret. */
export interface AuthAuditRecord {
  readonly kind: 'auth';
  readonly ts: string;
  readonly server: string;
  readonly event: 'signInStarted' | 'signInCompleted' | 'signInFailed' | 'signInCancelled' | 'signedOut';
  /** The authorization server, once known. */
  readonly issuer?: string;
  /** The scope asked for (started) or granted (completed). */
  readonly scope?: string;
  /** A sign-in for a wider scope after a 403 insufficient_scope. */
  readonly stepUp?: boolean;
  /** Why a sign-in failed or was cancelled. */
  readonly reason?: string;
  /** Signed out: whether anything was stored. */
  readonly hadCredentials?: boolean;
}

export type AuditRecord = CallAuditRecord | ToolsChangedAuditRecord | AuthAuditRecord;
