import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { problemViews, quarantineViews, serverViews, toolViews, type ProblemView, type QuarantineView, type ServerView, type ToolView } from './jsonViews';

/** One server's differences from the lockfile (`check --locked`). */
export interface DriftView {
  readonly server: string;
  /** No entry in the lockfile at all. */
  readonly firstReview: boolean;
  readonly added: readonly string[];
  readonly changed: readonly { readonly tool: string; readonly fields: readonly string[] }[];
  readonly removed: readonly string[];
  readonly identityChanges: readonly string[];
}

/** The lockfile as `check --locked` found it. */
export interface LockfileCheck {
  readonly path: string;
  readonly exists: boolean;
  readonly error?: string;
  readonly drift: readonly DriftView[];
  /** Entries for servers that are not configured any more. */
  readonly staleEntries: readonly string[];
  /** Entries ("server/tool") whose hash is not the hash of their definition (edited by hand). */
  readonly inconsistentEntries: readonly string[];
}

/** What `check --json` prints. */
export interface CheckReport {
  readonly role: string | null;
  readonly servers: readonly ServerView[];
  readonly tools: readonly ToolView[];
  /** Tools no role is offered until a person reviews them (mcpHost.pinning). */
  readonly quarantined: readonly QuarantineView[];
  readonly problems: readonly ProblemView[];
  /** `--locked` only. */
  readonly lockfile?: LockfileCheck;
}

export function driftView(r: DefinitionReview): DriftView {
  return { server: r.server, firstReview: r.firstReview, added: r.added, changed: r.changed, removed: r.removed, identityChanges: r.identityChanges };
}

export function buildCheckReport(snapshot: HostSnapshot, settingsProblems: readonly SettingsProblem[], lockfile?: LockfileCheck): CheckReport {
  return {
    role: snapshot.role ?? null,
    servers: serverViews(snapshot, true),
    tools: toolViews(snapshot),
    quarantined: quarantineViews(snapshot),
    problems: problemViews(settingsProblems, snapshot),
    ...(lockfile ? { lockfile } : {}),
  };
}

/** Whether `check --locked` found the lockfile exactly matching what the servers list. */
export function lockfileMatches(l: LockfileCheck): boolean {
  return l.exists && l.error === undefined && l.drift.length === 0 && l.staleEntries.length === 0 && l.inconsistentEntries.length === 0;
}

/** A check passes when every started server connected and there is no error problem (and, with --locked, no drift). */
export function checkPassed(report: CheckReport): boolean {
  return (
    !report.servers.some((s) => s.state === 'error') &&
    !report.problems.some((p) => p.severity === 'error') &&
    (report.lockfile === undefined || lockfileMatches(report.lockfile))
  );
}
