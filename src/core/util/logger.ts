/** The logging port of the core; shaped like vscode's LogOutputChannel so the editor adapter is trivial. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const nullLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};

export type LogLevel = keyof Logger;

/** Map an MCP `notifications/message` level onto ours. */
export function mcpLevelToLogLevel(level: string): LogLevel {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    default:
      return 'error';
  }
}
