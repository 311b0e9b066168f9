import { runAllow } from './allowCommand';
import { runAuditExport, runAuditVerify } from './auditCommands';
import { runCall } from './callCommand';
import { runCheck } from './checkCommand';
import { CliError, ExitCode, UsageError } from './exitCodes';
import { helpText } from './helpText';
import { usageHint } from './usage';
import { runLogin, runLogout } from './loginCommand';
import { exitProcess, Lifecycle } from './lifecycle';
import { writeStderr, writeStdout } from './output';
import { COMMANDS, parseArgs, type CommandName } from './parseArgs';
import { runLock } from './lockCommand';
import { runServe } from './serveCommand';
import { runSession } from './sessionCommand';
import { CLI_VERSION } from './version';

/** `mcp-host`: parse the arguments, run one command, return its exit code. Never throws. */
export async function main(argv: readonly string[], lifecycle: Lifecycle): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    switch (parsed.command) {
      case 'help':
        writeStdout(helpText(parsed.topic) + '\n');
        return ExitCode.ok;
      case 'version':
        writeStdout(`${CLI_VERSION}\n`);
        return ExitCode.ok;
      case 'check':
        return await runCheck(parsed.options, lifecycle);
      case 'call':
        return await runCall(parsed.options, lifecycle);
      case 'session':
        return await runSession(parsed.options, lifecycle);
      case 'serve':
        return await runServe(parsed.options, lifecycle);
      case 'login':
        return await runLogin(parsed.options, lifecycle);
      case 'logout':
        return await runLogout(parsed.options, lifecycle);
      case 'lock':
        return await runLock(parsed.options, lifecycle);
      case 'allow':
        return await runAllow(parsed.options, lifecycle);
      case 'audit verify':
        return await runAuditVerify(parsed.options);
      case 'audit export':
        return runAuditExport(parsed.options);
    }
  } catch (e) {
    return reportError(e);
  }
}

function reportError(e: unknown): number {
  if (e instanceof UsageError) {
    const command = (COMMANDS as readonly string[]).includes(e.command ?? '') ? (e.command as CommandName) : undefined;
    writeStderr(`mcp-host: ${e.message}\n${usageHint(command)}\n`);
    return e.exitCode;
  }
  if (e instanceof CliError) {
    writeStderr(`mcp-host: ${e.message}\n`);
    return e.exitCode;
  }
  writeStderr(`mcp-host: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return ExitCode.failure;
}

function start(): void {
  const lifecycle = new Lifecycle();
  lifecycle.installSignalHandlers();
  // A reader that went away (`mcp-host check --json | head`) is not an error of ours.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
  process.on('uncaughtException', (e) => {
    writeStderr(`mcp-host: internal error: ${e.stack ?? e.message}\n`);
    void lifecycle.closeHost().finally(() => exitProcess(ExitCode.failure));
  });
  void main(process.argv.slice(2), lifecycle).then((code) => {
    // A signal that arrived meanwhile decides the exit code; its handler exits once the servers are stopped.
    if (lifecycle.signal) return;
    void lifecycle.closeHost().finally(() => exitProcess(code));
  });
}

start();
