import * as path from 'node:path';
import type { Confirmer } from '../core/calls/confirmer';
import { McpHost } from '../core/host/mcpHost';
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
  /** `--yes`. */
  readonly yes: boolean;
  readonly confirmer: Confirmer;
  readonly logger: Logger;
  /** `--verbose`: servers log at debug (logging/setLevel), otherwise at warning, like the stderr logger. */
  readonly verbose?: boolean;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
}

/**
 * The McpHost of a CLI command. The workspace counts as trusted: whoever runs the CLI in it chose
 * to. Secrets come from `MCP_HOST_SECRET_<NAME>` environment variables.
 */
export function createHost(workspace: Workspace, o: CliHostOptions): McpHost {
  const env = o.env ?? process.env;
  return new McpHost({
    settings: workspace.settings,
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
    logLevel: { level: o.verbose ? 'debug' : 'warn' },
  });
}
