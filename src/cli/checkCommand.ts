import type { McpHost } from '../core/host/mcpHost';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import { buildCheckReport, checkPassed, driftView, type LockfileCheck } from './checkReport';
import { canAskOnTerminal } from './callCommand';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { formatCheckReport } from './formatCheck';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { printJson, writeStdout } from './output';
import type { CheckOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor } from './terminalConsentPrompt';

/**
 * `mcp-host check`: start the role's servers, wait until each settles, report servers, the role's
 * tools, quarantined tools and all problems, stop everything. `--locked` (CI): the lockfile is read
 * only, and any difference from it fails the check with a readable diff.
 */
export async function runCheck(o: CheckOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  if (!o.json) printProblems(workspace.problems);
  const host = lifecycle.track(
    createHost(workspace, {
      role: o.role,
      yes: o.yes,
      confirmer: new DenyingConfirmer('check makes no calls'),
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger: createStderrLogger(o.verbose),
      ...(o.locked ? { pinning: 'locked' as const } : {}),
    }),
  );
  try {
    await host.start();
    const reviews = o.locked ? lockfileReviews(host) : [];
    const report = buildCheckReport(host.snapshot(), workspace.problems, o.locked ? lockfileCheck(host, workspace.settings.servers.map((s) => s.name), reviews) : undefined);
    if (o.json) {
      printJson(report);
    } else {
      printProblems(host.snapshot().problems);
      writeStdout(formatCheckReport(report, workspace.dir, reviews));
    }
    return checkPassed(report) ? ExitCode.ok : ExitCode.failure;
  } finally {
    await lifecycle.closeHost();
  }
}

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
