import type { Implementation } from '@modelcontextprotocol/client';
import type { AuditSink } from '../audit/auditLog';
import type { CredentialStore } from '../auth/credentialStore';
import type { Confirmer } from '../calls/confirmer';
import type { ConsentStore } from '../consent/consentStore';
import type { EraVerdictStore } from '../mcp/eraVerdicts';
import type { ToolListStore } from '../mcp/toolListStore';
import type { IdentityKey } from '../consent/identityKey';
import type { ConsentPrompt } from '../consent/serverConsent';
import type { BackoffPolicy } from '../mcp/restartBackoff';
import type { LogLevelSource } from '../mcp/serverLogLevel';
import type { TransportFactory } from '../mcp/serverTransport';
import type { ServerRequestPorts } from '../requests/serverRequests';
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
  /** CLI `--yes`: calls that ask run (confirmedBy "flag") and servers not allowed yet start. Never a deny, a quarantine or a tool outside the role. */
  readonly assumeYes?: boolean;
  /** CLI `--allow-servers`: servers not allowed yet start (audited as consent by the flag, not kept); calls still ask. */
  readonly allowServers?: boolean;
  readonly clientInfo?: Implementation;
  readonly backoff?: BackoffPolicy;
  /** Servers' `logging/setLevel` follows it (the output channel's level; the CLI's --verbose). */
  readonly logLevel?: LogLevelSource;
  /** How servers are reached; real processes and HTTP (with OAuth) unless a test says otherwise. */
  readonly transports?: TransportFactory;
  /** How servers' questions (elicitation), sampling and roots requests are answered; none: not offered. */
  readonly serverRequests?: ServerRequestPorts;
  /** Where OAuth tokens and client registrations are kept (editor: SecretStorage, CLI: a 0600 file); default: memory. */
  readonly credentials?: CredentialStore;
  /** Opens a sign-in page in the user's browser (only https:, or http: on loopback, reach it). Without it sign-in fails. */
  readonly openUrl?: (url: URL) => Promise<void>;
  /** How long a sign-in waits for the browser (default 5 minutes). */
  readonly signInTimeoutMs?: number;
  /** The reviewed definitions (mcpHost.pinning); default `<workspaceFolder>/mcp-host.lock.json`, memory without a folder. */
  readonly lockfile?: LockfileStore;
  /** Consent before a server starts: where answers are kept and how a person is asked. Without it servers start without asking. */
  /** `key`: the user's key for the hashes of `${env:}` values in consent (identityKey.ts; default: this process only). */
  readonly consent?: { readonly store: ConsentStore; readonly prompt: ConsentPrompt; readonly via: 'editor' | 'cli'; readonly key?: IdentityKey };
  /** Where the protocol era found per server (`protocol: auto`) is kept; default: this process only. */
  readonly eras?: EraVerdictStore;
  /**
   * Whole tool lists a server allowed to be used again (2026-07-28 `ttlMs`), kept across processes: a
   * one-shot call uses a fresh one instead of listing. The CLI keeps them in its configuration folder;
   * default none (the editor's connections keep their own list while they live).
   */
  readonly toolLists?: ToolListStore;
}

