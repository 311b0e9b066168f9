import * as fs from 'node:fs';
import * as path from 'node:path';
import { newGatewayToken } from '../core/gateway/bearerToken';
import { loadGatewayServer } from '../core/gateway/loadGatewayServer';
import { folderRoots } from '../core/requests/rootsSource';
import { createHost, noAnswers, flagOptions } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { CliError, ExitCode } from './exitCodes';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { printJson, writeStderr, writeStdout } from './output';
import type { ServeOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { serveConfig } from './serveConfig';
import { createStderrLogger } from './stderrLogger';
import { consentPromptFor, noTerminalConsent } from './terminalConsentPrompt';
import { canAskOnTerminal } from './callCommand';

/**
 * `mcp-host serve`: the host as an MCP server for another agent (Claude Code, VS Code's agent,
 * Copilot CLI, any MCP client), offering the role's view; every call goes through the router and
 * the audit with the agent as actor, and a call that needs confirmation asks the agent's user
 * through elicitation. stdio (the default; an agent starts it) or Streamable HTTP on 127.0.0.1
 * behind a token made for this start. Runs until stdin ends (stdio) or SIGINT/SIGTERM (HTTP).
 */
export async function runServe(o: ServeOptions, lifecycle: Lifecycle): Promise<number> {
  if (o.printConfig) {
    const workspace = loadWorkspace(o.workspace, o.role);
    const config = serveConfig(o.printConfig, { role: o.role, workspace: workspace.dir });
    printJson(config.json);
    writeStderr(`mcp-host: put this entry in ${config.where}, in place of the servers MCP Host now runs for you.\n`);
    return ExitCode.ok;
  }
  if (o.http && o.stdio) throw new CliError('--stdio and --http exclude each other', ExitCode.usage, true);
  if (o.port !== undefined && !o.http) throw new CliError('--port needs --http', ExitCode.usage, true);
  if (o.tokenFile !== undefined && !o.http) throw new CliError('--token-file needs --http', ExitCode.usage, true);
  if (!o.http && process.stdin.isTTY) {
    throw new CliError('serve speaks MCP on stdin/stdout, which is a terminal here: let an agent start it (see "mcp-host serve --print-config claude-code"), or use --http', ExitCode.usage, true);
  }

  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  const logger = createStderrLogger(o.verbose);
  const { Gateway, UpstreamRelay } = loadGatewayServer();
  // The servers' requests go to the agent whose call they serve; the rest are declined with a warning,
  // and roots stay the workspace folder (narrowed to the agent's roots during its calls).
  const relay = new UpstreamRelay(noAnswers((line) => logger.warn(line), 'the agent cannot be asked for it'), logger);
  const host = lifecycle.track(
    createHost(workspace, {
      ...flagOptions(o, lifecycle),
      yes: false,
      // Calls through the gateway are confirmed by the agent's user (elicitation); nothing else calls.
      confirmer: new DenyingConfirmer('the gateway asks its client, not the terminal'),
      consent: o.http ? consentPromptFor(workspace.dir, canAskOnTerminal()) : noTerminalConsent('serve --stdio cannot ask (stdin is the protocol)'),
      serverRequests: relay.ports(folderRoots([workspace.dir])),
      logger,
      verbose: o.verbose,
    }),
  );
  const gateway = new Gateway(host, { confirmations: 'upstream', logger, relay });
  lifecycle.onClose(() => gateway.close());
  await host.start();
  printProblems(host.snapshot().problems);

  if (!o.http) {
    const served = gateway.serveStdio(process.stdin, process.stdout);
    lifecycle.onSignal(() => served.close());
    await served.closed;
    await gateway.close();
    return ExitCode.ok;
  }

  const token = newGatewayToken();
  const http = await gateway.listenHttp({ port: o.port, token }).catch((e: NodeJS.ErrnoException) => {
    throw new CliError(`cannot listen on 127.0.0.1${o.port ? `:${o.port}` : ''}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`, ExitCode.failure);
  });
  const role = host.snapshot().role;
  writeStdout(`MCP Host gateway: ${http.url}${role ? ` (role ${role})` : ''}\n`);
  if (o.tokenFile !== undefined) {
    const file = path.resolve(o.tokenFile);
    writeTokenFile(file, token);
    writeStdout(`token: in ${file} (readable only by you); send it as "Authorization: Bearer <token>"\n`);
  } else {
    writeStdout(`token: ${token}\nsend it as "Authorization: Bearer <token>"; a new token is made at every start\n`);
  }
  await new Promise<void>((resolve) => lifecycle.onSignal(() => resolve()));
  await gateway.close();
  return ExitCode.ok;
}

/** Writes the token to a file only the user can read (0600, also when the file existed). */
function writeTokenFile(file: string, token: string): void {
  try {
    fs.writeFileSync(file, token + '\n', { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  } catch (e) {
    throw new CliError(`cannot write the token to ${file}: ${(e as Error).message}`, ExitCode.failure);
  }
}
