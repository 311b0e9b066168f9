import { knownList } from '../core/settings/describeValue';
import { canAskOnTerminal } from './callCommand';
import { CliBrowser } from './cliBrowser';
import { cliCredentialsFile, createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { CliError, ExitCode } from './exitCodes';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace, type Workspace } from './loadWorkspace';
import { writeStderr, writeStdout } from './output';
import type { AuthOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor, noTerminalConsent } from './terminalConsentPrompt';

function remoteServer(workspace: Workspace, name: string): void {
  const server = workspace.settings.servers.find((s) => s.name === name);
  if (!server) throw new CliError(`no server named "${name}" (${knownList('servers', new Set(workspace.settings.servers.map((s) => s.name)))})`, ExitCode.usage);
  if (server.type === 'stdio') throw new CliError(`server "${name}" is a local (stdio) server; only remote (http, sse) servers sign in`, ExitCode.usage);
}

/**
 * `mcp-host login NAME`: sign in to a remote server the way the editor does (authorization code +
 * PKCE, redirect to 127.0.0.1), the page opened with $BROWSER or printed; a client_credentials
 * server just fetches a token. The credentials go to the credentials file; then the server is
 * started once to show that they work.
 */
export async function runLogin(o: AuthOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, undefined);
  printProblems(workspace.problems);
  remoteServer(workspace, o.server);
  const browser = new CliBrowser(process.env, writeStderr);
  const host = lifecycle.track(
    createHost(workspace, {
      yes: false,
      audit: o.audit,
      confirmer: new DenyingConfirmer('login makes no calls'),
      // The server is started once after sign-in: like any start, it needs consent.
      consent: consentPromptFor(workspace.dir, canAskOnTerminal()),
      logger: createStderrLogger(o.verbose),
      browser,
    }),
  );
  const abort = new AbortController();
  lifecycle.onSignal(() => abort.abort());
  try {
    const result = await host.auth.signIn(o.server, { signal: abort.signal });
    if (result.kind !== 'signedIn') {
      writeStderr(`mcp-host: sign-in to "${o.server}" ${result.kind}: ${result.reason}\n`);
      return ExitCode.failure;
    }
    writeStdout(`Signed in to "${o.server}" with ${result.issuer}${result.scope ? ` (scope "${result.scope}")` : ''}.\n`);
    writeStdout(`Credentials: ${cliCredentialsFile()}\n`);
    await host.servers.startServer(o.server);
    const view = host.snapshot().server(o.server);
    writeStdout(`${o.server}: ${view?.description ?? 'unknown'}${view?.connected ? `, ${view.toolCount} tools` : ''}\n`);
    return view?.connected ? ExitCode.ok : ExitCode.failure;
  } finally {
    await browser.settle();
    await lifecycle.closeHost();
  }
}

/** `mcp-host logout NAME`: forget the server's tokens and client registrations in the credentials file. */
export async function runLogout(o: AuthOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, undefined);
  printProblems(workspace.problems);
  remoteServer(workspace, o.server);
  const host = lifecycle.track(
    createHost(workspace, {
      yes: false,
      audit: o.audit,
      confirmer: new DenyingConfirmer('logout makes no calls'),
      consent: noTerminalConsent('logout starts no server'),
      logger: createStderrLogger(o.verbose),
    }),
  );
  try {
    const had = await host.auth.signOut(o.server);
    writeStdout(
      had
        ? `Signed out of "${o.server}": its tokens and client registrations were removed from ${cliCredentialsFile()}.\n`
        : `Nothing was stored for "${o.server}" in ${cliCredentialsFile()}.\n`,
    );
    return ExitCode.ok;
  } finally {
    await lifecycle.closeHost();
  }
}
