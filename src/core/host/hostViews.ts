import type { Tool } from '@modelcontextprotocol/client';
import type { ToolUi } from '../apps/toolUi';
import type { ConsentState } from '../consent/serverConsent';
import type { ConnectionState, ServerInfo } from '../mcp/connectionState';
import type { ServerConnection, ToolDefinitionProblem } from '../mcp/serverConnection';
import type { TransportKind } from '../mcp/serverTransport';
import type { Quarantine } from '../pinning/pinningPolicy';
import type { ConfirmationRule } from '../policy/confirmationPolicy';
import type { ServerSettings } from '../settings/hostSettings';
import type { NamingProblem } from '../tools/assignToolNames';
import type { ToolsChangedEvent } from '../tools/toolRegistry';
import { catalogFacts, type CatalogFacts } from './catalogViews';

/* The shapes the host's read model (HostSnapshot) hands to every view, and what it keeps of a connection. */

/** One configured server as every view shows it. */
export interface ServerView {
  readonly name: string;
  readonly settings: ServerSettings;
  /** For rendering (icon, label per state); decisions use the flags below. */
  readonly state: ConnectionState;
  /** One line: "connected to x 1.0 (protocol …)", "error: …". */
  readonly description: string;
  /** The active role starts this server (it is enabled and among the role's servers). */
  readonly usedByRole: boolean;
  /** Up or on its way up: Stop applies. */
  readonly running: boolean;
  readonly connected: boolean;
  /** Starting or restarting: its state will change without anyone acting. */
  readonly settling: boolean;
  /** Start applies: not running, not disabled, not held back by trust (the host still refuses while untrusted). */
  readonly canStart: boolean;
  /** What initialize told us, while connected. */
  readonly info?: ServerInfo;
  /** The error of a failed server. */
  readonly failure?: string;
  /** Waits for a person to sign in (Sign In applies); `issuer` is the authorization server it names. */
  readonly needsSignIn: boolean;
  readonly issuer?: string;
  /** Why it is being restarted, while it is. */
  readonly restartReason?: string;
  /** Tools the server lists (while it holds tools: connected or restarting). */
  readonly toolCount: number;
  /** Of those, the tools the active role's model is offered. */
  readonly visibleToolCount: number;
  readonly pid?: number;
  /** How the connection is carried, after any fallback (Streamable HTTP or SSE). */
  readonly transport?: TransportKind;
  /** The MCP session id of a Streamable HTTP connection. */
  readonly sessionId?: string;
  /** Tool-list changes, newest first. */
  readonly history: readonly ToolsChangedEvent[];
  /** Waiting for a person to allow its start, or refused at its last start. */
  readonly consent?: ConsentState;
  /** Of its listed tools, those quarantined (not offered to any role) until a review. */
  readonly quarantinedCount: number;
  /** Its tools differ from the lockfile (new, changed or removed): Review Tool Changes applies. */
  readonly pendingReview: boolean;
}

/** One tool a server lists, with what the host made of it. */
export interface ToolView {
  readonly server: string;
  readonly tool: Tool;
  /** The name a model sees; undefined when the tool is not loaded (see `problem`). */
  readonly exposedName?: string;
  /** The active role may see and call it. */
  readonly visible: boolean;
  readonly rule: ConfirmationRule;
  /** Argument rules name this tool: depending on a call's arguments it may be denied or ask. */
  readonly argumentRules?: boolean;
  readonly definitionHash?: string;
  /** Why it is not loaded under a name of its own. */
  readonly problem?: NamingProblem;
  /** Why it is not offered to any role: its definition is not the reviewed one (mcpHost.pinning). */
  readonly quarantine?: Quarantine;
  /** MCP Apps: the tool's view (`_meta.ui.resourceUri`), which the editor can show with its result. */
  readonly ui?: ToolUi;
  /** MCP Apps: only a view may call it (its visibility lacks "model"); never offered to a model. */
  readonly appOnly?: true;
}

/** What the snapshot keeps of one connection: values of the moment, never the live object. */
export interface ConnectionFacts {
  readonly name: string;
  readonly settings: ServerSettings;
  readonly state: ConnectionState;
  readonly tools: readonly Tool[];
  readonly pid?: number;
  readonly transportKind?: TransportKind;
  readonly sessionId?: string;
  readonly history: readonly ToolsChangedEvent[];
  /** Tools of the last discovery that were dropped or loaded without a malformed part. */
  readonly toolProblems?: readonly ToolDefinitionProblem[];
  /** Resources, templates and prompts. */
  readonly catalog?: CatalogFacts;
}

export function connectionFacts(c: ServerConnection, history: readonly ToolsChangedEvent[]): ConnectionFacts {
  return {
    name: c.name,
    settings: c.settings,
    state: c.state,
    tools: c.tools,
    pid: c.pid,
    transportKind: c.transportKind,
    sessionId: c.sessionId,
    history: [...history],
    toolProblems: c.toolProblems,
    catalog: catalogFacts(c),
  };
}
