import type { ToolBudgetMeasure } from '../core/agent/toolBudget';
import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import type { SettingsProblem } from '../core/settings/hostSettings';
import { allowCommand, lockCommandFor, serversWaitingForConsent, type RunContext } from './nextCommand';
import { appOnlyViews, problemViews, quarantineViews, serverViews, toolViews, type AppOnlyView, type ProblemView, type QuarantineView, type ServerView, type ToolView } from './jsonViews';

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
  /** MCP Apps: the role's tools only their server's views may call (never offered to a model, so not in `tools`). */
  readonly appOnly: readonly AppOnlyView[];
  /** What the role's tool definitions cost per request, and its budget (maxTools / maxToolTokens). */
  readonly budget: BudgetView;
  /** Tools no role is offered until a person reviews them (mcpHost.pinning). */
  readonly quarantined: readonly QuarantineView[];
  readonly problems: readonly ProblemView[];
  /** `--locked` only. */
  readonly lockfile?: LockfileCheck;
  /** What a person must decide before the role's tools work, each with the command that does it. */
  readonly next: readonly NextStep[];
}

/** A decision the check cannot make (a server not allowed to start, quarantined tools), and the command that makes it. */
export interface NextStep {
  readonly reason: string;
  readonly command: string;
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

/** `run`: the --workspace and --role given, repeated in the commands the report names (login, allow, lock). */
export function buildCheckReport(
  snapshot: HostSnapshot,
  settingsProblems: readonly SettingsProblem[],
  measure: ToolBudgetMeasure,
  tokenizer: string,
  run: RunContext = {},
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
  const quarantined = quarantineViews(snapshot);
  return {
    role: snapshot.role ?? null,
    servers: serverViews(snapshot, true, run.workspace),
    tools: toolViews(snapshot),
    appOnly: appOnlyViews(snapshot),
    budget,
    quarantined,
    problems: [...problemViews(settingsProblems, snapshot), ...(measure.over ? [overBudgetProblem(snapshot, budget)] : [])],
    ...(lockfile ? { lockfile } : {}),
    next: nextSteps(snapshot, quarantined, run),
  };
}

/** First the servers to allow (their tools are only seen once they run), then the definitions to review. */
function nextSteps(snapshot: HostSnapshot, quarantined: readonly QuarantineView[], run: RunContext): NextStep[] {
  const out: NextStep[] = [];
  const waiting = serversWaitingForConsent(snapshot).map((s) => s.name);
  if (waiting.length) {
    const names = waiting.map((n) => `"${n}"`).join(', ');
    out.push({ reason: `${waiting.length === 1 ? `server ${names} is` : `servers ${names} are`} not allowed to start in this workspace`, command: allowCommand(waiting, run) });
  }
  if (quarantined.length) {
    const servers = [...new Set(quarantined.map((q) => q.server))].map((n) => `"${n}"`).join(', ');
    out.push({
      reason:
        quarantined.length === 1
          ? `1 tool is quarantined (${servers}): its definition is not the reviewed one`
          : `${quarantined.length} tools are quarantined (${servers}): their definitions are not the reviewed ones`,
      command: lockCommandFor(run),
    });
  }
  return out;
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

/**
 * `failed` when a started server failed or waits for sign-in, there is an error problem or, with
 * --locked, drift; else `needsDecision` when a server is not allowed to start or tools are
 * quarantined (the report's `next` says what to run); else `ok`.
 */
export function checkVerdict(report: CheckReport): 'ok' | 'failed' | 'needsDecision' {
  const failed =
    report.servers.some((s) => s.state === 'error' || s.state === 'needsSignIn') ||
    report.problems.some((p) => p.severity === 'error') ||
    (report.lockfile !== undefined && !lockfileMatches(report.lockfile));
  if (failed) return 'failed';
  return report.next.length ? 'needsDecision' : 'ok';
}
