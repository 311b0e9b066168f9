import type { TraceIds } from '../util/traceContext';
import type { CallActor } from './callActor';
import type { RuleHit } from '../policy/argumentRules';
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
  /** From the request to the result, waiting for a person included. */
  readonly durationMs: number;
  /** The server's time: the `tools/call` alone (absent when the server was not called, and in records before 0.1.x). */
  readonly serverMs?: number;
  /** Waiting for a person's answer to the confirmation (absent when nobody was asked, and in older records). */
  readonly confirmWaitMs?: number;
  readonly confirmedBy: ConfirmedBy;
  /** Summary of what the model was given, at most 1 KB. */
  readonly result: string;
  readonly definitionHash: string | null;
  /** The argument rule that decided the call: where it is written (with its index), its action, reason, any failure. */
  readonly rule?: RuleHit;
  /** Who asked when it was not the model: an app's view or a gateway client (absent: the model). */
  readonly actor?: CallActor;
  /** The ids of the call's OpenTelemetry span, sent to the server as `traceparent` (only while telemetry export is on). */
  readonly trace?: TraceIds;
}

export interface ToolsChangedAuditRecord {
  readonly kind: 'toolsChanged';
  readonly ts: string;
  readonly server: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

/** What a server asked the host for: a form or URL (elicitation), a model completion (sampling), the roots. */
export type ServerRequestKind = 'elicitation' | 'sampling' | 'roots';

/**
 * accepted / declined / cancelled: the user's answer (roots: answered by the host); denied: the
 * host's settings, trust or role refused without asking; invalid: the request or the answer broke
 * the rules (an unsafe URL, content that fails the schema); error: asking or the model failed.
 */
export type ServerRequestOutcome = 'accepted' | 'declined' | 'cancelled' | 'denied' | 'invalid' | 'error';

export interface ServerRequestAuditRecord {
  readonly kind: ServerRequestKind;
  readonly ts: string;
  readonly role: string | null;
  readonly server: string;
  /** The server's tools with a call in flight when it asked (the request is part of that call). */
  readonly duringCall: readonly string[];
  /** What the server asked for (messages and texts summarized). */
  readonly request: unknown;
  /** What went back to the server: secret-looking fields redacted, texts summarized. */
  readonly answer: unknown;
  readonly outcome: ServerRequestOutcome;
  /** Who decided: the user (a person, or the driver of `mcp-host session`) or the host's policy. */
  readonly decidedBy: 'user' | 'policy';
  readonly reason?: string;
  readonly durationMs: number;
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

/**
 * How a resource read or a prompt use ended. `notAllowed`: the active role may not, or the resource
 * URI is ambiguous (nothing was sent).
 */
export type ContextOutcome = 'ok' | 'notAllowed' | 'notFound' | 'invalidArgs' | 'timeout' | 'cancelled' | 'error';

/**
 * Who a resource was read for: a person looking at it (tree, CLI), a chat request that hands it to
 * the model, or an MCP App (its view's HTML, or a read the view asked for; `actor` names the view).
 */
/** Who the read is for: the editor's views, a chat attachment, an MCP App's view, or a client of the host's gateway. */
export type ReadPurpose = 'view' | 'chat' | 'app' | 'gateway';

export interface ResourceAuditRecord {
  readonly kind: 'resource';
  readonly ts: string;
  readonly role: string | null;
  readonly server: string;
  /** The canonical URI that was checked (and sent); the URI as asked when it has no canonical form. */
  readonly uri: string;
  /** The URI as asked, when it differs from its canonical form. */
  readonly requestedUri?: string;
  readonly purpose: ReadPurpose;
  readonly outcome: ContextOutcome;
  readonly durationMs: number;
  /** What came back (MIME types and sizes) or why nothing did, at most 1 KB. */
  readonly result: string;
  /** Who asked when it was not a person or the model: an app's view or a client of the host's gateway (absent otherwise). */
  readonly actor?: CallActor;
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
  /** Who asked when it was not a person or the model: a client of the host's gateway (absent otherwise). */
  readonly actor?: CallActor;
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
  /** Approved when the person allowed the server to start ("approve what it lists", trust on first use). */
  readonly atConsent?: boolean;
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

export type AuditRecord =
  | CallAuditRecord
  | ToolsChangedAuditRecord
  | ServerRequestAuditRecord
  | AuthAuditRecord
  | ResourceAuditRecord
  | PromptAuditRecord
  | ReviewAuditRecord
  | ConsentAuditRecord;

/** Every record kind, for `audit export --kind` (a Record so that a new kind cannot be left out). */
const KINDS: Record<AuditRecord['kind'], true> = {
  call: true,
  toolsChanged: true,
  elicitation: true,
  sampling: true,
  roots: true,
  auth: true,
  resource: true,
  prompt: true,
  review: true,
  consent: true,
};
export const AUDIT_RECORD_KINDS = Object.keys(KINDS) as readonly AuditRecord['kind'][];
