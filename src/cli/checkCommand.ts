import { toModelTools } from '../core/agent/agentLoop';
import { measureTools } from '../core/agent/toolBudget';
import type { McpHost } from '../core/host/mcpHost';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import { canAskOnTerminal } from './callCommand';
import { buildCheckReport, checkVerdict, driftView, type LockfileCheck } from './checkReport';
import { CliBrowser } from './cliBrowser';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { formatCheckReport } from './formatCheck';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { verboseHint } from './nextCommand';
import { O200K_COUNTER } from './o200kTokenCounter';
import { LoginWhenNeeded } from './loginWhenNeeded';
import { printJson, writeStderr, writeStdout } from './output';
import type { CheckOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor } from './terminalConsentPrompt';

/**
 * `mcp-host check`: start the role's servers, wait until each settles (with --login: sign in to
 * those that need it), report servers, the role's tools (with the tokens of their definitions
 * against the role's budget), quarantined tools and all problems, stop everything. `--locked` (CI):
 * the lockfile is read only, and any difference from it fails the check with a readable diff.
 */
export async function runCheck(o: CheckOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  if (!o.json) printProblems(workspace.problems);
  const browser = o.login ? new CliBrowser(process.env, writeStderr) : undefined;
  const host = lifecycle.track(
    createHost(workspace, {
      onClose: (c) => lifecycle.onClose(c),
      role: o.role,
      yes: o.yes,
      allowServers: o.allowServers,
      confirmer: new DenyingConfirmer('check makes no calls'),
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger: createStderrLogger(o.verbose),
      browser,
      verbose: o.verbose,
      ...(o.locked ? { pinning: 'locked' as const } : {}),
    }),
  );
  const abort = new AbortController();
  lifecycle.onSignal(() => abort.abort());
  try {
    await host.start();
    if (o.login) await new LoginWhenNeeded(host, writeStderr, abort.signal).signInWaiting();
    const snapshot = host.snapshot();
    const measure = await measureTools(toModelTools(snapshot.exposed), snapshot.toolBudget, O200K_COUNTER);
    const reviews = o.locked ? lockfileReviews(host) : [];
    const lockfile = o.locked ? lockfileCheck(host, workspace.settings.servers.map((s) => s.name), reviews) : undefined;
    const report = buildCheckReport(snapshot, workspace.problems, measure, O200K_COUNTER.key, { workspace: o.workspace, role: o.role }, lockfile);
    if (o.json) {
      await printJson(report);
    } else {
      // The registry's naming problems and the budget warning (settings problems were printed above).
      printProblems(report.problems.slice(workspace.problems.length));
      writeStdout(formatCheckReport(report, workspace.dir, reviews));
      const hint = verboseHint(snapshot, o.verbose);
      if (hint) writeStderr(hint + '\n');
    }
    return EXIT_CODES[checkVerdict(report)];
  } finally {
    await browser?.settle();
    await lifecycle.closeHost();
  }
}

const EXIT_CODES = { ok: ExitCode.ok, failed: ExitCode.failure, needsDecision: ExitCode.needsDecision } as const;

/** The review each connected server of the role would need (its differences from the lockfile). */
function lockfileReviews(host: McpHost): DefinitionReview[] {
  return host
    .snapshot()
    .servers.filter((s) => s.usedByRole && s.connected)
    .map((s) => host.definitions.review(s.name))
    .filter((r): r is DefinitionReview => !!r);
}

function lockfileCheck(host: McpHost, configured: readonly string[], reviews: readonly DefinitionReview[]): LockfileCheck {
  const l = host.definitions.lockfile;
  return {
    path: l.location,
    exists: l.exists,
    ...(l.error !== undefined ? { error: l.error } : {}),
    drift: reviews.map(driftView),
    staleEntries: host.definitions.lockedServers().filter((s) => !configured.includes(s)),
    inconsistentEntries: host.definitions.inconsistentEntries(),
  };
}
