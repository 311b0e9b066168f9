import type { CommandName } from './parseArgs';

/** One-line synopsis of each command, shown after a usage error. */
export const USAGE: Record<CommandName, string> = {
  check: 'mcp-host check [--workspace DIR] [--role NAME] [--json] [--verbose]',
  call: 'mcp-host call NAME [--args JSON] [--workspace DIR] [--role NAME] [--yes] [--audit FILE] [--timeout MS] [--json] [--verbose]',
  session: 'mcp-host session [--workspace DIR] [--role NAME] [--yes] [--audit FILE] [--timeout MS] [--verbose]',
};

const COMMON = `Common options:
  --workspace DIR   Workspace folder whose .vscode/settings.json holds the mcpHost.* settings
                    (default: the current directory). \${workspaceFolder} resolves to it.
  --role NAME       Role to use instead of mcpHost.activeRole. An unknown role is an error (exit 2).
                    --role "" means no role: every enabled server, every tool.
  --verbose         Also log server stderr and lifecycle messages to stderr (default: warnings and
                    errors only). stdout carries only the command's output.
  -h, --help        Show help.

Secrets: \${secret:NAME} in the settings reads the environment variable MCP_HOST_SECRET_NAME.
Trust: the CLI treats the workspace as trusted; running it is the decision to start its servers.
Audit: --audit FILE is relative to the current directory, mcpHost.audit.path to the workspace.
Settings problems are printed to stderr (and included in check --json).
SIGINT/SIGTERM stop every server (whole process groups) and exit with 130/143.`;

const GENERAL = `mcp-host — run the MCP Host of a VS Code workspace from the terminal

Usage:
  ${USAGE.check}
  ${USAGE.call}
  ${USAGE.session}
  mcp-host help [COMMAND] | --help | --version

Commands:
  check     Connect the role's servers, list their state and the tools the role sees, exit.
  call      Make one tool call through the host's router (role check, argument validation,
            confirmation, timeout, audit) and print what a model would be given.
  session   A long-lived host driven by JSON lines on stdin, answering on stdout.

${COMMON}

Exit codes: 0 success, 1 failure (see each command), 2 bad usage or unreadable settings,
130/143 interrupted by SIGINT/SIGTERM.`;

const CHECK = `Usage: ${USAGE.check}

Connects every server the role uses (mcpHost.activeRole unless --role is given), waits until each
has connected or failed, prints each configured server's state and the tools the role sees, then
stops the servers and exits.

Servers the role does not use, and servers with "enabled": false, are listed with state "disabled"
and a "reason"; they are not started. Settings problems and tool-naming problems (e.g. a duplicate
refused with mcpHost.toolNames "reject") are reported as problems.

  --json   Print one JSON document on stdout:
           { "role": string|null,
             "servers": [{ "name", "state": "connected"|"error"|"disabled", "error"?, "reason"?,
                           "protocolVersion"?, "serverInfo"?, "toolCount", "visibleToolCount" }],
             "tools": [{ "name", "server", "tool", "confirm": "ask"|"auto", "description",
                         "inputSchema", "annotations"? }],
             "problems": [{ "severity": "error"|"warning", "message", "setting"?, "server"? }] }
           toolCount is what the server lists; visibleToolCount what the role sees of it.

Exit: 0 when every started server connected and there is no error problem, 1 otherwise,
2 for bad usage, an unknown role or unreadable settings.

${COMMON}`;

const CALL = `Usage: ${USAGE.call}

Starts the role's servers, makes one call to the tool NAME (the exposed name, as listed by
"mcp-host check") through the same router as the chat participant, and prints the text a model
would be given.

  --args JSON     Arguments, a JSON object (default {}). Invalid JSON is bad usage (exit 2).
  --yes, -y       Calls that need confirmation run without asking; the audit records
                  confirmedBy "flag".
  --audit FILE    Append the audit record to FILE (JSON lines) instead of mcpHost.audit.path.
  --timeout MS    Per-call timeout in milliseconds for every server (overrides the settings).
  --json          Print { "name", "server", "tool", "outcome", "confirmedBy", "durationMs",
                  "content", "structuredContent"?, "modelText" }; content is the server's content
                  array as returned, modelText exactly the text a model would be given.

Confirmation: when stdin and stderr are both terminals, a call that needs confirmation asks y/N on
stderr, showing the tool, its server, the arguments and the server's annotations (labelled as the
server's own claims). Without a terminal such a call is denied unless --yes is given.

Outcomes: ok, isError, timeout, cancelled, denied, notFound, invalidArgs, error.
Exit: 0 for ok, 1 for any other outcome, 2 for bad usage.

${COMMON}`;

const SESSION = `Usage: ${USAGE.session}

A long-lived host. Each line on stdin is one JSON request; each request is answered by one JSON
line on stdout carrying the request's "id" (null when it has none). Requests run concurrently, so
answers may come out of order. Requests sent while the servers start are answered once they have
settled.

Requests:
  {"id":1,"op":"tools"}                        → {"id":1,"op":"tools","role","tools":[…as check…]}
  {"id":2,"op":"call","name":"x","args":{}}    → {"id":2,"op":"call","name","server","tool","outcome",
                                                  "confirmedBy","durationMs","content",
                                                  "structuredContent"?,"modelText"}
  {"id":3,"op":"servers"}                      → {"id":3,"op":"servers","role","servers":[…],"problems":[…]}
                                                  (state is the live state: starting, connected,
                                                  restarting, error, stopped, disabled, …; "pid" for
                                                  running stdio servers)
  {"id":4,"op":"refresh","server"?:"name"}     → re-read tools/list; answers like "tools"
  {"id":5,"op":"role","name":"ops"|null}       → switch role (null or "" = no role); answers like
                                                  "servers". An unknown role is an error answer.
Resources and prompts (only what the active role's "resources"/"prompts" globs allow; every read
and prompt use is audited; one the role may not make answers outcome "notAllowed"):
  {"id":6,"op":"resources"}                    → {"role","resources":[{server,uri,name,…}],"templates":[…]}
  {"id":7,"op":"read","server":"s","uri":"u","subscribe"?:true}
                                               → {"server","uri","outcome","durationMs","contents","error"?,
                                                  "subscribed"?}; then "resourceUpdated" events
  {"id":8,"op":"unsubscribe","server":"s","uri":"u"}
  {"id":9,"op":"prompts"}                      → {"role","prompts":[{server,name,description,arguments}]}
  {"id":10,"op":"prompt","server":"s","name":"p","args"?:{}}
                                               → {"server","name","outcome","messages","description"?,"error"?}
  {"id":11,"op":"complete","server":"s","prompt":"p"|"template":"uri/{x}",
   "argument":{"name","value"},"context"?:{}}  → {"server","values","total"?,"hasMore"?}
A role switch waits for the calls already in flight; requests after it see the new role.
A malformed line or a failing request is answered {"id":…|null,"error":"…"}; the session goes on.

Events, printed as they happen:
  {"event":"serverState","server","state","error"?,"reason"?,"toolCount"?}
  {"event":"toolsChanged","ts","server","added","removed","changed"}
      (server tool names; only tools the active role may see)
  {"event":"progress","request":<id of the call>,"name","progress"?,"total"?,"message"?,"taskStatus"?}
      (notifications/progress of a call, or the status of a tool run as a task)
  {"event":"resourceUpdated","server","uri"}   (a resource subscribed with "read" changed)

Confirmation: stdin is the protocol, so nothing is asked: a call that needs confirmation is
denied unless --yes is given (then it runs and is audited with confirmedBy "flag").
End of stdin waits for the calls in flight, stops every server and exits 0.

  --yes, -y       Allow calls that need confirmation (confirmedBy "flag").
  --audit FILE    Audit file (JSON lines) instead of mcpHost.audit.path.
  --timeout MS    Per-call timeout in milliseconds for every server.

${COMMON}`;

export function helpText(topic?: CommandName): string {
  switch (topic) {
    case 'check':
      return CHECK;
    case 'call':
      return CALL;
    case 'session':
      return SESSION;
    default:
      return GENERAL;
  }
}

/** What follows a usage error on stderr. */
export function usageHint(command?: CommandName): string {
  if (command) return `usage: ${USAGE[command]}\nRun "mcp-host ${command} --help" for details.`;
  return `usage: mcp-host <check|call|session> [options]\nRun "mcp-host --help" for details.`;
}
