import type { Confirmer } from '../core/calls/confirmer';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode } from './exitCodes';
import { callView } from './jsonViews';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { printJson, writeStderr, writeStdout } from './output';
import type { CallOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { TerminalConfirmer } from './terminalConfirmer';
import { consentPromptFor } from './terminalConsentPrompt';

/** Asking needs a person at a terminal: stdin to read the answer, stderr to show the question. */
export function canAskOnTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

function chooseConfirmer(yes: boolean): Confirmer {
  // With --yes the router never asks (McpHost assumeYes); the confirmer is only a fallback.
  if (yes) return new DenyingConfirmer('--yes is given but the host asked anyway');
  if (canAskOnTerminal()) return new TerminalConfirmer();
  return new DenyingConfirmer('there is no terminal to ask on (stdin and stderr are not both terminals)');
}

/**
 * `mcp-host call NAME`: start the role's servers, make one call through the host's router and
 * print what a model would be given (or the full result with --json).
 */
export async function runCall(o: CallOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  const host = lifecycle.track(
    createHost(workspace, {
      role: o.role,
      audit: o.audit,
      timeoutMs: o.timeoutMs,
      yes: o.yes,
      confirmer: chooseConfirmer(o.yes),
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger: createStderrLogger(o.verbose),
    }),
  );
  try {
    // Only the server the name can only mean, when that is knowable without the other servers' tools.
    await host.start(o.name);
    printProblems(host.snapshot().problems);
    const abort = new AbortController();
    const call = host.call({ name: o.name, args: o.args, signal: abort.signal });
    // Ctrl-C cancels the call (the server is told, the audit records "cancelled") before the servers stop.
    lifecycle.onSignal(() => {
      abort.abort();
      return call;
    });
    const result = await call;
    if (o.json) {
      printJson(callView(result));
    } else {
      writeStdout(result.modelText.endsWith('\n') ? result.modelText : result.modelText + '\n');
      if (result.outcome !== 'ok') {
        const hint =
          result.outcome === 'notFound'
            ? `; run "mcp-host check${o.workspace ? ` --workspace ${o.workspace}` : ''}${o.role !== undefined ? ` --role ${o.role || '""'}` : ''}" to list the role's tools`
            : '';
        writeStderr(`mcp-host: outcome ${result.outcome}${hint}\n`);
      }
    }
    return result.outcome === 'ok' ? ExitCode.ok : ExitCode.failure;
  } finally {
    await lifecycle.closeHost();
  }
}
