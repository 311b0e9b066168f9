import { describeValue } from './describeValue';
import type { SettingsProblem } from './hostSettings';
import { issuesToProblems } from './issuesToProblems';
import { settingsProblem } from './settingsProblem';
import { EXPECTED, PatternSchema } from './valueSchemas';

/** The global `autoApprove` / `confirm` lists: a bad entry is reported and skipped, the others kept. */
export function parsePatternList(raw: Record<string, unknown>, key: 'autoApprove' | 'confirm', problems: SettingsProblem[]): string[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(settingsProblem('error', [key], `${EXPECTED.patterns}, got ${describeValue(value)}; using the default []`));
    return [];
  }
  // Keep the good entries: one typo should not silently drop every other rule.
  const out: string[] = [];
  value.forEach((item, i) => {
    const parsed = PatternSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else problems.push(...issuesToProblems(parsed.error, { base: [key, i], value: item, consequence: 'this entry is ignored' }));
  });
  return out;
}
