import { buildCheckReport, checkPassed } from './checkReport';
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

/**
 * `mcp-host check`: start the role's servers, wait until each settles, report servers, the role's
 * tools and all problems, stop everything.
 */
export async function runCheck(o: CheckOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  if (!o.json) printProblems(workspace.problems);
  const host = lifecycle.track(
    createHost(workspace, {
      onClose: (c) => lifecycle.onClose(c),
      role: o.role,
      yes: false,
      confirmer: new DenyingConfirmer('check makes no calls'),
      logger: createStderrLogger(o.verbose),
    }),
  );
  try {
    await host.start();
    const report = buildCheckReport(host.snapshot(), workspace.problems);
    if (o.json) {
      printJson(report);
    } else {
      printProblems(host.snapshot().problems);
      writeStdout(formatCheckReport(report, workspace.dir));
    }
    return checkPassed(report) ? ExitCode.ok : ExitCode.failure;
  } finally {
    await lifecycle.closeHost();
  }
}
