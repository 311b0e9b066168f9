import type { HostSettings, RoleSettings } from '../settings/hostSettings';
import { compileGlobs, toolKey, type Matcher } from './globMatcher';

export type ConfirmationRule = 'ask' | 'auto';

/**
 * The host's own decision whether a call needs the user's yes. Server annotations (readOnlyHint,
 * destructiveHint) never enter it: they are shown to the user as the server's claims, nothing more.
 * Default is to ask; `autoApprove` (role or global) lets a call run; `confirm` always wins.
 */
export class ConfirmationPolicy {
  private readonly autoApprove: Matcher;
  private readonly confirm: Matcher;

  constructor(global: Pick<HostSettings, 'autoApprove' | 'confirm'>, role?: RoleSettings) {
    this.autoApprove = compileGlobs([...global.autoApprove, ...(role?.autoApprove ?? [])]);
    this.confirm = compileGlobs([...global.confirm, ...(role?.confirm ?? [])]);
  }

  rule(server: string, tool: string): ConfirmationRule {
    const key = toolKey(server, tool);
    if (this.confirm(key)) return 'ask';
    return this.autoApprove(key) ? 'auto' : 'ask';
  }
}
