/** Process exit codes of the `mcp-host` CLI. */
export const ExitCode = {
  /** The command did what was asked (check: all started servers connected and no error problem; call: outcome ok). */
  ok: 0,
  /** The command ran but the result is a failure (a server failed, an error problem, a call outcome other than ok). */
  failure: 1,
  /** Bad usage: unknown flag, missing value, bad --args JSON, unknown role, unreadable settings. */
  usage: 2,
  /**
   * A person must decide first, and the message names the command that does it: a server is not
   * allowed to start ("mcp-host allow NAME"), tools are quarantined ("mcp-host lock"), or lock has
   * nobody to confirm its approval (no terminal and no --yes).
   */
  needsDecision: 3,
  /** Ended by SIGINT (128 + 2). */
  sigint: 130,
  /** Ended by SIGTERM (128 + 15). */
  sigterm: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the command with a message on stderr and a given exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Print the command's short usage after the message. */
    readonly showUsage = false,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad usage (exit 2), followed by the short usage of the command. */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message, ExitCode.usage, true);
    this.name = 'UsageError';
  }
}
