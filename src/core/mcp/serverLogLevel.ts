import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { Event } from '../util/event';
import type { LogLevel } from '../util/logger';

/** The host's log level: what the output channel shows (extension) or `--verbose` (CLI). */
export type HostLogLevel = LogLevel | 'off';

/** Where servers' `logging/setLevel` comes from: the level now, and when it changes. */
export interface LogLevelSource {
  readonly level: HostLogLevel;
  readonly onDidChange?: Event<void>;
}

/**
 * The MCP level a server should log at so that its `notifications/message` are the ones the
 * host's log shows: trace and debug → debug, warn → warning, off → emergency (the least it can send).
 */
export function toMcpLoggingLevel(level: HostLogLevel): LoggingLevel {
  switch (level) {
    case 'trace':
    case 'debug':
      return 'debug';
    case 'info':
      return 'info';
    case 'warn':
      return 'warning';
    case 'error':
      return 'error';
    case 'off':
      return 'emergency';
  }
}
