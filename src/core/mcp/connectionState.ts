import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** What initialize told us about a server. */
export interface ServerInfo {
  readonly protocolVersion?: string;
  readonly serverInfo?: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/** A server connection's state: a discriminated union, switched exhaustively by its users. */
export type ConnectionState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'disabled' }
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'starting'; readonly attempt: number }
  | { readonly kind: 'connected'; readonly info: ServerInfo }
  | { readonly kind: 'restarting'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'stopped' };

export type ConnectionStateKind = ConnectionState['kind'];

export namespace ConnectionState {
  export const idle: ConnectionState = { kind: 'idle' };
  export const stopped: ConnectionState = { kind: 'stopped' };
  export const disabled: ConnectionState = { kind: 'disabled' };
  export const untrusted: ConnectionState = { kind: 'untrusted' };

  /** Whether a call can be sent now. */
  export function isConnected(s: ConnectionState): s is Extract<ConnectionState, { kind: 'connected' }> {
    return s.kind === 'connected';
  }

  /** Whether the state will still change without anyone acting (used to wait for start-up). */
  export function isSettling(s: ConnectionState): boolean {
    return s.kind === 'starting' || s.kind === 'restarting';
  }

  /** A one-line human description, for logs, the CLI and the tree view. */
  export function describe(s: ConnectionState): string {
    switch (s.kind) {
      case 'idle':
        return 'not started';
      case 'disabled':
        return 'disabled';
      case 'untrusted':
        return 'not started: the workspace is not trusted';
      case 'starting':
        return s.attempt > 1 ? `starting (attempt ${s.attempt})` : 'starting';
      case 'connected': {
        const v = s.info.serverInfo ? ` to ${s.info.serverInfo.name} ${s.info.serverInfo.version}` : '';
        return `connected${v}${s.info.protocolVersion ? ` (protocol ${s.info.protocolVersion})` : ''}`;
      }
      case 'restarting':
        return `restarting in ${Math.round(s.delayMs / 100) / 10} s (attempt ${s.attempt}): ${s.reason}`;
      case 'error':
        return `error: ${s.message}`;
      case 'stopped':
        return 'stopped';
    }
  }
}
