import type { AuditLog } from '../audit/auditLog';
import type { ClientFeature } from '../mcp/clientFeature';
import type { ActivePolicies } from '../policy/activePolicies';
import type { ServerSettings } from '../settings/hostSettings';
import type { Disposable } from '../util/event';
import type { Logger } from '../util/logger';
import { ElicitationFeature } from './elicitationFeature';
import { ElicitationHandler } from './elicitationHandler';
import type { ElicitationPrompter } from './elicitationPrompter';
import { PromptQueue } from './promptQueue';
import { folderRoots, serverRootFolders, type RootsSource } from './rootsSource';
import { RootsFeature } from './rootsFeature';
import type { Sampler } from './sampler';
import { SamplingFeature } from './samplingFeature';
import { SamplingHandler } from './samplingHandler';
import { ServerCalls } from '../mcp/call/serverCalls';
import type { ServerRequestDeps } from './serverRequestRun';

/** How a front end answers what servers ask (McpHostOptions.serverRequests). */
export interface ServerRequestPorts {
  /** Asks the user for what a server wants to know (form or URL). */
  readonly elicitation: ElicitationPrompter;
  /** Answers sampling requests the policy allows (the editor: approval + `vscode.lm`). */
  readonly sampler: Sampler;
  /** The roots offered to servers; default: the workspace folder. */
  readonly roots?: RootsSource;
}

export interface ServerRequestsOptions {
  readonly policies: ActivePolicies;
  readonly trusted: () => boolean;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly workspaceFolder?: string;
}

/**
 * What the host adds for requests servers send it: the client features (elicitation, sampling,
 * roots) declared to every server, and the calls in flight those requests belong to. Without
 * ports nothing is declared (a host that cannot ask anybody offers none of it).
 */
export class ServerRequests implements Disposable {
  readonly features: readonly ClientFeature[];
  readonly calls = new ServerCalls();
  private readonly roots?: RootsFeature;
  private readonly rootsSource?: RootsSource;

  constructor(ports: ServerRequestPorts | undefined, o: ServerRequestsOptions) {
    if (!ports) {
      this.features = [];
      return;
    }
    const deps: ServerRequestDeps = {
      policies: o.policies,
      trusted: o.trusted,
      audit: o.audit,
      logger: o.logger,
      calls: this.calls,
      queue: new PromptQueue(),
    };
    const roots = (this.rootsSource = ports.roots ?? folderRoots(o.workspaceFolder ? [o.workspaceFolder] : []));
    this.roots = new RootsFeature(deps, roots);
    this.features = [
      new ElicitationFeature(new ElicitationHandler(deps, ports.elicitation), this.calls, o.logger),
      new SamplingFeature(new SamplingHandler(deps, ports.sampler)),
      this.roots,
    ];
  }

  /** The folders `server` (resolved) will be given as roots, or false when none are declared to it: what its consent question shows. */
  rootFolders(server: ServerSettings): readonly string[] | false {
    return serverRootFolders(server, this.rootsSource);
  }

  dispose(): void {
    this.roots?.dispose();
  }
}
