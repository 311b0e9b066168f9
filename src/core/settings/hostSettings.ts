import type { OAuthSettings } from './oauthSettings';

/**
 * The settings contract (`mcpHost.*`), after validation. Both the CLI (reading
 * `.vscode/settings.json`) and the extension (reading `workspace.getConfiguration`) produce this.
 * String values may still hold `${workspaceFolder}`, `${env:NAME}` and `${secret:NAME}`:
 * they are resolved per server right before it starts (see resolveServerSettings.ts).
 */

import type { SamplingSettings, ServerRequestSettings } from './serverRequestSettings';

export type ToolNamingMode = 'prefix' | 'reject';

/** `off`: definitions are not pinned. `review`: new or changed tools wait for a person. `locked`: the lockfile is read-only. */
export type PinningMode = 'off' | 'review' | 'locked';

/** A server's `protocol`: which MCP revision the host speaks to it (`auto` detects the era per server). */
export type ProtocolSetting = 'auto' | '2025-11-25' | '2026-07-28';

interface ServerCommon {
  /** The key under `mcpHost.servers`. */
  readonly name: string;
  readonly enabled: boolean;
  /** Per-call timeout; overrides `mcpHost.timeoutMs`. */
  readonly timeoutMs?: number;
  readonly connectTimeoutMs: number;
  /** Largest single message this server may send; overrides `mcpHost.maxMessageBytes`. */
  readonly maxMessageBytes?: number;
  /** A progress notification restarts the call's timeout (default true), up to `maxTotalTimeoutMs`. */
  readonly resetTimeoutOnProgress?: boolean;
  /** Longest a call may run however much progress it reports (default 10 minutes). */
  readonly maxTotalTimeoutMs?: number;
  /**
   * The folders offered as roots: absolute after variable resolution. `false`: roots are not
   * declared to this server; undefined: the workspace folders.
   */
  readonly roots?: readonly string[] | false;
  /** The MCP revision spoken to it; default `auto` (the era detected per server, the verdict cached). */
  readonly protocol?: ProtocolSetting;
  /** The file this server was imported from (`.vscode/mcp.json`, `.mcp.json`, …); unset for `mcpHost.servers`. */
  readonly source?: string;
}

export interface StdioServerSettings extends ServerCommon {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** A dotenv file read right before the process starts; `env` wins over it. */
  readonly envFile?: string;
}

export interface RemoteServerSettings extends ServerCommon {
  /** `http`: Streamable HTTP with SSE fallback on a 4xx; `sse`: SSE only. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** OAuth sign-in (issue 11); absent: sign in with dynamic registration when the server asks. */
  readonly oauth?: OAuthSettings;
}

export type ServerSettings = StdioServerSettings | RemoteServerSettings;

export type RuleAction = 'allow' | 'confirm' | 'deny';

/** One entry of `mcpHost.rules` or of a role's `rules`: a CEL condition over a call's arguments. */
export interface RuleSettings {
  /** `server/tool` globs the rule applies to. */
  readonly tools: readonly string[];
  /** CEL condition; undefined = every call of those tools. */
  readonly when?: string;
  readonly action: RuleAction;
  readonly reason: string;
  /** Where it was written, e.g. `mcpHost.roles.ops.rules[0]`: how messages and the audit name it. */
  readonly setting: string;
  /**
   * Why the entry is invalid (bad shape, glob or condition), reported as a settings problem. A
   * broken rule still applies, never looser than written: `deny` stays deny, anything else asks,
   * for the tools it names (every tool when its `tools` are unusable).
   */
  readonly broken?: string;
}

/** How many tool definitions a request may carry. */
export interface ToolBudgetSettings {
  /** Default 128 (VS Code refuses requests with more tools). */
  readonly maxTools: number;
  /** Tokens of the definitions; undefined = no limit. */
  readonly maxToolTokens?: number;
}

export interface RoleSettings {
  readonly name: string;
  readonly description?: string;
  /** Servers this role uses; undefined = every enabled server. */
  readonly servers?: readonly string[];
  /** Globs over `server/tool`; default `["*\/*"]`. */
  readonly tools: readonly string[];
  readonly exclude: readonly string[];
  readonly autoApprove: readonly string[];
  readonly confirm: readonly string[];
  /** Argument rules of this role, after `mcpHost.rules`. */
  readonly rules?: readonly RuleSettings[];
  /** Overrides the global budget. */
  readonly maxTools?: number;
  /** 0 lifts a global limit. */
  readonly maxToolTokens?: number;
  /** Resources the role may list and read, as `server/uri` globs; undefined or [] = none. */
  readonly resources?: readonly string[];
  /** Prompts the role may list and use, as `server/prompt` globs; undefined or [] = none. */
  readonly prompts?: readonly string[];
}

export interface HostSettings {
  /** In the order of the keys of `mcpHost.servers`: that order decides naming conflicts. */
  readonly servers: readonly ServerSettings[];
  readonly roles: readonly RoleSettings[];
  /** Undefined or empty = no role: all enabled servers, all tools. */
  readonly activeRole?: string;
  readonly autoApprove: readonly string[];
  readonly confirm: readonly string[];
  readonly toolNames: ToolNamingMode;
  readonly timeoutMs: number;
  readonly maxToolRounds: number;
  readonly maxResultChars: number;
  /** Largest single message a server may send (bytes); a larger one fails that request only. */
  readonly maxMessageBytes: number;
  readonly auditPath?: string;
  /** The audit file is rotated when it would grow past this size. */
  readonly auditMaxBytes: number;
  /** How tool definitions are pinned to the workspace's lockfile. */
  readonly pinning: PinningMode;
  /** `mcpHost.rules`: argument rules of every role. */
  readonly rules?: readonly RuleSettings[];
  /** `mcpHost.maxTools` / `mcpHost.maxToolTokens`: the budget of roles that set none, and of no role. */
  readonly toolBudget?: ToolBudgetSettings;
  /** `mcpHost.elicitation`; unset: every server may ask (the user answers). */
  readonly elicitation?: ServerRequestSettings;
  /** `mcpHost.sampling`; unset: off. */
  readonly sampling?: SamplingSettings;
  /** OpenTelemetry export of the audit stream; unset = off. */
  readonly telemetry?: TelemetrySettings;
}

export interface TelemetrySettings {
  /** OTLP/HTTP base URL (`/v1/traces` is added unless the URL already ends with it). May use `${env:}` / `${secret:}`. */
  readonly otlpEndpoint: string;
  /** HTTP headers for the collector; values may use `${env:NAME}` and `${secret:NAME}`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Tool arguments and results go into spans only when true (redacted like the audit). */
  readonly captureContent: boolean;
}

export interface SettingsProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Exact setting path, e.g. `mcpHost.servers.orders.args[1]`. */
  readonly setting?: string;
  /** The server this problem belongs to, if any. */
  readonly server?: string;
  /** Where in a file (an imported `.vscode/mcp.json`, `.mcp.json`, …) the problem is; 1-based. */
  readonly location?: { readonly file: string; readonly line: number; readonly column: number };
}

export const DEFAULTS = {
  timeoutMs: 20_000,
  connectTimeoutMs: 15_000,
  maxToolRounds: 10,
  maxResultChars: 50_000,
  maxMessageBytes: 64 * 1024 * 1024,
  toolNames: 'prefix' as ToolNamingMode,
  maxTools: 128,
  resetTimeoutOnProgress: true,
  maxTotalTimeoutMs: 600_000,
  /** `mcpHost.import`: the existing MCP configuration files read for servers. */
  importFiles: ['.vscode/mcp.json', '.mcp.json'] as readonly string[],
  auditMaxBytes: 10 * 1024 * 1024,
  pinning: 'review' as PinningMode,
} as const;

export function emptySettings(): HostSettings {
  return {
    servers: [],
    roles: [],
    autoApprove: [],
    confirm: [],
    toolNames: DEFAULTS.toolNames,
    timeoutMs: DEFAULTS.timeoutMs,
    maxToolRounds: DEFAULTS.maxToolRounds,
    maxResultChars: DEFAULTS.maxResultChars,
    maxMessageBytes: DEFAULTS.maxMessageBytes,
    auditMaxBytes: DEFAULTS.auditMaxBytes,
    pinning: DEFAULTS.pinning,
  };
}
