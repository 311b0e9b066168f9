import { conditionError } from '../conditions/ruleCondition';
import { describeValue } from './describeValue';
import type { RuleSettings, SettingsProblem } from './hostSettings';
import { isPlainObject } from './isPlainObject';
import { issuesToProblems } from './issuesToProblems';
import { RuleSchema } from './rulesSchema';
import { settingPath, type PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';
import { PatternSchema } from './valueSchemas';

/**
 * `mcpHost.rules` or a role's `rules`. An invalid entry (bad shape, glob or CEL condition) is
 * reported at its exact path and kept as a *broken* rule: dropping it would silently loosen the
 * policy (a misspelt `deny` would let calls through). A broken rule denies (if it said `deny`) or
 * asks before every call of its tools — of every tool when its `tools` are unusable.
 */
export function parseRules(value: unknown, base: readonly PathSegment[], problems: SettingsProblem[]): RuleSettings[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(settingsProblem('error', base, `expected an array of rules, got ${describeValue(value)}; every call asks for confirmation until this is fixed`));
    return [{ tools: ['*/*'], action: 'confirm', reason: `${settingPath(base)} is not a list of rules`, setting: settingPath(base), broken: 'not a list of rules' }];
  }
  return value.map((item, i) => parseRule(item, [...base, i], problems));
}

function parseRule(item: unknown, at: readonly PathSegment[], problems: SettingsProblem[]): RuleSettings {
  const setting = settingPath(at);
  const parsed = RuleSchema.safeParse(item);
  if (!parsed.success) {
    const fallback = brokenRule(item, setting);
    const consequence = `until fixed this rule ${fallback.action === 'deny' ? 'denies' : 'asks before'} every call of ${fallback.tools.includes('*/*') ? 'every tool' : 'its tools'}`;
    problems.push(...issuesToProblems(parsed.error, { base: at, value: item, allowedKeys: Object.keys(RuleSchema.shape), consequence }));
    return fallback;
  }
  const r = parsed.data;
  const rule: RuleSettings = { tools: [...new Set(r.tools)], ...(r.when !== undefined ? { when: r.when } : {}), action: r.action, reason: r.reason, setting };
  const error = r.when !== undefined ? conditionError(r.when) : undefined;
  if (error === undefined) return rule;
  const what = r.action === 'deny' ? 'denies' : 'asks before';
  problems.push(settingsProblem('error', [...at, 'when'], `the CEL condition does not compile: ${error}; until fixed this rule ${what} every call of its tools`));
  return { ...rule, broken: `its condition does not compile: ${error}` };
}

/** The cautious reading of an entry that failed validation. */
function brokenRule(item: unknown, setting: string): RuleSettings {
  const o = isPlainObject(item) ? item : {};
  const tools = Array.isArray(o.tools) && o.tools.length > 0 && o.tools.every((t) => PatternSchema.safeParse(t).success) ? (o.tools as string[]) : ['*/*'];
  const reason = typeof o.reason === 'string' && o.reason.trim() ? o.reason : `the invalid rule ${setting}`;
  return { tools, action: o.action === 'deny' ? 'deny' : 'confirm', reason, setting, broken: 'the entry is invalid (see the settings problems)' };
}
