import * as path from 'node:path';
import type { Confirmer } from '../core/calls/confirmer';
import { McpHost } from '../core/host/mcpHost';
import { decliningPrompter } from '../core/requests/elicitationPrompter';
import { refusingSampler } from '../core/requests/sampler';
import type { ServerRequestPorts } from '../core/requests/serverRequests';
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
  /** Who answers servers' questions and sampling requests; default: nobody (declined, with a warning). */
  readonly serverRequests?: ServerRequestPorts;
  readonly logger: Logger;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
}

/**
 * The McpHost of a CLI command. The workspace counts as trusted: whoever runs the CLI in it chose
 * to. Secrets come from `MCP_HOST_SECRET_<NAME>` environment variables. The roots offered to
 * servers are the workspace folder (`--workspace`).
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
    serverRequests: o.serverRequests ?? noAnswers((line) => o.logger.warn(line)),
  });
}

/** Nobody to answer: questions are declined and sampling refused, each with a line on stderr. */
export function noAnswers(tell: (line: string) => void, why = 'nobody can answer here'): ServerRequestPorts {
  return {
    elicitation: decliningPrompter(why, tell),
    sampler: refusingSampler(`${why} (sampling needs a driver in "mcp-host session")`, tell),
  };
}
