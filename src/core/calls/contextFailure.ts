import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ContextOutcome } from '../audit/auditRecord';
import { ConnectionState } from '../mcp/connectionState';
import { serverErrorText } from '../mcp/protocolErrorText';
import type { ServerConnection } from '../mcp/serverConnection';
import { errorText } from '../util/errorText';

/** MCP's "resource not found" error code up to 2025-11-25 (spec: -32002). */
const RESOURCE_NOT_FOUND = ProtocolErrorCode.ResourceNotFound;

/**
 * Resource not found: -32002, or (2026-07-28, and servers built on SDK v2 at every revision) -32602
 * Invalid Params whose data is exactly `{ uri }`.
 */
function isResourceNotFound(e: ProtocolError): boolean {
  if (e.code === RESOURCE_NOT_FOUND) return true;
  const data: unknown = e.data;
  return (
    e.code === ProtocolErrorCode.InvalidParams &&
    typeof data === 'object' &&
    data !== null &&
    Object.keys(data).length === 1 &&
    typeof (data as { uri?: unknown }).uri === 'string'
  );
}

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
  if (e instanceof ProtocolError && isResourceNotFound(e)) return { outcome: 'notFound', text: redact(errorText(e)) };
  return { outcome: 'error', text: redact(serverErrorText(e) ?? errorText(e)) };
}

/** Milliseconds since `started`, one decimal. */
export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** "role "support"" or "no role", for messages. */
export function roleText(role: string | undefined): string {
  return role ? `role "${role}"` : 'no role';
}
