import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { expectProblem } from './seedSettings';

const servers = { files: { command: 'node' }, mail: { command: 'node' } };

describe('parseRules (mcpHost.rules and a role\'s rules)', () => {
  it('reads the rules of the issue, global first, each with the path that names it', () => {
    const { settings, problems } = parseSettings({
      servers,
      rules: [{ tools: ['files/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'confirm', reason: 'writes outside the workspace' }],
      roles: { ops: { rules: [{ tools: ['mail/send'], when: "!args.to.all(a, a.endsWith('@acme.example'))", action: 'deny', reason: 'mail outside acme' }] } },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings.rules, [
      { tools: ['files/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'confirm', reason: 'writes outside the workspace', setting: 'mcpHost.rules[0]' },
    ]);
    assert.equal(settings.roles[0].rules?.[0].setting, 'mcpHost.roles.ops.rules[0]');
    assert.equal(settings.roles[0].rules?.[0].action, 'deny');
  });

  it('a condition that does not compile is an error at its exact path with the CEL error; the rule stays, cautiously', () => {
    const { settings, problems } = parseSettings({
      servers,
      rules: [
        { tools: ['files/*'], when: 'args.path.startsWith(', action: 'allow', reason: 'r0' },
        { tools: ['mail/*'], when: 'nope > 1', action: 'deny', reason: 'r1' },
        { tools: ['mail/*'], when: 'args.n + 1', action: 'confirm', reason: 'r2' },
        { tools: ['mail/*'], when: 'isWithin(args.path)', action: 'confirm', reason: 'r3' },
      ],
    });
    expectProblem(problems, 'mcpHost.rules[0].when', ['does not compile', 'Unexpected token: EOF', 'column 22', 'asks before every call of its tools']);
    expectProblem(problems, 'mcpHost.rules[1].when', ['Unknown variable: nope', 'column 1', 'denies every call']);
    expectProblem(problems, 'mcpHost.rules[2].when', ['must be true or false', 'int']);
    expectProblem(problems, 'mcpHost.rules[3].when', ['no matching overload', 'isWithin']);
    assert.equal(settings.rules?.length, 4);
    assert.ok(settings.rules?.every((r) => r.broken));
  });

  it('a malformed entry is reported per field and kept as a broken rule; unusable tools mean every tool', () => {
    const { settings, problems } = parseSettings({
      servers,
      roles: {
        ops: {
          rules: [
            { tools: ['mail/send'], action: 'dney', reason: 'typo' },
            { tools: 'mail/send', action: 'deny' },
            { tools: ['mail/send'], when: 'true', action: 'allow', reason: 'r', extra: 1 },
          ],
        },
      },
    });
    expectProblem(problems, 'mcpHost.roles.ops.rules[0].action', ['expected "allow", "confirm" or "deny"', 'asks before every call of its tools']);
    expectProblem(problems, 'mcpHost.roles.ops.rules[1].tools', ['expected an array of patterns', 'denies every call of every tool']);
    expectProblem(problems, 'mcpHost.roles.ops.rules[1].reason', 'missing');
    expectProblem(problems, 'mcpHost.roles.ops.rules[2].extra', 'unknown key "extra"');
    const rules = settings.roles.find((r) => r.name === 'ops')?.rules ?? [];
    assert.deepEqual(
      rules.map((r) => [r.tools, r.action, !!r.broken]),
      [
        [['mail/send'], 'confirm', true],
        [['*/*'], 'deny', true],
        [['mail/send'], 'confirm', true],
      ],
    );
    assert.equal(settings.roles.length, 1, 'the role itself still loads');
  });

  it('rules that are not a list: every call asks until fixed', () => {
    const { settings, problems } = parseSettings({ servers, rules: { tools: ['*/*'] } });
    expectProblem(problems, 'mcpHost.rules', ['expected an array of rules', 'every call asks']);
    assert.deepEqual(settings.rules?.map((r) => [r.tools, r.action]), [[['*/*'], 'confirm']]);
  });

  it('maxTools and maxToolTokens: global defaults, per-role values, bad values fall back', () => {
    const ok = parseSettings({ servers, maxTools: 40, maxToolTokens: 8000, roles: { small: { maxTools: 5, maxToolTokens: 0 } } });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.settings.toolBudget, { maxTools: 40, maxToolTokens: 8000 });
    assert.equal(ok.settings.roles[0].maxTools, 5);
    assert.equal(ok.settings.roles[0].maxToolTokens, 0);
    const bad = parseSettings({ servers, maxTools: 0, maxToolTokens: -1 });
    expectProblem(bad.problems, 'mcpHost.maxTools', ['expected a positive integer', 'using the default 128']);
    expectProblem(bad.problems, 'mcpHost.maxToolTokens', ['0 for no limit', 'using the default 0 (no limit)']);
    assert.equal(bad.settings.toolBudget, undefined);
  });
});
