import type { ToolCallResult } from '../core/calls/toolRouter';
import type { HostSnapshot, ServerView } from '../core/host/hostSnapshot';
import { ExitCode } from './exitCodes';
import { resultView } from './jsonViews';
import { allowCommand, cliCommand, lockCommandFor, type RunContext } from './nextCommand';

/** What `mcp-host call` tells the person at the terminal about an outcome (the model's text stays in --json and sessions). */
export interface CallReport {
  /** Lines for stderr, each starting "mcp-host: ". */
  readonly lines: readonly string[];
  readonly exitCode: number;
}

/**
 * The outcome of a call in words for a person, with the command that resolves it where one does:
 * `mcp-host allow NAME` for a server not allowed to start, `mcp-host lock` for a quarantined tool
 * (both exit 3), `mcp-host check` to list the role's tools for a name the role does not offer.
 */
export function reportCall(result: ToolCallResult, snapshot: HostSnapshot, run: RunContext): CallReport {
  const report = reportOutcome(result, snapshot, run);
  const view = resultView(result, snapshot);
  if (!view) return report;
  const line = `mcp-host: this result has a view (an MCP App, ${view}) that the MCP Host extension shows in VS Code; here you see only its text.`;
  return { ...report, lines: [...report.lines, line] };
}

function reportOutcome(result: ToolCallResult, snapshot: HostSnapshot, run: RunContext): CallReport {
  const tool = `tool "${result.name}"`;
  const check = cliCommand(['check'], run);
  const failure = (line: string): CallReport => ({ lines: [`mcp-host: ${line}`], exitCode: ExitCode.failure });
  switch (result.outcome) {
    case 'ok':
      return { lines: [], exitCode: ExitCode.ok };
    case 'isError':
      return failure(`the tool answered with an error (its text is on stdout); outcome isError`);
    case 'quarantined': {
      const q = result.server !== undefined && result.tool !== undefined ? snapshot.quarantine(result.server, result.tool) : undefined;
      return {
        lines: [
          `mcp-host: ${tool} was not called: it is quarantined${q ? ` because ${q.message}` : ''}. No role is offered it until a person reviews and approves its definition.`,
          `mcp-host: to see the difference and approve it, run: ${lockCommandFor(run)}`,
        ],
        exitCode: ExitCode.needsDecision,
      };
    }
    case 'notFound':
      return notFound(result.name, snapshot, run, check);
    case 'denied':
      return failure(
        result.rule
          ? `${tool} was not called: the host's policy refused it (rule ${result.rule.setting}: ${result.rule.reason}${result.rule.error ? `; ${result.rule.error}` : ''})`
          : `${tool} was not called: the call was not confirmed`,
      );
    case 'invalidArgs': {
      const errors = result.modelText.split('\n').filter((l) => l.startsWith('- '));
      return {
        lines: [`mcp-host: ${tool} was not called: its arguments do not fit its input schema:`, ...errors.map((e) => `mcp-host:   ${e}`), `mcp-host: its input schema: ${check} --json`],
        exitCode: ExitCode.failure,
      };
    }
    case 'cancelled':
      return failure(`the call of ${tool} was cancelled`);
    case 'timeout':
      return failure(`${tool} did not answer in time and the server was told to cancel the call; allow more time with --timeout MS`);
    case 'error':
      return failure(result.modelText.replace(/^Tool /, 'tool '));
  }
}

function notFound(name: string, snapshot: HostSnapshot, run: RunContext, check: string): CallReport {
  const role = snapshot.role !== undefined ? `role "${snapshot.role}"` : 'no role';
  const listed = snapshot.servers.flatMap((s) => snapshot.tools(s.name)).find((t) => t.exposedName === name);
  const fail = (line: string, code: number = ExitCode.failure): CallReport => ({ lines: [`mcp-host: ${line}`], exitCode: code });
  if (listed && !listed.visible) return fail(`tool "${name}" of server "${listed.server}" is not offered to ${role}; run "${check}" to list the role's tools, or pick a role with --role NAME`);
  if (listed?.appOnly) return fail(`tool "${name}" of server "${listed.server}" is app-only: only a view (MCP App) of its server may call it, never a model or the command line`);
  const server = serverOf(name, snapshot);
  if (server && !server.usedByRole) {
    return fail(`tool "${name}" would be a tool of server "${server.name}", which ${role} does not use; run "${check}" to list the role's tools, or pick a role with --role NAME`);
  }
  if (server && server.consent !== undefined && !server.connected) {
    return {
      lines: [`mcp-host: server "${server.name}" is not allowed to start in this workspace, so its tools cannot be called`, `mcp-host: to allow it, run: ${allowCommand([server.name], run)}`],
      exitCode: ExitCode.needsDecision,
    };
  }
  if (server && server.failure !== undefined && !server.connected) return fail(`tool "${name}" cannot be called: server "${server.name}" failed to start (${server.failure})`);
  return fail(`${role} has no tool "${name}"; run "${check}" to list the role's tools`);
}

/** The server a `<server>__<tool>` name (prefix naming) points at: the longest configured name it starts with. */
function serverOf(name: string, snapshot: HostSnapshot): ServerView | undefined {
  return snapshot.servers.filter((s) => name.startsWith(`${s.name}__`)).sort((a, b) => b.name.length - a.name.length)[0];
}
