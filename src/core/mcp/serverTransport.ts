import type { Transport } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';
import type { DirectRequests } from './directRequests';

export type TransportKind = 'stdio' | 'streamableHttp' | 'sse' | 'inMemory';

/** The transport of one start of one server, with what the host may want to know about it. */
export interface ServerTransport {
  readonly kind: TransportKind;
  readonly transport: Transport;
  /** The server's OS process id while it runs (transports that spawn a process). */
  readonly pid?: number;
  /** How the server's process ended, once it has ("code 1", "signal SIGKILL"). */
  exitReason?(): string | undefined;
  /** Requests the host may send past the SDK's Protocol (a stdio process: see DirectRequests). */
  readonly direct?: DirectRequests;
}

export interface TransportHooks {
  /** Each complete stderr line of a server process. */
  readonly onStderrLine: (line: string) => void;
  /** The server's name, for error texts. */
  readonly name?: string;
  /** Largest single message the server may send; a larger one fails the request it answers. */
  readonly maxMessageBytes?: number;
}

/**
 * The port through which a ServerConnection gets its transports: processes and HTTP in the
 * product, an in-process server in narrow unit tests.
 */
export interface TransportFactory {
  /** The transport to try first, for settings whose variables are resolved. */
  create(server: ServerSettings, hooks: TransportHooks): ServerTransport;
  /**
   * A transport to try after `failed` could not initialize with `error`, with the reason to log;
   * undefined gives up.
   */
  fallback?(server: ServerSettings, failed: ServerTransport, error: unknown, hooks: TransportHooks): { transport: ServerTransport; reason: string } | undefined;
}
