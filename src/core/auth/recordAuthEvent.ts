import type { AuditLog } from '../audit/auditLog';
import type { AuthAuditRecord } from '../audit/auditRecord';
import type { Logger } from '../util/logger';
import type { AuthEvent } from './authEvents';

/** The audit record of a sign-in event of `server` (events never carry a token, code or secret). */
export function authAuditRecord(server: string, e: AuthEvent, ts = new Date().toISOString()): AuthAuditRecord {
  const base = { kind: 'auth' as const, ts, server, event: e.type };
  switch (e.type) {
    case 'signInStarted':
      return { ...base, stepUp: e.stepUp, ...(e.scope ? { scope: e.scope } : {}) };
    case 'signInCompleted':
      return { ...base, issuer: e.issuer, ...(e.scope ? { scope: e.scope } : {}) };
    case 'signInFailed':
      return { ...base, reason: e.reason, ...(e.issuer ? { issuer: e.issuer } : {}) };
    case 'signInCancelled':
      return { ...base, reason: e.reason };
    case 'signedOut':
      return { ...base, hadCredentials: e.hadCredentials };
  }
}

/** One line for the output channel / stderr. */
export function describeAuthEvent(server: string, e: AuthEvent): string {
  switch (e.type) {
    case 'signInStarted':
      return `[${server}] ${e.stepUp ? 'step-up ' : ''}sign-in started${e.scope ? ` (scope "${e.scope}")` : ''}: waiting for the browser`;
    case 'signInCompleted':
      return `[${server}] signed in with ${e.issuer}${e.scope ? ` (scope "${e.scope}")` : ''}`;
    case 'signInFailed':
      return `[${server}] sign-in failed: ${e.reason}`;
    case 'signInCancelled':
      return `[${server}] sign-in cancelled: ${e.reason}`;
    case 'signedOut':
      return `[${server}] signed out${e.hadCredentials ? ': stored tokens and client registrations forgotten' : ' (nothing was stored)'}`;
  }
}

/** Log a sign-in event and write its audit record. */
export function recordAuthEvent(logger: Logger, audit: AuditLog, server: string, e: AuthEvent): void {
  const line = describeAuthEvent(server, e);
  if (e.type === 'signInFailed') logger.warn(line);
  else logger.info(line);
  void audit.record(authAuditRecord(server, e));
}
