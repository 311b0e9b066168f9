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

/** How a resource read or a prompt use ended. `notAllowed`: the active role may not (nothing was sent). */
export type ContextOutcome = 'ok' | 'notAllowed' | 'notFound' | 'invalidArgs' | 'timeout' | 'cancelled' | 'error';

/** Who a resource was read for: a person looking at it (tree, CLI) or a chat request that hands it to the model. */
export type ReadPurpose = 'view' | 'chat';

export interface ResourceAuditRecord {
  readonly kind: 'resource';
  readonly ts: string;
  readonly role: string | null;
  readonly server: string;
  readonly uri: string;
  readonly purpose: ReadPurpose;
  readonly outcome: ContextOutcome;
  readonly durationMs: number;
  /** What came back (MIME types and sizes) or why nothing did, at most 1 KB. */
  readonly result: string;
}

export interface PromptAuditRecord {
  readonly kind: 'prompt';
  readonly ts: string;
  readonly role: string | null;
  readonly server: string;
  readonly prompt: string;
  /** Redacted like tool arguments. */
  readonly args: unknown;
  readonly outcome: ContextOutcome;
  readonly durationMs: number;
  /** How many messages came back, or why none did, at most 1 KB. */
  readonly result: string;
}

export type AuditRecord = CallAuditRecord | ToolsChangedAuditRecord | ResourceAuditRecord | PromptAuditRecord;
