import { ProtocolError, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/client';

/**
 * Why the host answered a request on the server's behalf: the server's answer was over the message
 * bound, its response stream ended without an answer, or its answer was malformed.
 */
export type HostErrorReason = 'messageTooLarge' | 'streamEnded' | 'malformedResponse';

/** JSON-RPC internal error: the code the host's own answers carry (recognised by `data.mcpHost`). */
const HOST_ERROR_CODE = -32603;

/**
 * An error response the host delivers to its own client for request `id`, so that exactly that
 * request fails at once with `message` (the connection and every other request go on).
 */
export function hostErrorResponse(id: RequestId, reason: HostErrorReason, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: HOST_ERROR_CODE, message, data: { mcpHost: reason } } };
}

/** The plain message of an error the host made with hostErrorResponse (no "MCP error -32603:" prefix); undefined otherwise. */
export function hostErrorText(e: unknown): string | undefined {
  if (!(e instanceof ProtocolError) || e.code !== HOST_ERROR_CODE) return undefined;
  const data = e.data as { mcpHost?: unknown } | undefined;
  if (typeof data?.mcpHost !== 'string') return undefined;
  return e.message.replace(/^MCP error -?\d+: /, '');
}

/** "80.0 MiB", "64 MiB", "512 KiB", "900 B": sizes in the unit a person sets. */
export function formatSize(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) return Number.isInteger(bytes / MiB) ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 1024) return Number.isInteger(bytes / 1024) ? `${bytes / 1024} KiB` : `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** The error text of a message over the bound. `atLeast`: the size is a lower bound (the rest was not read). */
export function messageTooLargeText(server: string, bytes: number, limit: number, atLeast = false): string {
  return `server "${server}" sent a message of ${atLeast ? 'more than ' : ''}${formatSize(bytes)}; the limit is ${formatSize(limit)} (mcpHost.maxMessageBytes)`;
}
