import type { Confirmer } from '../core/calls/confirmer';
import type { ToolCallResult } from '../core/calls/toolRouter';
import type { McpHost } from '../core/host/mcpHost';
import { keepStringParts } from '../core/mcp/flatHead';
import { refusingSampler } from '../core/requests/sampler';
import type { ServerRequestPorts } from '../core/requests/serverRequests';
import { CliBrowser } from './cliBrowser';
import { createHost, noAnswers, flagOptions } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { reportCall } from './callOutcome';
import { callView } from './jsonViews';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { verboseHint } from './nextCommand';
import { loginCommand, LoginWhenNeeded } from './loginWhenNeeded';
import { printJson, writeStderr, writeStdout } from './output';
import type { CallOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { TerminalConfirmer } from './terminalConfirmer';
import { consentPromptFor } from './terminalConsentPrompt';
import { TerminalPrompter } from './terminalPrompter';

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

/** A server's questions are asked on a terminal; sampling needs a session driver (the CLI has no model). */
function chooseServerRequests(tell: (line: string) => void): ServerRequestPorts {
  if (!canAskOnTerminal()) return noAnswers(tell, 'there is no terminal to ask on');
  return { elicitation: new TerminalPrompter(), sampler: refusingSampler('the CLI has no language model (sampling needs a driver in "mcp-host session")', tell) };
}

/** The server of a call refused until someone signs in (the router names it; a server that waits for sign-in offers no tool, so it is found by name). */
function serverNeedingSignIn(host: McpHost, result: ToolCallResult, name: string): string | undefined {
  if (result.outcome !== 'error' && result.outcome !== 'notFound') return undefined;
  const server = result.server ?? host.snapshot().servers.find((s) => s.needsSignIn && name.startsWith(`${s.name}__`))?.name;
  return server !== undefined && host.auth.pending(server) ? server : undefined;
}

/**
 * `mcp-host call NAME`: start the role's servers, make one call through the host's router and
 * print what a model would be given (or the full result with --json). With --login the servers
 * that need it are signed in first, and a call refused for sign-in (or for a wider scope) is made
 * again after one sign-in (at most one sign-in and one step-up per server).
 */
export async function runCall(o: CallOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  // --json writes the result's long texts from the parts they were read in, never one flat copy (jsonStream).
  if (o.json) keepStringParts();
  const logger = createStderrLogger(o.verbose);
  const browser = o.login ? new CliBrowser(process.env, writeStderr) : undefined;
  const host = lifecycle.track(
    createHost(workspace, {
      ...flagOptions(o, lifecycle),
      yes: o.yes,
      confirmer: chooseConfirmer(o.yes),
      serverRequests: chooseServerRequests((line) => logger.warn(line)),
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger,
      browser,
      verbose: o.verbose,
    }),
  );
  const abort = new AbortController();
  let call: Promise<unknown> = Promise.resolve();
  // Ctrl-C cancels the call (the server is told, the audit records "cancelled") before the servers stop.
  lifecycle.onSignal(() => {
    abort.abort();
    return call;
  });
  try {
    // Only the server the name can only mean, when that is knowable without the other servers' tools.
    await host.start(o.name);
    const login = o.login ? new LoginWhenNeeded(host, writeStderr, abort.signal) : undefined;
    await login?.signInWaiting();
    printProblems(host.snapshot().problems);
    const once = () => (call = host.call({ name: o.name, args: o.args, signal: abort.signal })) as Promise<ToolCallResult>;
    let result = await once();
    for (let server = serverNeedingSignIn(host, result, o.name); server && login && (await login.signIn(server)); server = serverNeedingSignIn(host, result, o.name)) {
      result = await once();
    }
    const waiting = serverNeedingSignIn(host, result, o.name);
    const report = reportCall(result, host.snapshot(), { workspace: o.workspace, role: o.role });
    if (o.json) {
      await printJson(callView(result, host.snapshot()));
    } else {
      // The server's answer goes to stdout; when the host answered instead (not found, refused…), the person gets words on stderr.
      if (result.outcome === 'ok' || result.outcome === 'isError') writeStdout(result.modelText.endsWith('\n') ? result.modelText : result.modelText + '\n');
      if (waiting !== undefined && !o.login) {
        writeStderr(`mcp-host: server "${waiting}" needs sign-in: run "${loginCommand(waiting, o.workspace)}", or add --login\n`);
      } else {
        for (const line of report.lines) writeStderr(line + '\n');
      }
      const hint = verboseHint(host.snapshot(), o.verbose);
      if (hint) writeStderr(hint + '\n');
    }
    return report.exitCode;
  } finally {
    await browser?.settle();
    await lifecycle.closeHost();
  }
}
