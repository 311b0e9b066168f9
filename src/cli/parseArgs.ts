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

export interface CheckOptions extends CommonOptions {
  readonly json: boolean;
}

export interface CallOptions extends CommonOptions {
  /** The exposed tool name. */
  readonly name: string;
  /** Parsed `--args` (always a JSON object); {} without --args. */
  readonly args: Record<string, unknown>;
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
  readonly json: boolean;
}

export interface SessionOptions extends CommonOptions {
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
}

export type ParsedCommand =
  | { readonly command: 'help'; readonly topic?: CommandName }
  | { readonly command: 'version' }
  | { readonly command: 'check'; readonly options: CheckOptions }
  | { readonly command: 'call'; readonly options: CallOptions }
  | { readonly command: 'session'; readonly options: SessionOptions };

/**
 * Parse `argv` (without node and the script) as {@link COMMAND_TABLE} says. Throws
 * {@link UsageError} for anything that is not a valid invocation. `--help`/`-h` anywhere before
 * `--` wins over every other problem.
 */
export function parseArgs(argv: readonly string[]): ParsedCommand {
  // The table gives each command exactly the fields of its options type above.
  return parseCommandLine(argv, COMMAND_TABLE) as ParsedCommand;
}
