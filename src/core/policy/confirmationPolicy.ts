import type { HostSettings, RoleSettings } from '../settings/hostSettings';
import { compileToolGlobs, type ToolMatcher } from './globMatcher';

export type ConfirmationRule = 'ask' | 'auto';

/**
 * The host's own decision whether a call needs the user's yes. Server annotations (readOnlyHint,
 * destructiveHint) never enter it: they are shown to the user as the server's claims, nothing more.
 * Default is to ask; `autoApprove` (role or global) lets a call run; `confirm` always wins.
 */
export class ConfirmationPolicy {
  private readonly autoApprove: ToolMatcher;
  private readonly confirm: ToolMatcher;

  constructor(global: Pick<HostSettings, 'autoApprove' | 'confirm'>, role?: RoleSettings) {
    this.autoApprove = compileToolGlobs([...global.autoApprove, ...(role?.autoApprove ?? [])]);
    this.confirm = compileToolGlobs([...global.confirm, ...(role?.confirm ?? [])]);
  }

  rule(server: string, tool: string): ConfirmationRule {
    if (this.confirm(server, tool)) return 'ask';
    return this.autoApprove(server, tool) ? 'auto' : 'ask';
  }
}
