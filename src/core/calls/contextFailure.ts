import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ContextOutcome } from '../audit/auditRecord';
import { ConnectionState } from '../mcp/connectionState';
import type { ServerConnection } from '../mcp/serverConnection';
import { errorText } from '../util/errorText';

export interface ContextFailure {
  readonly outcome: ContextOutcome;
  readonly text: string;
}

/** Why a server cannot be asked now, or undefined when it can. */
export function unavailable(server: string, connection: ServerConnection | undefined): ContextFailure | undefined {
  if (connection && ConnectionState.isConnected(connection.state)) return undefined;
  const state = connection ? ConnectionState.describe(connection.state) : 'not configured';
  return { outcome: 'error', text: `server "${server}" is ${state}` };
}

/** A failed `resources/read` or `prompts/get`, classified like a tool call's failure. */
export function classifyFailure(e: unknown, signal: AbortSignal | undefined, timeoutMs: number, redact: (t: string) => string): ContextFailure {
  if (signal?.aborted) return { outcome: 'cancelled', text: 'cancelled by the user' };
  if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return { outcome: 'timeout', text: `no answer within ${timeoutMs} ms` };
  if (e instanceof ProtocolError && e.code === ProtocolErrorCode.ResourceNotFound) return { outcome: 'notFound', text: redact(errorText(e)) };
  return { outcome: 'error', text: redact(errorText(e)) };
}

/** Milliseconds since `started`, one decimal. */
export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** "role "support"" or "no role", for messages. */
export function roleText(role: string | undefined): string {
  return role ? `role "${role}"` : 'no role';
}
