/**
 * The settings contract (`mcpHost.*`), after validation. Both the CLI (reading
 * `.vscode/settings.json`) and the extension (reading `workspace.getConfiguration`) produce this.
 * String values may still hold `${workspaceFolder}`, `${env:NAME}` and `${secret:NAME}`:
 * they are resolved per server right before it starts (see resolveServerSettings.ts).
 */

export type ToolNamingMode = 'prefix' | 'reject';

interface ServerCommon {
  /** The key under `mcpHost.servers`. */
  readonly name: string;
  readonly enabled: boolean;
  /** Per-call timeout; overrides `mcpHost.timeoutMs`. */
  readonly timeoutMs?: number;
  readonly connectTimeoutMs: number;
  /** Largest single message this server may send; overrides `mcpHost.maxMessageBytes`. */
  readonly maxMessageBytes?: number;
}

export interface StdioServerSettings extends ServerCommon {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface RemoteServerSettings extends ServerCommon {
  /** `http`: Streamable HTTP with SSE fallback on a 4xx; `sse`: SSE only. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type ServerSettings = StdioServerSettings | RemoteServerSettings;

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
}

export interface SettingsProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Exact setting path, e.g. `mcpHost.servers.orders.args[1]`. */
  readonly setting?: string;
  /** The server this problem belongs to, if any. */
  readonly server?: string;
}

export const DEFAULTS = {
  timeoutMs: 20_000,
  connectTimeoutMs: 15_000,
  maxToolRounds: 10,
  maxResultChars: 50_000,
  maxMessageBytes: 64 * 1024 * 1024,
  toolNames: 'prefix' as ToolNamingMode,
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
  };
}
