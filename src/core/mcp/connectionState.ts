import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/client';
import type { Event } from '../util/event';
import type { ProtocolEra } from './eraVerdicts';

/** What initialize told us about a server. */
export interface ServerInfo {
  readonly protocolVersion?: string;
  /** `legacy` (2025-11-25, `initialize`) or `modern` (2026-07-28, `server/discover`). */
  readonly era?: ProtocolEra;
  readonly serverInfo?: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/**
 * A server connection's state. Callers ask the predicates below ("may it start?", "does it hold
 * tools?"); only rendering (a label or an icon per state) switches on `kind`.
 */
export type ConnectionState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'disabled' }
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'starting'; readonly attempt: number }
  | { readonly kind: 'connected'; readonly info: ServerInfo }
  | { readonly kind: 'restarting'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string }
  /**
   * The server answered 401 with the MCP authorization flow and nothing stored lets the host in
   * silently: a person must sign in (issue 11). Not an error, not retried by itself.
   */
  | { readonly kind: 'needsSignIn'; readonly issuer?: string; readonly message: string }
  | { readonly kind: 'stopped' };

export type ConnectionStateKind = ConnectionState['kind'];

export namespace ConnectionState {
  export const idle: ConnectionState = { kind: 'idle' };
  export const stopped: ConnectionState = { kind: 'stopped' };
  export const disabled: ConnectionState = { kind: 'disabled' };
  export const untrusted: ConnectionState = { kind: 'untrusted' };

  /** A call can be sent now. */
  export function isConnected(s: ConnectionState): s is Extract<ConnectionState, { kind: 'connected' }> {
    return s.kind === 'connected';
  }

  /** The server is up or on its way up: Stop applies. */
  export function isRunning(s: ConnectionState): boolean {
    return s.kind === 'starting' || s.kind === 'connected' || s.kind === 'restarting';
  }

  /** The state will still change without anyone acting (used to wait for start-up). */
  export function isSettling(s: ConnectionState): boolean {
    return s.kind === 'starting' || s.kind === 'restarting';
  }

  /** Its last discovered tools stay registered: connected, or restarting after an unexpected exit. */
  export function hasTools(s: ConnectionState): boolean {
    return s.kind === 'connected' || s.kind === 'restarting';
  }

  /** Start failed or restarts gave up. */
  export function isFailed(s: ConnectionState): s is Extract<ConnectionState, { kind: 'error' }> {
    return s.kind === 'error';
  }

  /** A person may start it now (Start applies): not running, not disabled, not held back by trust. */
  export function canStart(s: ConnectionState): boolean {
    return s.kind === 'idle' || s.kind === 'stopped' || s.kind === 'error' || s.kind === 'needsSignIn';
  }

  /** Waits for a person to sign in (Sign In applies); its tools are not offered. */
  export function needsSignIn(s: ConnectionState): s is Extract<ConnectionState, { kind: 'needsSignIn' }> {
    return s.kind === 'needsSignIn';
  }

  /** The authorization server a server waiting for sign-in names, when discovery got that far. */
  export function signInIssuer(s: ConnectionState): string | undefined {
    return s.kind === 'needsSignIn' ? s.issuer : undefined;
  }

  /**
   * At rest without a failure: never started, stopped, or held back by trust. The host starts such
   * a server when the role wants it; a failed one, or one waiting for sign-in, waits for a person
   * (or a settings change): no restart loop against a server that refuses us.
   */
  export function startsWhenWanted(s: ConnectionState): boolean {
    return s.kind === 'idle' || s.kind === 'stopped' || s.kind === 'untrusted';
  }

  /** Holds a connection, a pending restart or a failure that stopping clears (role no longer wants it). */
  export function needsStop(s: ConnectionState): boolean {
    return isRunning(s) || s.kind === 'error' || s.kind === 'needsSignIn';
  }

  /** The error of a failed server. */
  export function failure(s: ConnectionState): string | undefined {
    return s.kind === 'error' ? s.message : undefined;
  }

  /** Why a server is being restarted, while it is. */
  export function restartReason(s: ConnectionState): string | undefined {
    return s.kind === 'restarting' ? s.reason : undefined;
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
        return `connected${v}${s.info.protocolVersion ? ` (protocol ${s.info.protocolVersion}${s.info.era ? `, ${s.info.era}` : ''})` : ''}`;
      }
      case 'restarting':
        return `restarting in ${Math.round(s.delayMs / 100) / 10} s (attempt ${s.attempt}): ${s.reason}`;
      case 'error':
        return `error: ${s.message}`;
      case 'needsSignIn':
        return s.issuer ? `not signed in (sign in with ${s.issuer})` : 'not signed in (sign-in needed)';
      case 'stopped':
        return 'stopped';
    }
  }
}

/** Resolves once `state()` is no longer settling, re-checked at every change. */
export async function whenStateSettles(state: () => ConnectionState, onDidChange: Event<ConnectionState>): Promise<void> {
  while (ConnectionState.isSettling(state())) {
    await new Promise<void>((resolve) => {
      const d = onDidChange(() => {
        d.dispose();
        resolve();
      });
    });
  }
}
