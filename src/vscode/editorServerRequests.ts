import type * as vscode from 'vscode';
import type { ElicitationPrompter } from '../core/requests/elicitationPrompter';
import { ApprovedSampler, type Sampler } from '../core/requests/sampler';
import type { ServerRequestPorts } from '../core/requests/serverRequests';
import { Emitter, type Event } from '../core/util/event';
import { InputFlowPrompter } from './inputFlowPrompter';
import { LmSamplingModels } from './lmSamplingModels';
import { ModalSamplingApprover } from './modalSamplingApprover';
import { askingProgress } from './serverRequestMessages';
import { WorkspaceRoots } from './workspaceRoots';

/**
 * How the editor answers servers' requests: the input flow for questions, two modals around
 * `vscode.lm` for sampling, the workspace folders as roots. `onDidAsk` tells the chat when a server
 * asks (during a tool call), so the call's progress shows it.
 */
export class EditorServerRequests implements vscode.Disposable {
  readonly ports: ServerRequestPorts;
  private readonly asking = new Emitter<string>();
  /** A line for the chat: which server asks what, during which call. */
  readonly onDidAsk: Event<string> = this.asking.event;
  /** The model last used with `@mcp`: sampling's default. */
  chatModel?: vscode.LanguageModelChat;
  private readonly roots = new WorkspaceRoots();

  constructor() {
    const prompter = new InputFlowPrompter();
    const sampler = new ApprovedSampler(new ModalSamplingApprover(), new LmSamplingModels(() => this.chatModel));
    const elicitation: ElicitationPrompter = {
      askForm: (q, s) => (this.asking.fire(askingProgress('elicitation', q)), prompter.askForm(q, s)),
      askUrl: (q) => (this.asking.fire(askingProgress('elicitation', q)), prompter.askUrl(q)),
      openUrl: (url) => prompter.openUrl(url),
    };
    const sampling: Sampler = { sample: (q, s) => (this.asking.fire(askingProgress('sampling', q)), sampler.sample(q, s)) };
    this.ports = { elicitation, sampler: sampling, roots: this.roots };
  }

  dispose(): void {
    this.roots.dispose();
    this.asking.dispose();
  }
}
