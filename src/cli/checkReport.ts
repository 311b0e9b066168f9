import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { problemViews, serverViews, toolViews, type ProblemView, type ServerView, type ToolView } from './jsonViews';

/** What `check --json` prints. */
export interface CheckReport {
  readonly role: string | null;
  readonly servers: readonly ServerView[];
  readonly tools: readonly ToolView[];
  readonly problems: readonly ProblemView[];
}

/** `workspace`: the --workspace given, repeated in the login command a server that needs sign-in names. */
export function buildCheckReport(snapshot: HostSnapshot, settingsProblems: readonly SettingsProblem[], workspace?: string): CheckReport {
  return {
    role: snapshot.role ?? null,
    servers: serverViews(snapshot, true, workspace),
    tools: toolViews(snapshot),
    problems: problemViews(settingsProblems, snapshot),
  };
}

/** A check passes when every started server connected (none failed or waits for sign-in) and there is no error problem. */
export function checkPassed(report: CheckReport): boolean {
  return !report.servers.some((s) => s.state === 'error' || s.state === 'needsSignIn') && !report.problems.some((p) => p.severity === 'error');
}
