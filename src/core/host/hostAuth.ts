import type { AuditLog } from '../audit/auditLog';
import { MemoryCredentialStore } from '../auth/memoryCredentialStore';
import { recordAuthEvent } from '../auth/recordAuthEvent';
import { RemoteAuth } from '../auth/remoteAuth';
import { ServerSignIn, type SignInServers } from './serverSignIn';
import type { ServerSettings } from '../settings/hostSettings';
import { resolveServerSettings, type ResolvedServer } from '../settings/resolveServerSettings';
import type { Logger } from '../util/logger';
import type { McpHostOptions } from './mcpHostOptions';

export type { SignInControl } from './serverSignIn';

/** Resolves a server's variables right before it starts (or signs in), with the host's folder, environment and secrets. */
export function serverResolver(options: McpHostOptions): (s: ServerSettings) => Promise<ResolvedServer> {
  return (s) => resolveServerSettings(s, { workspaceFolder: options.workspaceFolder, env: options.env ?? process.env, secrets: options.secrets });
}

/** The OAuth of the host's remote servers over the credential store of `options` (memory by default). */
export function createRemoteAuth(options: McpHostOptions): RemoteAuth {
  return new RemoteAuth(options.credentials ?? new MemoryCredentialStore());
}

/** The host's `auth`: sign-in with the options' browser opener; every event logged and audited. */
export function createHostSignIn(options: McpHostOptions, deps: { remote: RemoteAuth; servers: SignInServers; logger: Logger; audit: AuditLog }): ServerSignIn {
  return new ServerSignIn({
    remote: deps.remote,
    servers: deps.servers,
    resolve: serverResolver(options),
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
    ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
    onEvent: (server, e) => recordAuthEvent(deps.logger, deps.audit, server, e),
  });
}
