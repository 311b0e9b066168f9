import type { ToolBudgetMeasure } from '../core/agent/toolBudget';
import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { problemViews, quarantineViews, serverViews, toolViews, type ProblemView, type QuarantineView, type ServerView, type ToolView } from './jsonViews';

/** One server's differences from the lockfile (`check --locked`): the review's summary, without the texts. */
export type DriftView = Pick<DefinitionReview, 'server' | 'firstReview' | 'added' | 'changed' | 'removed' | 'identityChanges'>;

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
  /** What the role's tool definitions cost per request, and its budget (maxTools / maxToolTokens). */
  readonly budget: BudgetView;
  /** Tools no role is offered until a person reviews them (mcpHost.pinning). */
  readonly quarantined: readonly QuarantineView[];
  readonly problems: readonly ProblemView[];
  /** `--locked` only. */
  readonly lockfile?: LockfileCheck;
}

export function driftView(r: DefinitionReview): DriftView {
  return { server: r.server, firstReview: r.firstReview, added: r.added, changed: r.changed, removed: r.removed, identityChanges: r.identityChanges };
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
  lockfile?: LockfileCheck,
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
    quarantined: quarantineViews(snapshot),
    problems: [...problemViews(settingsProblems, snapshot), ...(measure.over ? [overBudgetProblem(snapshot, budget)] : [])],
    ...(lockfile ? { lockfile } : {}),
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

/** Whether `check --locked` found the lockfile exactly matching what the servers list. */
export function lockfileMatches(l: LockfileCheck): boolean {
  return l.exists && l.error === undefined && l.drift.length === 0 && l.staleEntries.length === 0 && l.inconsistentEntries.length === 0;
}

/** A check passes when every started server connected (none failed or waits for sign-in), there is no error problem and, with --locked, no drift. */
export function checkPassed(report: CheckReport): boolean {
  return (
    !report.servers.some((s) => s.state === 'error' || s.state === 'needsSignIn') &&
    !report.problems.some((p) => p.severity === 'error') &&
    (report.lockfile === undefined || lockfileMatches(report.lockfile))
  );
}
