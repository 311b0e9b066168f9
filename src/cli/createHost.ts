import * as path from 'node:path';
import { defaultCredentialsFile, FileCredentialStore } from '../core/auth/fileCredentialStore';
import type { Confirmer } from '../core/calls/confirmer';
import { FileConsentStore, userConfigDir } from '../core/consent/fileConsentStore';
import { ERA_VERDICTS_FILE, FileEraVerdictStore } from '../core/mcp/eraVerdicts';
import { FileToolListStore, TOOL_LISTS_DIR } from '../core/mcp/toolListStore';
import { FileIdentityKey, IDENTITY_KEY_FILE } from '../core/consent/identityKey';
import type { ConsentPrompt } from '../core/consent/serverConsent';
import { McpHost } from '../core/host/mcpHost';
import { CLIENT_INFO } from '../core/host/mcpHostOptions';
import { CheckedLockfiles } from '../core/pinning/checkedLockfiles';
import { LOCKFILE_NAME } from '../core/pinning/lockfile';
import { FileLockfileStore } from '../core/pinning/lockfileStore';
import { decliningPrompter } from '../core/requests/elicitationPrompter';
import { refusingSampler } from '../core/requests/sampler';
import type { ServerRequestPorts } from '../core/requests/serverRequests';
import type { PinningMode } from '../core/settings/hostSettings';
import { envSecretResolver } from '../core/settings/resolveServerSettings';
import { TelemetryExport } from '../core/telemetry/telemetryExport';
import type { Logger } from '../core/util/logger';
import type { CliBrowser } from './cliBrowser';
import type { Lifecycle } from './lifecycle';
import type { Workspace } from './loadWorkspace';

export interface CliHostOptions {
  /** `--role` ('' = no role); undefined = mcpHost.activeRole. */
  readonly role?: string;
  /** `--audit FILE`, relative to the current directory. */
  readonly audit?: string;
  /** `--timeout MS`. */
  readonly timeoutMs?: number;
  /** `--yes`: calls that need confirmation run, and servers not allowed yet start (both audited as by the flag). */
  readonly yes: boolean;
  /** `--allow-servers`: only the second half of --yes: servers not allowed yet start; calls still ask. */
  readonly allowServers?: boolean;
  /** How a server not allowed yet is asked about: on the terminal, or nobody (an error that says how to allow it). */
  readonly consent: ConsentPrompt;
  /** Overrides mcpHost.pinning (`check --locked`). */
  readonly pinning?: PinningMode;
  readonly confirmer: Confirmer;
  /** Who answers servers' questions and sampling requests; default: nobody (declined, with a warning). */
  readonly serverRequests?: ServerRequestPorts;
  readonly logger: Logger;
  /** `--verbose`: servers log at debug (logging/setLevel), otherwise at warning, like the stderr logger. */
  readonly verbose?: boolean;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Set when the command may sign in (login, --login): how sign-in pages are opened. */
  readonly browser?: CliBrowser;
  /** Where the OpenTelemetry export (mcpHost.telemetry.*) is flushed before the process ends. */
  readonly onClose?: (closer: () => Promise<void>) => void;
}

/** What `call`, `session` and `serve` pass from their flags alike: --role, --audit, --timeout, --allow-servers, and closing with the process. */
export function flagOptions(
  o: { readonly role?: string; readonly audit?: string; readonly timeoutMs?: number; readonly allowServers?: boolean },
  lifecycle: Pick<Lifecycle, 'onClose'>,
): Pick<CliHostOptions, 'onClose' | 'role' | 'audit' | 'timeoutMs' | 'allowServers'> {
  return { onClose: (c) => lifecycle.onClose(c), role: o.role, audit: o.audit, timeoutMs: o.timeoutMs, allowServers: o.allowServers };
}

/** The CLI's credentials file: MCP_HOST_CREDENTIALS_FILE, else under $XDG_CONFIG_HOME or ~/.config (mode 0600). */
export function cliCredentialsFile(env: Record<string, string | undefined> = process.env): string {
  return defaultCredentialsFile(env as NodeJS.ProcessEnv);
}

/**
 * The McpHost of a CLI command. The workspace counts as trusted: whoever runs the CLI in it chose
 * to; each server still needs the user's consent before it first starts (kept in the user's
 * configuration folder, per workspace). Secrets come from `MCP_HOST_SECRET_<NAME>` environment
 * variables; OAuth tokens from the credentials file (used and refreshed by every command; written by
 * login and --login). The roots offered to servers are the workspace folder (`--workspace`).
 */
export function createHost(workspace: Workspace, o: CliHostOptions): McpHost {
  const env = o.env ?? process.env;
  const configDir = userConfigDir(env as NodeJS.ProcessEnv);
  const identityKey = new FileIdentityKey(path.join(configDir, IDENTITY_KEY_FILE));
  const host = new McpHost({
    settings: o.pinning ? { ...workspace.settings, pinning: o.pinning } : workspace.settings,
    workspaceFolder: workspace.dir,
    // Lockfile content found valid and canonical once is then read entry by entry (a one-shot call reads one tool's pin).
    lockfile: new FileLockfileStore(path.join(workspace.dir, LOCKFILE_NAME), new CheckedLockfiles(path.join(configDir, 'checked-lockfiles'))),
    env,
    secrets: envSecretResolver(env),
    confirmer: o.confirmer,
    logger: o.logger,
    auditPathOverride: o.audit !== undefined ? path.resolve(o.cwd ?? process.cwd(), o.audit) : undefined,
    role: o.role,
    timeoutOverrideMs: o.timeoutMs,
    assumeYes: o.yes,
    allowServers: o.allowServers,
    trusted: true,
    serverRequests: o.serverRequests ?? noAnswers((line) => o.logger.warn(line)),
    credentials: new FileCredentialStore(cliCredentialsFile(env)),
    ...(o.browser ? { openUrl: o.browser.openUrl } : {}),
    logLevel: { level: o.verbose ? 'debug' : 'warn' },
    consent: { store: new FileConsentStore(workspace.dir), prompt: o.consent, via: 'cli', key: identityKey },
    eras: new FileEraVerdictStore(path.join(configDir, ERA_VERDICTS_FILE)),
    toolLists: new FileToolListStore(path.join(configDir, TOOL_LISTS_DIR), identityKey),
  });
  if (workspace.settings.telemetry) {
    const telemetry = new TelemetryExport({
      logger: o.logger,
      secrets: envSecretResolver(env),
      env,
      workspaceFolder: workspace.dir,
      serviceVersion: CLIENT_INFO.version,
      snapshot: () => host.snapshot(),
    });
    telemetry.attach(host.onDidRecord);
    void telemetry.configure(workspace.settings.telemetry);
    // At most 3 s for the last spans: a dead collector must not hold the command's exit.
    o.onClose?.(() => telemetry.close(3000));
  }
  return host;
}

/** Nobody to answer: questions are declined and sampling refused, each with a line on stderr. */
export function noAnswers(tell: (line: string) => void, why = 'nobody can answer here'): ServerRequestPorts {
  return {
    elicitation: decliningPrompter(why, tell),
    sampler: refusingSampler(`${why} (sampling needs a driver in "mcp-host session")`, tell),
  };
}
