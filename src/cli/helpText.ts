import { ALLOW_HELP } from './allowCommand';
import { AUDIT_EXPORT, AUDIT_VERIFY } from './auditHelp';
import type { CommandName } from './parseArgs';
import { USAGE } from './usage';

const SIGN_IN = `Sign-in (remote servers with OAuth): tokens live in MCP_HOST_CREDENTIALS_FILE, default
$XDG_CONFIG_HOME/mcp-host/credentials.json or ~/.config/mcp-host/credentials.json (mode 0600).
Every command sends the stored tokens and refreshes them. A server that still needs sign-in is
reported as "needsSignIn" with the command that signs in ("mcp-host login NAME").
  --login         Sign in by itself to servers that need it (at most one sign-in and one step-up
                  per server, and one more sign-in where a server moves to another authorization
                  server), opening the page with $BROWSER or printing its URL on stderr.`;

const COMMON = `Common options:
  --workspace DIR   Workspace folder whose .vscode/settings.json holds the mcpHost.* settings
                    (default: the current directory). \${workspaceFolder} resolves to it.
  --role NAME       Role to use instead of mcpHost.activeRole. An unknown role is an error (exit 2).
                    --role "" means no role: every enabled server, every tool.
  --verbose         Also log server stderr and lifecycle messages to stderr (default: warnings and
                    errors only). stdout carries only the command's output.
  -h, --help        Show help.

Secrets: \${secret:NAME} in the settings reads the environment variable MCP_HOST_SECRET_NAME.
Trust: the CLI treats the workspace as trusted, but each server needs your consent before it first
starts (and again when its command line, args, cwd or env names change): asked y/N on a terminal,
kept per workspace in consent.json of MCP_HOST_CONFIG_DIR (default ~/.config/mcp-host). Without a
terminal a server not allowed yet does not start: allow it with "mcp-host allow NAME" (kept), or for
one run with --allow-servers or --yes (check, call, session, lock; audited, not kept).
--yes answers every question of its run, servers and calls alike; --allow-servers only the servers'.
Nothing answers a deny rule (even one whose condition fails), a quarantined tool or a tool outside
the role.
Pinning: with mcpHost.pinning "review" (the default) or "locked", a tool whose definition differs from
mcp-host.lock.json is quarantined: offered to no role, and a call answers "quarantined".
Audit: --audit FILE is relative to the current directory, mcpHost.audit.path to the workspace.
Settings problems are printed to stderr (and included in check --json).
SIGINT/SIGTERM stop every server (whole process groups) and exit with 130/143.

${SIGN_IN}`;

const GENERAL = `mcp-host — run the MCP Host of a VS Code workspace from the terminal

Usage:
  ${USAGE.check}
  ${USAGE.call}
  ${USAGE.session}
  ${USAGE.serve}
  ${USAGE.login}
  ${USAGE.logout}
  ${USAGE.lock}
  ${USAGE.allow}
  ${USAGE['audit verify']}
  ${USAGE['audit export']}
  mcp-host help [COMMAND] | --help | --version

Commands:
  check     Connect the role's servers, list their state and the tools the role sees, exit.
  call      Make one tool call through the host's router (role check, argument validation,
            confirmation, timeout, audit) and print what a model would be given.
  session   A long-lived host driven by JSON lines on stdin, answering on stdout.
  serve     The host as an MCP server for another agent (Claude Code, VS Code, Copilot CLI):
            the role's tools, resources and prompts, every call through the router and audit.
  login     Sign in to a remote server (OAuth) in the browser and keep its tokens.
  logout    Forget a remote server's tokens and client registrations.
  lock      Write what the servers list now to mcp-host.lock.json (approve tool definitions).
  allow     Allow servers to start in this workspace without a terminal (consent, kept and audited).
  audit verify   Check the audit files' hash chain; name the first line altered, removed or inserted.
  audit export   Print audit records (filtered) as JSON lines or CSV.

${COMMON}

Exit codes: 0 success, 1 failure (see each command), 2 bad usage or unreadable settings,
3 a person must decide first (a server not allowed to start, quarantined tools, a lock nobody
confirmed): the message ends with the command that does it, 130/143 interrupted by SIGINT/SIGTERM.`;

const CHECK = `Usage: ${USAGE.check}

Connects every server the role uses (mcpHost.activeRole unless --role is given), waits until each
has connected or failed, prints each configured server's state and the tools the role sees, then
stops the servers and exits.

Servers the role does not use, and servers with "enabled": false, are listed with state "disabled"
and a "reason"; they are not started. Settings problems and tool-naming problems (e.g. a duplicate
refused with mcpHost.toolNames "reject") are reported as problems.

  --json   Print one JSON document on stdout:
           { "role": string|null,
             "servers": [{ "name", "state": "connected"|"needsSignIn"|"notAllowed"|"error"|"disabled",
                           "error"?, "reason"?, "issuer"?, "login"?, "allow"?,
                           "protocolVersion"?, "era"?, "serverInfo"?, "toolCount", "visibleToolCount" }],
             "tools": [{ "name", "server", "tool", "confirm": "ask"|"auto", "description",
                         "inputSchema", "annotations"? }],
             "problems": [{ "severity": "error"|"warning", "message", "setting"?, "server"? }],
             "next": [{ "reason", "command" }] }
           toolCount is what the server lists; visibleToolCount what the role sees of it.
           "next": what a person must decide first, with the command ("Next:" lines in text).

           A server that needs sign-in has "issuer" (its authorization server) and "login" (the
           command that signs in); one not allowed to start in this workspace ("notAllowed") has
           "allow" (the command that allows it: mcp-host allow NAME).
  --login  Sign in to the servers that need it first (see below).

Tools whose definition is not the reviewed one (mcpHost.pinning) are listed as quarantined with the
reason; JSON: "quarantined": [{ "server", "tool", "reason", "message" }].
MCP Apps: a tool whose result comes with a view is marked (column APP: view; JSON: "view": the ui://
URI); app-only tools (only a view of their server may call them, never a model) are listed apart;
JSON: "appOnly": [{ "server", "tool", "description" }].

  --locked   For CI: the lockfile is only read, and any difference between it and what the role's
             servers list (a new, changed or removed tool, a server without an entry, an entry of a
             server no longer configured, a server started differently) fails the check; the
             differences are printed as a diff. JSON: "lockfile": { "path", "exists", "error"?,
             "drift": [{ "server", "firstReview", "added", "changed", "removed", "identityChanges" }],
             "staleEntries", "inconsistentEntries" }.
  --yes, -y  Servers not allowed yet start without asking (audited as consent by the flag).
  --allow-servers  The same for check (it makes no calls).

Exit: 0 when every started server connected and there is no error problem (and, with --locked,
the lockfile matches) and nothing waits for a person; 1 when a server failed or needs sign-in, an
error problem, or (--locked) the lockfile differs; 3 ("NOT READY") otherwise when a server is not
allowed to start (run: mcp-host allow NAME) or tools are quarantined (run: mcp-host lock); 2 for bad
usage, an unknown role or unreadable settings. When a server fails to start, its error's own line
from stderr is shown; --verbose shows all of it.

${COMMON}`;

const CALL = `Usage: ${USAGE.call}

Starts the role's servers, makes one call to the tool NAME (the exposed name, as listed by
"mcp-host check") through the same router as the chat participant, and prints the text a model
would be given.

  --args JSON     Arguments, a JSON object (default {}). Invalid JSON is bad usage (exit 2).
  --yes, -y       Calls that need confirmation run without asking; the audit records
                  confirmedBy "flag". Servers not allowed yet start. Never overrides a deny.
  --allow-servers  Servers not allowed yet start for this run (audited, not kept); unlike --yes,
                   calls that need confirmation are still asked (denied without a terminal).
  --audit FILE    Append the audit record to FILE (JSON lines) instead of mcpHost.audit.path.
  --timeout MS    Per-call timeout in milliseconds for every server (overrides the settings).
  --json          Print { "name", "server", "tool", "outcome", "confirmedBy", "durationMs",
                  "content", "structuredContent"?, "modelText", "view"? }; content is the server's
                  content array as returned, modelText exactly the text a model would be given,
                  view the ui:// view (MCP App) that the editor shows with the result.
  --login         Sign in to servers that need it first; a call refused for sign-in or for a
                  wider scope (step-up) is made again once after signing in.

Confirmation: when stdin and stderr are both terminals, a call that needs confirmation asks y/N on
stderr, showing the tool, its server, the arguments and the server's annotations (labelled as the
server's own claims). Without a terminal such a call is denied unless --yes is given.

Servers that ask (mcpHost.elicitation): on a terminal the server's question is shown (which server,
its message, the call it belongs to) and each field is asked in turn (Enter keeps the default in
brackets); a URL is shown in full and opened with $BROWSER (or printed) only after a yes. Without a
terminal the question is declined. Sampling requests are refused: the CLI has no language model
(a driver of "mcp-host session" can answer them). Roots: the --workspace folder.

When the name can only mean one server's tool (mcpHost.toolNames "prefix", the name is
<server>__<tool> with valid parts and no other server's name starts it), only that server is
started and its tools are listed only up to that tool; otherwise every server of the role starts,
as in a session. Naming, role and pin checks answer the same either way.

Outcomes: ok, isError, timeout, cancelled, denied, notFound, invalidArgs, quarantined, error.
Without --json, stdout carries the tool's answer (ok, isError); when the host answered instead (the
tool is not the role's, quarantined, refused, …) stderr says why in words for a person, with the
command to run next; when the result comes with a view (an MCP App) the editor can show, stderr
says so. --json prints the model's text as it is.
Exit: 0 for ok; 3 when the tool is quarantined (run: mcp-host lock) or its server is not allowed to
start (run: mcp-host allow NAME); 1 for any other outcome; 2 for bad usage.

${COMMON}`;

const SESSION = `Usage: ${USAGE.session}

A long-lived host. Each line on stdin is one JSON request; each request is answered by one JSON
line on stdout carrying the request's "id" (null when it has none). Requests run concurrently, so
answers may come out of order. Requests sent while the servers start are answered once they have
settled.

Requests:
  {"id":1,"op":"tools","query"?:"…","all"?:true}
                                               → {"id":1,"op":"tools","role","tools":[…as check…],"budget"?}
                                                  as @mcp offers them: over the role's maxTools /
                                                  maxToolTokens, those found with search_tools, the
                                                  most relevant to the last "query", and search_tools
                                                  ("host":true); "budget": {"available","offered","tokens"?}.
  {"id":2,"op":"call","name":"x","args":{}}    → {"id":2,"op":"call","name","server","tool","outcome",
                                                  "confirmedBy","durationMs","content",
                                                  "structuredContent"?,"modelText"}
                                                  (search_tools: answered by the session, matches
                                                  in "found", offered from the next "tools" on)
  {"id":3,"op":"servers"}                      → {"id":3,"op":"servers","role","servers":[…],"problems":[…]}
                                                  (state is the live state: starting, connected,
                                                  restarting, error, stopped, disabled, …; "pid" for
                                                  running stdio servers)
  {"id":4,"op":"refresh","server"?:"name"}     → re-read tools/list; answers like "tools"
  {"id":5,"op":"role","name":"ops"|null}       → switch role (null or "" = no role); answers like
                                                  "servers". An unknown role is an error answer.
  {"id":6,"op":"elicitation","request":"elicitation-1","action":"accept"|"decline"|"cancel",
   "content"?:{…}}                             → answers the server's question (fields left out of
                                                  "content" get their defaults); content that does not
                                                  fit the form is an error answer and the question
                                                  stays open. → {"id":6,"op":"elicitation","request","action"}
  {"id":7,"op":"sampling","request":"sampling-1","action":"accept"|"decline"|"cancel",
   "text"?:"…","model"?:"…","stopReason"?:"…"} → answers a sampling request (accept needs "text")
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
  {"event":"elicitation","request","mode":"form","server","role","duringCall","message",
   "requestedSchema","content"}      a server asks (content: the form's defaults, SEP-1034)
  {"event":"elicitation","request","mode":"url","server","role","duringCall","message","url",
   "elicitationId"}                  a server asks to open a URL (https, or http to this machine)
  {"event":"sampling","request","server","role","duringCall","messages","systemPrompt"?,
   "maxTokens","model"?}             a server wants a model completion (only servers that
                                     mcpHost.sampling allows; no tool use)
  {"event":"requestClosed","request","reason"}   a question ended unanswered (withdrawn, input ended)
  {"event":"progress","request":<id of the call>,"name","progress"?,"total"?,"message"?,"taskStatus"?}
      (notifications/progress of a call, or the status of a tool run as a task)
  {"event":"resourceUpdated","server","uri"}   (a resource subscribed with "read" changed)

Confirmation: stdin is the protocol, so nothing is asked: a call that needs confirmation is
denied unless --yes is given (then it runs and is audited with confirmedBy "flag").
Questions of servers that mcpHost.elicitation / mcpHost.sampling refuse never become events.
End of stdin declines the open questions, waits for the calls in flight, stops every server, exits 0.

  --yes, -y       Allow calls that need confirmation (confirmedBy "flag") and servers not
                  allowed yet. Never overrides a deny.
  --allow-servers  Servers not allowed yet start for this run (audited, not kept); unlike --yes,
                   calls that need confirmation are still asked (denied without a terminal).
  --audit FILE    Audit file (JSON lines) instead of mcpHost.audit.path.
  --timeout MS    Per-call timeout in milliseconds for every server.
  --login         Sign in to servers that need it before answering; a later refusal (expired
                  sign-in, step-up) is signed in in the background. Events show the new state.

${COMMON}`;

const LOGIN = `Usage: ${USAGE.login}

Signs in to the remote server NAME (a key of mcpHost.servers) as the editor does: OAuth 2.1
authorization code with PKCE; the authorization server is discovered from the server (protected
resource metadata, authorization server metadata), the client registered dynamically unless
"oauth" names a clientId or a clientMetadataUrl. The sign-in page is opened with $BROWSER URL
when BROWSER is set (no shell), else its URL is printed on stderr; the browser comes back to a
listener on 127.0.0.1 (random port, exact state, closed after one use or 5 minutes). A server with
"grant": "client_credentials" needs no browser: a token is fetched directly.

The tokens and the client registration are kept in the credentials file (see below), keyed by
the server's URL and the authorization server; a token is only ever sent to the server it was
issued for. Then the server is started once to show that the sign-in works.
Audit: "auth" records (signInStarted, signInCompleted, signInFailed, signInCancelled) in
mcpHost.audit.path or --audit FILE, never with a token.

Exit: 0 signed in and connected, 1 the sign-in failed, was cancelled or the server still refuses,
2 bad usage (unknown server, a local server).

${COMMON}`;

const LOGOUT = `Usage: ${USAGE.logout}

Forgets what is stored for the remote server NAME in the credentials file: its tokens, client
registrations and discovery. Secrets in the settings (\${secret:NAME}) are not touched. The audit
gets a "signedOut" record. Exit 0 (also when nothing was stored), 2 for an unknown server.

${COMMON}`;

const LOCK = `Usage: ${USAGE.lock}

Starts every enabled server (or the role's, with --role), and writes what each lists now to
mcp-host.lock.json at the workspace root: each server's identity (command, args, cwd and env names,
or URL; secrets never written) and every tool's full definition with its hash. This is the
terminal's "approve": first it prints per server what it would approve (new tools with their
descriptions, changed tools as a diff, removed tools, entries dropped) and asks y/N on a terminal;
then it writes exactly that (if the servers' tools changed meanwhile, nothing is written). Commit
the lockfile and review it in the pull request. Entries of servers no longer configured are
dropped; a server that does not start keeps its entry. Every approval is an audit record.

  --yes, -y   Approve without asking (needed without a terminal), and servers not allowed yet
              start without asking.
  --allow-servers  Servers not allowed yet start without asking; approves nothing.

Exit: 0 when every server started and the lockfile is written or up to date, 1 when a server did
not start or the approval was declined, 3 when there is no terminal to ask and no --yes (nothing
is written; the message names the command).

${COMMON}`;


const SERVE = `Usage: ${USAGE.serve}

Serves the host as one MCP server to another agent, in place of the servers it runs: exactly what
the role offers (its tools under their exposed names with their reviewed definitions, quarantined
tools absent; its resources and prompts; search_tools when the role's budget is exceeded), and
list_changed when that changes. Every call goes through the router (role, argument validation,
pins, rules, timeout, audit with the agent's clientInfo as actor); the agent's cancellation reaches
the server, and progress comes back. A call that needs confirmation asks the agent's user through
elicitation; an agent that did not declare elicitation gets a denial that says so. Never run unasked.
A server's form question during an agent's call is asked of that agent (mcpHost.elicitation
applies); other questions and sampling requests are declined with a warning.
Both protocol eras are served: 2025-era clients (initialize) and the 2026-07-28 revision.

  --stdio             MCP on stdin/stdout (the default): an agent starts "mcp-host serve". stdin
                      must not be a terminal. Ends when stdin ends. Servers not allowed yet do not
                      start (nobody can be asked): "mcp-host allow" first, or --allow-servers.
  --http              Streamable HTTP on 127.0.0.1 only. Prints the URL and a token made for this
                      start; every request needs "Authorization: Bearer <token>" (401 otherwise).
                      Runs until SIGINT/SIGTERM.
  --port N            Port for --http (default: a random free port).
  --token-file PATH   Write the token to PATH (mode 0600) instead of printing it.
  --print-config claude-code|vscode|copilot-cli
                      Print the entry that starts "mcp-host serve --stdio" (with --role) for
                      .mcp.json (Claude Code; VS Code reads it too), .vscode/mcp.json or Copilot
                      CLI's ~/.copilot/mcp-config.json, and exit.
  --allow-servers, --audit FILE, --timeout MS: as for session.

${COMMON}`;

export function helpText(topic?: CommandName): string {
  switch (topic) {
    case 'serve':
      return SERVE;
    case 'check':
      return CHECK;
    case 'call':
      return CALL;
    case 'session':
      return SESSION;
    case 'login':
      return LOGIN;
    case 'logout':
      return LOGOUT;
    case 'lock':
      return LOCK;
    case 'allow':
      return `${ALLOW_HELP}\n\n${COMMON}`;
    case 'audit verify':
      return AUDIT_VERIFY;
    case 'audit export':
      return AUDIT_EXPORT;
    default:
      return GENERAL;
  }
}
