import { COMMAND_TABLE } from './commandTable';
import { parseCommandLine } from './parseCommandLine';
import type { ConfigTarget } from './serveConfig';

/** The commands of `mcp-host`. */
export const COMMANDS = Object.keys(COMMAND_TABLE) as CommandName[];
export type CommandName = keyof typeof COMMAND_TABLE;

/** Options every command takes. */
export interface CommonOptions {
  /** `--workspace DIR`; undefined = the current directory. */
  readonly workspace?: string;
  /** `--role NAME`; undefined = `mcpHost.activeRole`, '' = no role (all servers, all tools). */
  readonly role?: string;
  readonly verbose: boolean;
}

/** `--login`: sign in (browser) to servers that need it, instead of only reporting them. */
export interface LoginFlag {
  readonly login: boolean;
}

/** `--allow-servers`: servers not allowed yet start for this run (audited, not kept); calls that ask are still asked. */
export interface AllowServersFlag {
  readonly allowServers: boolean;
}

export interface CheckOptions extends CommonOptions, LoginFlag, AllowServersFlag {
  readonly json: boolean;
  /** Servers not allowed yet start without asking. */
  readonly yes: boolean;
  /** Fail on any difference from the lockfile, with a readable diff (CI). */
  readonly locked: boolean;
}

export interface LockOptions extends CommonOptions, AllowServersFlag {
  readonly yes: boolean;
}

export interface AuditVerifyOptions {
  readonly workspace?: string;
  readonly json: boolean;
  /** `--allow-unanchored`: a file without a head file (and no later file) is not a failure. */
  readonly allowUnanchored: boolean;
  /** Audit files, oldest first; none: the workspace's audit file and its rotated files. */
  readonly files: readonly string[];
}

export interface AuditExportOptions {
  readonly workspace?: string;
  readonly since?: Date;
  readonly server?: string;
  readonly kind?: string;
  readonly outcome?: string;
  readonly format: 'jsonl' | 'csv';
  readonly files: readonly string[];
}

export interface CallOptions extends CommonOptions, LoginFlag, AllowServersFlag {
  /** The exposed tool name. */
  readonly name: string;
  /** Parsed `--args` (always a JSON object); {} without --args. */
  readonly args: Record<string, unknown>;
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
  readonly json: boolean;
}

export interface SessionOptions extends CommonOptions, LoginFlag, AllowServersFlag {
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
}

/** `serve`: the host as an MCP server (the gateway) for another agent. */
export interface ServeOptions extends CommonOptions, AllowServersFlag {
  /** `--stdio` (the default) or `--http`. */
  readonly stdio: boolean;
  readonly http: boolean;
  /** `--port N` with --http; default: a random free port. */
  readonly port?: number;
  /** `--token-file PATH`: where the token is written (0600) instead of printing it. */
  readonly tokenFile?: string;
  /** `--print-config TARGET`: print the agent's configuration entry and exit. */
  readonly printConfig?: ConfigTarget;
  readonly audit?: string;
  readonly timeoutMs?: number;
}

/** `allow [NAME…]`: record consent for servers to start, without starting them. */
export interface AllowOptions {
  readonly workspace?: string;
  readonly verbose: boolean;
  /** Keys of mcpHost.servers; none: every enabled server. */
  readonly servers: readonly string[];
  readonly audit?: string;
}

/** `login NAME` / `logout NAME`. */
export interface AuthOptions {
  readonly workspace?: string;
  readonly verbose: boolean;
  /** The server's name (key of mcpHost.servers). */
  readonly server: string;
  readonly audit?: string;
}

export type ParsedCommand =
  | { readonly command: 'help'; readonly topic?: CommandName }
  | { readonly command: 'version' }
  | { readonly command: 'check'; readonly options: CheckOptions }
  | { readonly command: 'call'; readonly options: CallOptions }
  | { readonly command: 'session'; readonly options: SessionOptions }
  | { readonly command: 'serve'; readonly options: ServeOptions }
  | { readonly command: 'login' | 'logout'; readonly options: AuthOptions }
  | { readonly command: 'lock'; readonly options: LockOptions }
  | { readonly command: 'allow'; readonly options: AllowOptions }
  | { readonly command: 'audit verify'; readonly options: AuditVerifyOptions }
  | { readonly command: 'audit export'; readonly options: AuditExportOptions };

/**
 * Parse `argv` (without node and the script) as {@link COMMAND_TABLE} says. Throws
 * {@link UsageError} for anything that is not a valid invocation. `--help`/`-h` anywhere before
 * `--` wins over every other problem.
 */
export function parseArgs(argv: readonly string[]): ParsedCommand {
  // The table gives each command exactly the fields of its options type above.
  return parseCommandLine(argv, COMMAND_TABLE) as ParsedCommand;
}
