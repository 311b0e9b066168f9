import * as assert from 'node:assert/strict';
import type { SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { parseAuditPath } from '../../../../src/core/settings/parseAuditPath';
import { expectProblem } from './seedSettings';

function parse(raw: Record<string, unknown>): { settings: { auditPath?: string }; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  return { settings: { auditPath: parseAuditPath(raw, problems) }, problems };
}

describe('parseAuditPath', () => {
  it('29. a bad audit path, flat or nested', () => {
    const flat = parse({ 'audit.path': 5 });
    expectProblem(flat.problems, 'mcpHost.audit.path', ['expected a non-empty string', 'got number 5']);
    assert.equal(flat.settings.auditPath, undefined);

    const nested = parse({ audit: { path: 'a.jsonl', rotate: true } });
    expectProblem(nested.problems, 'mcpHost.audit.rotate', 'unknown setting');
    assert.equal(nested.settings.auditPath, 'a.jsonl');

    const notObject = parse({ audit: 'a.jsonl' });
    expectProblem(notObject.problems, 'mcpHost.audit', ['expected an object', 'got string "a.jsonl"']);
  });

  it('prefers the flat key over the nested one, with a warning when they differ', () => {
    const both = parse({ 'audit.path': 'flat.jsonl', audit: { path: 'nested.jsonl' } });
    expectProblem(both.problems, 'mcpHost.audit.path', ['set twice with different values', 'using "flat.jsonl"'], 'warning');
    assert.equal(both.settings.auditPath, 'flat.jsonl');

    const same = parse({ 'audit.path': 'a.jsonl', audit: { path: 'a.jsonl' } });
    assert.deepEqual(same.problems, []);
    assert.equal(same.settings.auditPath, 'a.jsonl');
  });

  it('reports a bad nested path at its own setting path and keeps none', () => {
    const { settings, problems } = parse({ audit: { path: '' } });
    expectProblem(problems, 'mcpHost.audit.path', ['expected a non-empty string', 'got string ""', 'using the default (no audit file)']);
    assert.equal(settings.auditPath, undefined);
  });
});
