import { toModelTools } from '../core/agent/agentLoop';
import { measureTools } from '../core/agent/toolBudget';
import { buildCheckReport, checkPassed } from './checkReport';
import { CliBrowser } from './cliBrowser';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { formatCheckReport } from './formatCheck';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { O200K_COUNTER } from './o200kTokenCounter';
import { LoginWhenNeeded } from './loginWhenNeeded';
import { printJson, writeStderr, writeStdout } from './output';
import type { CheckOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';

/**
 * `mcp-host check`: start the role's servers, wait until each settles (with --login: sign in to
 * those that need it), report servers, the role's tools (with the tokens of their definitions
 * against the role's budget) and all problems, stop everything.
 */
export async function runCheck(o: CheckOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  if (!o.json) printProblems(workspace.problems);
  const browser = o.login ? new CliBrowser(process.env, writeStderr) : undefined;
  const host = lifecycle.track(
    createHost(workspace, {
      onClose: (c) => lifecycle.onClose(c),
      role: o.role,
      yes: false,
      confirmer: new DenyingConfirmer('check makes no calls'),
      logger: createStderrLogger(o.verbose),
      browser,
      verbose: o.verbose,
    }),
  );
  const abort = new AbortController();
  lifecycle.onSignal(() => abort.abort());
  try {
    await host.start();
    if (o.login) await new LoginWhenNeeded(host, writeStderr, abort.signal).signInWaiting();
    const snapshot = host.snapshot();
    const measure = await measureTools(toModelTools(snapshot.exposed), snapshot.toolBudget, O200K_COUNTER);
    const report = buildCheckReport(snapshot, workspace.problems, measure, O200K_COUNTER.key, o.workspace);
    if (o.json) {
      printJson(report);
    } else {
      // The registry's naming problems and the budget warning (settings problems were printed above).
      printProblems(report.problems.slice(workspace.problems.length));
      writeStdout(formatCheckReport(report, workspace.dir));
    }
    return checkPassed(report) ? ExitCode.ok : ExitCode.failure;
  } finally {
    await browser?.settle();
    await lifecycle.closeHost();
  }
}
