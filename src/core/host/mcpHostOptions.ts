import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from '../audit/auditLog';
import type { Confirmer } from '../calls/confirmer';
import type { ConsentStore } from '../consent/consentStore';
import type { ConsentPrompt } from '../consent/serverConsent';
import type { BackoffPolicy } from '../mcp/restartBackoff';
import type { TransportFactory } from '../mcp/serverTransport';
import type { LockfileStore } from '../pinning/lockfileStore';
import type { HostSettings } from '../settings/hostSettings';
import type { SecretResolver } from '../settings/resolveServerSettings';
import type { Logger } from '../util/logger';

export const CLIENT_INFO: Implementation = { name: 'mcp-host', version: '0.1.0' };

export interface McpHostOptions {
  readonly settings: HostSettings;
  readonly workspaceFolder?: string;
  readonly env?: Record<string, string | undefined>;
  readonly secrets: SecretResolver;
  readonly confirmer: Confirmer;
  readonly logger?: Logger;
  /** Extra audit sinks (memory, UI). The JSONL file from `mcpHost.audit.path` is added by the host. */
  readonly auditSinks?: readonly AuditSink[];
  /** Audit file used when `mcpHost.audit.path` is not set (the extension's workspace storage). */
  readonly defaultAuditPath?: string;
  /** Overrides `mcpHost.audit.path` (CLI `--audit`). */
  readonly auditPathOverride?: string;
  /** Overrides `mcpHost.activeRole` (CLI `--role`; '' = no role). */
  readonly role?: string;
  /** Overrides every server's per-call timeout (CLI `--timeout`). */
  readonly timeoutOverrideMs?: number;
  /** False in an untrusted workspace: no configured server is started. */
  readonly trusted?: boolean;
  readonly assumeYes?: boolean;
  readonly clientInfo?: Implementation;
  readonly backoff?: BackoffPolicy;
  /** How servers are reached; real processes and HTTP unless a test says otherwise. */
  readonly transports?: TransportFactory;
  /** The reviewed definitions (mcpHost.pinning); default `<workspaceFolder>/mcp-host.lock.json`, memory without a folder. */
  readonly lockfile?: LockfileStore;
  /** Consent before a server starts: where answers are kept and how a person is asked. Without it servers start without asking. */
  readonly consent?: { readonly store: ConsentStore; readonly prompt: ConsentPrompt; readonly via: 'editor' | 'cli' };
}

