import type { Logger, LogLevel } from '../core/util/logger';

export type Write = (text: string) => void;

const writeStderr: Write = (text) => {
  process.stderr.write(text);
};

/**
 * The CLI's logger: everything goes to stderr (stdout is reserved for the command's output).
 * Without --verbose only warnings and errors are shown; with it also server stderr, lifecycle and
 * debug messages.
 */
export function createStderrLogger(verbose: boolean, write: Write = writeStderr): Logger {
  const shown = new Set<LogLevel>(verbose ? ['trace', 'debug', 'info', 'warn', 'error'] : ['warn', 'error']);
  const log = (level: LogLevel) => (message: string) => {
    if (!shown.has(level)) return;
    const label = level === 'warn' ? 'warning' : level;
    write(`mcp-host ${label}: ${message}\n`);
  };
  return { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
