import * as path from 'node:path';
import type { Confirmer } from '../core/calls/confirmer';
import { McpHost } from '../core/host/mcpHost';
import { CLIENT_INFO } from '../core/host/mcpHostOptions';
import { envSecretResolver } from '../core/settings/resolveServerSettings';
import { TelemetryExport } from '../core/telemetry/telemetryExport';
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
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Where the OpenTelemetry export (mcpHost.telemetry.*) is flushed before the process ends. */
  readonly onClose?: (closer: () => Promise<void>) => void;
}

/**
 * The McpHost of a CLI command. The workspace counts as trusted: whoever runs the CLI in it chose
 * to. Secrets come from `MCP_HOST_SECRET_<NAME>` environment variables.
 */
export function createHost(workspace: Workspace, o: CliHostOptions): McpHost {
  const env = o.env ?? process.env;
  const host = new McpHost({
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
