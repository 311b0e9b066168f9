import { actor } from '../core/audit/actor';
import type { McpHost } from '../core/host/mcpHost';
import type { DefinitionReview } from '../core/pinning/definitionReview';
import { canAskOnTerminal } from './callCommand';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { formatReview } from './formatDrift';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { cliCommand, verboseHint } from './nextCommand';
import { writeStderr, writeStdout } from './output';
import type { LockOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor } from './terminalConsentPrompt';
import { TerminalLines } from './terminalLines';

/**
 * `mcp-host lock`: start every enabled server (or the role's, with --role), show per server what
 * writing what it lists now to `mcp-host.lock.json` would approve (new, changed with a diff, removed
 * tools), ask on a terminal (or take --yes), then write it — the terminal's "approve". Without a
 * terminal and without --yes nothing is written (exit 3). A server that does not start keeps its entry.
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
  const abort = new AbortController();
  lifecycle.onSignal(() => abort.abort());
  try {
    await host.start();
    const snapshot = host.snapshot();
    const failed = snapshot.servers.filter((s) => s.usedByRole && !s.connected);
    const reportFailed = () => {
      for (const s of failed) writeStderr(`mcp-host: server "${s.name}" is ${s.failure ?? s.description}: its entry was left as it was\n`);
      const hint = verboseHint(snapshot, o.verbose);
      if (hint) writeStderr(hint + '\n');
      return failed.length ? ExitCode.failure : ExitCode.ok;
    };
    const where = host.definitions.lockfile.location;
    const shown = pendingReviews(host);
    const configured = workspace.settings.servers.map((s) => s.name);
    const stale = host.definitions.lockedServers().filter((s) => !configured.includes(s));
    for (const r of shown) writeStdout(formatReview(r, undefined, Number.POSITIVE_INFINITY).join('\n') + '\n');
    for (const s of stale) writeStdout(`server "${s}": its entry is dropped (not configured any more)\n`);
    const servers = snapshot.servers.filter((s) => s.connected);
    const counts = `${servers.length} server${servers.length === 1 ? '' : 's'}, ${servers.reduce((n, s) => n + s.toolCount, 0)} tools`;

    if (shown.length || stale.length) {
      const approved = o.yes || (await askApproval(where, abort.signal));
      if (approved === 'noTerminal') {
        writeStderr(
          `mcp-host: nothing was written: approving what is shown above needs a yes on a terminal (stdin and stderr are not both terminals); to approve it as shown, run: ${cliCommand(['lock', '--yes'], { workspace: o.workspace, role: o.role })}\n`,
        );
        return ExitCode.needsDecision;
      }
      if (!approved) {
        writeStderr(`mcp-host: nothing was written: ${where} is unchanged and the tools stay quarantined\n`);
        return ExitCode.failure;
      }
      // What is written must be what was shown: the servers' tools may have changed while the person read.
      const now = pendingReviews(host);
      if (now.map((r) => r.token).join() !== shown.map((r) => r.token).join()) {
        writeStderr(`mcp-host: nothing was written: the servers' tools changed while you were reviewing them; run "mcp-host lock" again\n`);
        return ExitCode.failure;
      }
    }
    const reviews = host.definitions.lockAll(actor('cli'));
    writeStdout(
      reviews.length || stale.length
        ? `Wrote ${where}: approved the changes above (${counts} listed now). Review and commit it.\n`
        : `${where} is up to date (${counts}).\n`,
    );
    return reportFailed();
  } finally {
    await lifecycle.closeHost();
  }
}

/** The review of every connected server that differs from the lockfile (what lockAll would approve). */
function pendingReviews(host: McpHost): DefinitionReview[] {
  return host
    .snapshot()
    .servers.filter((s) => s.connected)
    .map((s) => host.definitions.review(s.name))
    .filter((r): r is DefinitionReview => !!r);
}

/** y/N on the terminal; 'noTerminal' when nobody can be asked. */
async function askApproval(where: string, signal: AbortSignal): Promise<boolean | 'noTerminal'> {
  if (!canAskOnTerminal()) return 'noTerminal';
  const lines = new TerminalLines({ input: process.stdin, output: process.stderr }, signal);
  try {
    const answer = await lines.ask(`Approve these tool definitions and write them to ${where}? [y/N] `);
    return answer !== undefined && /^(y|yes)$/i.test(answer.trim());
  } finally {
    lines.close();
  }
}
