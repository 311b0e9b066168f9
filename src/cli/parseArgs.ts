import { COMMAND_TABLE } from './commandTable';
import { parseCommandLine } from './parseCommandLine';

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

export interface CheckOptions extends CommonOptions, LoginFlag {
  readonly json: boolean;
}

export interface CallOptions extends CommonOptions, LoginFlag {
  /** The exposed tool name. */
  readonly name: string;
  /** Parsed `--args` (always a JSON object); {} without --args. */
  readonly args: Record<string, unknown>;
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
  readonly json: boolean;
}

export interface SessionOptions extends CommonOptions, LoginFlag {
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
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
  | { readonly command: 'login' | 'logout'; readonly options: AuthOptions };

/**
 * Parse `argv` (without node and the script) as {@link COMMAND_TABLE} says. Throws
 * {@link UsageError} for anything that is not a valid invocation. `--help`/`-h` anywhere before
 * `--` wins over every other problem.
 */
export function parseArgs(argv: readonly string[]): ParsedCommand {
  // The table gives each command exactly the fields of its options type above.
  return parseCommandLine(argv, COMMAND_TABLE) as ParsedCommand;
}
