import * as path from 'node:path';
import type { Confirmer } from '../core/calls/confirmer';
import { FileConsentStore } from '../core/consent/fileConsentStore';
import type { ConsentPrompt } from '../core/consent/serverConsent';
import { McpHost } from '../core/host/mcpHost';
import type { PinningMode } from '../core/settings/hostSettings';
import { envSecretResolver } from '../core/settings/resolveServerSettings';
import type { Logger } from '../core/util/logger';
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
  /** How a server not allowed yet is asked about: on the terminal, or nobody (an error that says how to allow it). */
  readonly consent: ConsentPrompt;
  /** Overrides mcpHost.pinning (`check --locked`). */
  readonly pinning?: PinningMode;
  readonly confirmer: Confirmer;
  readonly logger: Logger;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
}

/**
 * The McpHost of a CLI command. The workspace counts as trusted: whoever runs the CLI in it chose
 * to; each server still needs the user's consent before it first starts (kept in the user's
 * configuration folder, per workspace). Secrets come from `MCP_HOST_SECRET_<NAME>` environment variables.
 */
export function createHost(workspace: Workspace, o: CliHostOptions): McpHost {
  const env = o.env ?? process.env;
  return new McpHost({
    settings: o.pinning ? { ...workspace.settings, pinning: o.pinning } : workspace.settings,
    workspaceFolder: workspace.dir,
    env,
    secrets: envSecretResolver(env),
    confirmer: o.confirmer,
    logger: o.logger,
    auditPathOverride: o.audit !== undefined ? path.resolve(o.cwd ?? process.cwd(), o.audit) : undefined,
    role: o.role,
    timeoutOverrideMs: o.timeoutMs,
    assumeYes: o.yes,
    trusted: true,
    consent: { store: new FileConsentStore(workspace.dir), prompt: o.consent, via: 'cli' },
  });
}
