import { actor } from '../core/audit/actor';
import { canAskOnTerminal } from './callCommand';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { formatReview } from './formatDrift';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { writeStderr, writeStdout } from './output';
import type { LockOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor } from './terminalConsentPrompt';

/**
 * `mcp-host lock`: start every enabled server (or the role's, with --role), and write what each lists
 * now to `mcp-host.lock.json` — the terminal's "approve". Prints what changed; the lockfile is then
 * reviewed like any other change in the pull request. A server that does not start keeps its entry.
 */
export async function runLock(o: LockOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  const host = lifecycle.track(
    createHost(workspace, {
      role: o.role ?? '',
      yes: o.yes,
      allowServers: o.allowServers,
      confirmer: new DenyingConfirmer('lock makes no calls'),
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger: createStderrLogger(o.verbose),
      pinning: 'review',
    }),
  );
  try {
    await host.start();
    const snapshot = host.snapshot();
    const failed = snapshot.servers.filter((s) => s.usedByRole && !s.connected);
    const reviews = host.definitions.lockAll(actor('cli'));
    const where = host.definitions.lockfile.location;
    for (const r of reviews) writeStdout(formatReview(r).join('\n') + '\n');
    const servers = snapshot.servers.filter((s) => s.connected);
    const tools = servers.reduce((n, s) => n + s.toolCount, 0);
    writeStdout(
      reviews.length
        ? `Wrote ${where}: approved the changes above (${servers.length} server${servers.length === 1 ? '' : 's'}, ${tools} tools listed now). Review and commit it.\n`
        : `${where} is up to date (${servers.length} server${servers.length === 1 ? '' : 's'}, ${tools} tools).\n`,
    );
    for (const s of failed) writeStderr(`mcp-host: server "${s.name}" is ${s.failure ?? s.description}: its entry was left as it was\n`);
    return failed.length ? ExitCode.failure : ExitCode.ok;
  } finally {
    await lifecycle.closeHost();
  }
}
