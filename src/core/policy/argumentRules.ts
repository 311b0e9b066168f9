import type { RuleAction, RuleSettings } from '../settings/hostSettings';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import { loadCel } from '../conditions/loadCel';
import { compileToolGlobs, toolKey, type ToolMatcher } from './globMatcher';
import { compileCondition, type CompiledCondition } from '../conditions/ruleCondition';

/** The rule that decided a call, as the dialog, the CLI prompt, the model's denial text and the audit name it. */
export interface RuleHit {
  /** Where the rule is written, with its index: `mcpHost.rules[2]`, `mcpHost.roles.ops.rules[0]`. */
  readonly setting: string;
  /** The action it had on this call: a failed or broken rule says `confirm`, a failed or broken `deny` stays `deny`. */
  readonly action: RuleAction;
  readonly reason: string;
  /** Why the condition could not be used (run-time failure or a broken rule). */
  readonly error?: string;
}

/** The rules' verdict on one call: the strongest action that matched, and the first rule that said it. */
export interface RuleRuling {
  readonly action?: RuleAction;
  readonly rule?: RuleHit;
}

const STRENGTH: Record<RuleAction, number> = { allow: 1, confirm: 2, deny: 3 };

interface CompiledRule {
  readonly settings: RuleSettings;
  readonly matches: ToolMatcher;
  readonly condition?: CompiledCondition;
}

/**
 * The argument rules in force for one role: `mcpHost.rules`, then the role's `rules`, compiled
 * once when the policies are built (settings or role change). `judge` runs after the router has
 * checked the role and validated the arguments, so an `allow` can only ever auto-approve a call
 * the role may make. Precedence among matching rules: deny > confirm > allow. A condition that
 * cannot be evaluated (a run-time failure, a path `isWithin` cannot judge, a wrong type, a missing
 * argument) fails closed and is logged: a `deny` rule denies, any other rule asks — never allow,
 * never "no match". A failed deny that asked instead was answered by `--yes` (issue 25): a deny
 * rule's question is one nobody may answer.
 */
export class ArgumentRules {
  private readonly rules: readonly CompiledRule[];

  constructor(
    rules: readonly RuleSettings[],
    private readonly context: { readonly workspaceFolder?: string; readonly role?: string },
    private readonly logger: Logger,
  ) {
    const env = rules.some((r) => r.when !== undefined && !r.broken) ? loadCel().ruleEnvironment(context.workspaceFolder) : undefined;
    this.rules = rules.map((r) => ({
      settings: r,
      matches: compileToolGlobs(r.tools),
      ...(r.when !== undefined && !r.broken && env ? { condition: compileCondition(r.when, env) } : {}),
    }));
  }

  get size(): number {
    return this.rules.length;
  }

  /** Whether any rule names this tool (the tree and /tools say "rules apply"). */
  covers(server: string, tool: string): boolean {
    return this.rules.some((r) => r.matches(server, tool));
  }

  judge(server: string, tool: string, args: Record<string, unknown>): RuleRuling {
    let best: RuleHit | undefined;
    for (const rule of this.rules) {
      if (!rule.matches(server, tool)) continue;
      const hit = this.evaluate(rule, server, tool, args);
      if (hit && (!best || STRENGTH[hit.action] > STRENGTH[best.action])) best = hit;
      if (best?.action === 'deny') break;
    }
    return best ? { action: best.action, rule: best } : {};
  }

  private evaluate(rule: CompiledRule, server: string, tool: string, args: Record<string, unknown>): RuleHit | undefined {
    const s = rule.settings;
    const base = { setting: s.setting, reason: s.reason };
    if (s.broken) return { ...base, action: s.action === 'deny' ? 'deny' : 'confirm', error: `the rule is invalid: ${s.broken}` };
    const condition = rule.condition;
    if (!condition) return { ...base, action: s.action };
    if (!condition.ok) return { ...base, action: s.action === 'deny' ? 'deny' : 'confirm', error: `the condition does not compile: ${condition.error}` };
    try {
      const vars = { args, server, tool, role: this.context.role ?? '', workspaceFolder: this.context.workspaceFolder ?? '' };
      return condition.test(vars) ? { ...base, action: s.action } : undefined;
    } catch (e) {
      const error = errorText(e);
      const action = s.action === 'deny' ? 'deny' : 'confirm';
      this.logger.warn(`rule ${s.setting} ("${s.reason}") failed on a call of ${toolKey(server, tool)}: ${error}; ${action === 'deny' ? 'the call is denied' : 'the call asks for confirmation'}`);
      return { ...base, action, error };
    }
  }
}
