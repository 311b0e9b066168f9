import type { SettingsProblem } from '../core/settings/hostSettings';
import { formatProblem } from '../core/settings/settingsProblem';
import type { Write } from './stderrLogger';

/** Settings and naming problems for a person, one line each, on stderr. */
export function printProblems(problems: readonly SettingsProblem[], write: Write = (t) => void process.stderr.write(t)): void {
  for (const p of problems) write(`mcp-host ${p.severity === 'error' ? 'error' : 'warning'}: ${formatProblem(p)}\n`);
}
