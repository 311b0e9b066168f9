import type { ToolBudgetMeasure } from '../core/agent/toolBudget';
import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { problemViews, serverViews, toolViews, type ProblemView, type ServerView, type ToolView } from './jsonViews';

/** What `check --json` prints. */
export interface CheckReport {
  readonly role: string | null;
  readonly servers: readonly ServerView[];
  readonly tools: readonly ToolView[];
  /** What the role's tool definitions cost per request, and its budget (maxTools / maxToolTokens). */
  readonly budget: BudgetView;
  readonly problems: readonly ProblemView[];
}

export interface BudgetView {
  readonly tools: number;
  readonly tokens: number | null;
  /** How the tokens were counted. */
  readonly tokenizer: string;
  readonly maxTools: number;
  readonly maxToolTokens: number | null;
  readonly over: boolean;
}

/** `workspace`: the --workspace given, repeated in the login command a server that needs sign-in names. */
export function buildCheckReport(
  snapshot: HostSnapshot,
  settingsProblems: readonly SettingsProblem[],
  measure: ToolBudgetMeasure,
  tokenizer: string,
  workspace?: string,
): CheckReport {
  const budget: BudgetView = {
    tools: measure.tools,
    tokens: measure.tokens ?? null,
    tokenizer,
    maxTools: measure.budget.maxTools,
    maxToolTokens: measure.budget.maxToolTokens ?? null,
    over: measure.over,
  };
  return {
    role: snapshot.role ?? null,
    servers: serverViews(snapshot, true, workspace),
    tools: toolViews(snapshot),
    budget,
    problems: [...problemViews(settingsProblems, snapshot), ...(measure.over ? [overBudgetProblem(snapshot, budget)] : [])],
  };
}

/** A warning, not an error: requests still work, through a selection and search_tools. */
function overBudgetProblem(snapshot: HostSnapshot, b: BudgetView): ProblemView {
  const role = snapshot.roles.find((r) => r.name === snapshot.role);
  const key = b.tools > b.maxTools ? 'maxTools' : 'maxToolTokens';
  const setting = role && role[key] !== undefined ? `mcpHost.roles.${role.name}.${key}` : `mcpHost.${key}`;
  const limit = key === 'maxTools' ? `${b.maxTools} tools` : `${b.maxToolTokens} tokens`;
  const who = snapshot.role ? `role "${snapshot.role}"` : 'no role';
  return {
    severity: 'warning',
    setting,
    message: `${who} has ${b.tools} tools${b.tokens !== null ? ` (${b.tokens} tokens of definitions, ${b.tokenizer})` : ''}, over the budget of ${limit}: each request carries the most relevant tools within it plus search_tools, through which the model reaches the others`,
  };
}

/** A check passes when every started server connected (none failed or waits for sign-in) and there is no error problem. */
export function checkPassed(report: CheckReport): boolean {
  return !report.servers.some((s) => s.state === 'error' || s.state === 'needsSignIn') && !report.problems.some((p) => p.severity === 'error');
}
