import * as assert from 'node:assert/strict';
import type { SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { parsePatternList } from '../../../../src/core/settings/parsePatternList';
import { expectProblem, seedSettings } from './seedSettings';

/** parsePatternList over both global lists, shaped like parseSettings' result. */
function parse(raw: Record<string, unknown>): { settings: { autoApprove: string[]; confirm: string[] }; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const autoApprove = parsePatternList(raw, 'autoApprove', problems);
  const confirm = parsePatternList(raw, 'confirm', problems);
  return { settings: { autoApprove, confirm }, problems };
}

describe('parsePatternList', () => {
  it('27. global autoApprove / confirm: a non-array falls back, a bad entry is skipped', () => {
    const { settings, problems } = parse({ ...seedSettings(), autoApprove: 'kb/*', confirm: ['coupons/*', 'oops', 12] });
    expectProblem(problems, 'mcpHost.autoApprove', ['expected an array of patterns', 'got string "kb/*"']);
    expectProblem(problems, 'mcpHost.confirm[1]', ['got string "oops"', 'ignored']);
    expectProblem(problems, 'mcpHost.confirm[2]', ['got number 12']);
    assert.deepEqual(settings.autoApprove, []);
    assert.deepEqual(settings.confirm, ['coupons/*']);
  });

  it('keeps a missing list empty and a good list as given', () => {
    const { settings, problems } = parse({ confirm: ['*/delete_*', 'coupons/issue_*'] });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, { autoApprove: [], confirm: ['*/delete_*', 'coupons/issue_*'] });
  });
});
