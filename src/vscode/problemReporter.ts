import type { SettingsProblem } from '../core/settings/hostSettings';
import { formatProblem } from '../core/settings/settingsProblem';
import type { Logger } from '../core/util/logger';

export interface ProblemNotification {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

const MAX_MESSAGE_CHARS = 400;

/** The one notification for a set of settings problems (undefined when there are none). */
export function problemNotification(problems: readonly SettingsProblem[], what = 'settings'): ProblemNotification | undefined {
  if (problems.length === 0) return undefined;
  const severity = problems.some((p) => p.severity === 'error') ? 'error' : 'warning';
  const first = problems.find((p) => p.severity === severity) ?? problems[0];
  const message =
    problems.length === 1
      ? `MCP Host ${what}: ${formatProblem(first)}`
      : `MCP Host found ${problems.length} problems in its ${what} (all are listed in the MCP Host output). First: ${formatProblem(first)}`;
  return { severity, message: message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message };
}

/** Shows a notification; the editor implementation offers "Open Settings" and "Show Output". */
export type Notify = (notification: ProblemNotification) => void;

/**
 * Reports settings problems once per distinct problem set and source (settings, tool naming):
 * every problem to the log, and one readable notification.
 */
export class ProblemReporter {
  private readonly last = new Map<string, string>();

  constructor(
    private readonly logger: Logger,
    private readonly notify: Notify,
  ) {}

  report(source: 'settings' | 'tool names', problems: readonly SettingsProblem[]): void {
    const key = JSON.stringify(problems.map((p) => [p.severity, formatProblem(p)]));
    const previous = this.last.get(source);
    if (previous === key) return;
    this.last.set(source, key);
    if (problems.length === 0) {
      if (previous !== undefined && previous !== '[]') this.logger.info(`${source}: the earlier problems are resolved`);
      return;
    }
    for (const p of problems) this.logger[p.severity === 'error' ? 'error' : 'warn'](`${source}: ${formatProblem(p)}`);
    const n = problemNotification(problems, source);
    if (n) this.notify(n);
  }
}
