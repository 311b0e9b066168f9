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

export function buildCheckReport(snapshot: HostSnapshot, settingsProblems: readonly SettingsProblem[]): CheckReport {
  return {
    role: snapshot.role ?? null,
    servers: serverViews(snapshot, true),
    tools: toolViews(snapshot),
    problems: problemViews(settingsProblems, snapshot),
  };
}

/** A check passes when every started server connected and there is no error problem. */
export function checkPassed(report: CheckReport): boolean {
  return !report.servers.some((s) => s.state === 'error') && !report.problems.some((p) => p.severity === 'error');
}
