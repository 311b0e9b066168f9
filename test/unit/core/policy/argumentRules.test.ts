/**
 * Argument rules on their own: the three forms of the issue (a path test, a number test, a list
 * macro), run-time failures (missing field, wrong type), broken rules, and precedence among rules.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArgumentRules } from '../../../../src/core/policy/argumentRules';
import type { RuleSettings } from '../../../../src/core/settings/hostSettings';
import { RecordingLogger } from '../helpers';

function rule(partial: Partial<RuleSettings> & Pick<RuleSettings, 'action'>, index = 0): RuleSettings {
  return { tools: ['*/*'], reason: `reason ${index}`, setting: `mcpHost.rules[${index}]`, ...partial };
}

describe('ArgumentRules', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-ws-')));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  const ISSUE_RULES = (): RuleSettings[] => [
    rule({ tools: ['filesystem/write_file', 'filesystem/edit_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'confirm', reason: 'writes outside the workspace' }, 0),
    rule({ tools: ['payments/refund'], when: 'args.amount > 50', action: 'confirm', reason: 'refund over 50' }, 1),
    rule({ tools: ['mail/send'], when: "!args.to.all(a, a.endsWith('@acme.example'))", action: 'deny', reason: 'mail outside acme' }, 2),
  ];
  const rules = (list: RuleSettings[], logger = new RecordingLogger()) => new ArgumentRules(list, { workspaceFolder: ws, role: 'ops' }, logger);

  it('a path rule: writes inside the workspace match nothing, writes outside ask', () => {
    const r = rules(ISSUE_RULES());
    assert.deepEqual(r.judge('filesystem', 'write_file', { path: path.join(ws, 'a.txt'), content: '' }), {});
    assert.deepEqual(r.judge('filesystem', 'write_file', { path: 'notes/a.txt' }), {}, 'relative: inside the workspace');
    const out = r.judge('filesystem', 'edit_file', { path: `${ws}/../etc/passwd` });
    assert.equal(out.action, 'confirm');
    assert.deepEqual(out.rule, { setting: 'mcpHost.rules[0]', action: 'confirm', reason: 'writes outside the workspace' });
    assert.deepEqual(r.judge('filesystem', 'read_file', { path: '/etc/passwd' }), {}, 'a tool the rule does not name');
  });

  it('a number rule: 50 runs, 50.5 and 75 ask (JSON numbers compare with int literals)', () => {
    const r = rules(ISSUE_RULES());
    assert.deepEqual(r.judge('payments', 'refund', { amount: 50 }), {});
    assert.equal(r.judge('payments', 'refund', { amount: 50.5 }).action, 'confirm');
    assert.equal(r.judge('payments', 'refund', { amount: 75 }).rule?.reason, 'refund over 50');
  });

  it('a list macro: every recipient at acme runs, one outside is denied', () => {
    const r = rules(ISSUE_RULES());
    assert.deepEqual(r.judge('mail', 'send', { to: ['a@acme.example', 'b@acme.example'] }), {});
    const denied = r.judge('mail', 'send', { to: ['a@acme.example', 'eve@evil.example'] });
    assert.deepEqual(denied, { action: 'deny', rule: { setting: 'mcpHost.rules[2]', action: 'deny', reason: 'mail outside acme' } });
    assert.deepEqual(r.judge('mail', 'send', { to: [] }), {}, 'all() of nothing is true');
  });

  it('run-time failures fail closed and are logged: missing field, wrong type, wrong element type, unjudgeable path', () => {
    const logger = new RecordingLogger();
    const r = rules(ISSUE_RULES(), logger);
    // A confirm rule that fails asks; the deny rule (mail/send) that fails denies.
    const cases: [string, string, Record<string, unknown>, RegExp, 'confirm' | 'deny'][] = [
      ['payments', 'refund', {}, /No such key: amount/, 'confirm'],
      ['payments', 'refund', { amount: '75' }, /no such overload/, 'confirm'],
      ['mail', 'send', { to: 'eve@evil.example' }, /cannot be range of a comprehension/, 'deny'],
      ['mail', 'send', { to: [42] }, /no matching overload/, 'deny'],
      ['filesystem', 'write_file', { path: 42 }, /no matching overload/, 'confirm'],
      ['filesystem', 'write_file', { path: `${ws}/%2e%2e/etc/passwd` }, /one reading and outside under another/, 'confirm'],
    ];
    for (const [server, tool, args, error, action] of cases) {
      const ruling = r.judge(server, tool, args);
      assert.equal(ruling.action, action, `${server}/${tool} ${JSON.stringify(args)}`);
      assert.match(ruling.rule?.error ?? '', error);
    }
    assert.equal(logger.matching(/failed on a call of .*; the call asks for confirmation/, 'warn').length, 4);
    assert.equal(logger.matching(/failed on a call of mail\/send: .*; the call is denied/, 'warn').length, 2);
    assert.match(logger.lines[0].message, /rule mcpHost\.rules\[1\] \("refund over 50"\) failed on a call of payments\/refund: No such key: amount/);
  });

  it('a deny rule that fails at run time denies (fails closed), names the error and logs it', () => {
    const logger = new RecordingLogger();
    const r = rules([rule({ tools: ['mail/send'], when: "args.to.exists(a, !a.endsWith('@acme.example'))", action: 'deny' })], logger);
    const ruling = r.judge('mail', 'send', {});
    assert.equal(ruling.action, 'deny');
    assert.equal(ruling.rule?.action, 'deny');
    assert.match(ruling.rule?.error ?? '', /No such key: to/);
    assert.equal(logger.matching(/rule mcpHost\.rules\[0\] \("reason 0"\) failed on a call of mail\/send: .*; the call is denied/, 'warn').length, 1);
  });

  it('a deny path rule denies every path isWithin cannot judge, and every argument that is not a path', () => {
    const r = rules([rule({ tools: ['filesystem/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'deny' })]);
    const unjudgeable: unknown[] = ['%2e%2e/x', '%252e%252e/x', 'sub\\..\\..\\x', 'x\u0000/../../y', '', 42, ['a'], { p: 'a' }, null, true];
    for (const p of unjudgeable) assert.equal(r.judge('filesystem', 'write_file', { path: p }).action, 'deny', JSON.stringify(p));
    assert.equal(r.judge('filesystem', 'write_file', {}).action, 'deny', 'a missing argument');
    assert.deepEqual(r.judge('filesystem', 'write_file', { path: 'notes/a.txt' }), {}, 'a plain path inside still matches nothing');
  });

  it('a condition that is not boolean at run time fails (dyn result)', () => {
    const r = rules([rule({ when: 'args.flag', action: 'allow' })]);
    assert.equal(r.judge('s', 't', { flag: true }).action, 'allow');
    const ruling = r.judge('s', 't', { flag: 'yes' });
    assert.equal(ruling.action, 'confirm');
    assert.match(ruling.rule?.error ?? '', /not true or false/);
  });

  it('server, tool, role and workspaceFolder are variables; host functions urlHost and canonicalPath work', () => {
    const r = rules([
      rule({ tools: ['web/*'], when: "server == 'web' && tool == 'fetch' && role == 'ops' && urlHost(args.url) != 'docs.acme.example'", action: 'deny' }, 0),
      rule({ tools: ['files/*'], when: "canonicalPath(args.path).startsWith(workspaceFolder + '/secrets')", action: 'deny' }, 1),
    ]);
    assert.deepEqual(r.judge('web', 'fetch', { url: 'https://docs.acme.example/x' }), {});
    assert.equal(r.judge('web', 'fetch', { url: 'https://docs.acme.example@evil.example/' }).action, 'deny', 'userinfo does not fool urlHost');
    assert.equal(r.judge('files', 'read', { path: 'src/../secrets/key' }).action, 'deny');
    assert.deepEqual(r.judge('files', 'read', { path: 'src/key' }), {});
  });

  it('precedence among matching rules: deny > confirm > allow, the first of the strongest names the reason', () => {
    const table: [actions: RuleSettings['action'][], expected: RuleSettings['action'] | undefined, index: number | undefined][] = [
      [[], undefined, undefined],
      [['allow'], 'allow', 0],
      [['confirm'], 'confirm', 0],
      [['deny'], 'deny', 0],
      [['allow', 'confirm'], 'confirm', 1],
      [['confirm', 'allow'], 'confirm', 0],
      [['allow', 'deny'], 'deny', 1],
      [['deny', 'confirm'], 'deny', 0],
      [['allow', 'confirm', 'deny'], 'deny', 2],
      [['confirm', 'confirm'], 'confirm', 0],
      [['allow', 'allow'], 'allow', 0],
    ];
    for (const [actions, expected, index] of table) {
      const r = rules(actions.map((action, i) => rule({ when: 'args.x > 0', action }, i)));
      const ruling = r.judge('s', 't', { x: 1 });
      assert.equal(ruling.action, expected, actions.join(' + '));
      assert.equal(ruling.rule?.setting, index === undefined ? undefined : `mcpHost.rules[${index}]`, actions.join(' + '));
    }
  });

  it('a rule whose condition is false does not take part; one without a condition always does', () => {
    const r = rules([rule({ when: 'args.x > 5', action: 'deny' }, 0), rule({ action: 'allow' }, 1)]);
    assert.equal(r.judge('s', 't', { x: 1 }).action, 'allow');
    assert.equal(r.judge('s', 't', { x: 9 }).action, 'deny');
  });

  it('a run-time failure of an allow or confirm rule outranks an allow (it asks) but not a deny', () => {
    const r = rules([rule({ action: 'allow' }, 0), rule({ when: 'args.missing > 1', action: 'allow' }, 1)]);
    assert.equal(r.judge('s', 't', {}).action, 'confirm');
    const d = rules([rule({ when: 'args.missing > 1', action: 'allow' }, 0), rule({ action: 'deny' }, 1)]);
    assert.equal(d.judge('s', 't', {}).action, 'deny');
  });

  it('broken rules are never looser than written: deny stays deny, the rest ask', () => {
    const r = rules([
      rule({ tools: ['a/*'], action: 'deny', broken: 'bad' }, 0),
      rule({ tools: ['b/*'], action: 'allow', broken: 'bad' }, 1),
      rule({ tools: ['c/*'], when: 'nope(', action: 'deny' }, 2),
      rule({ tools: ['d/*'], when: 'args.x +', action: 'allow' }, 3),
    ]);
    assert.equal(r.judge('a', 'x', {}).action, 'deny');
    assert.equal(r.judge('b', 'x', {}).action, 'confirm');
    assert.equal(r.judge('c', 'x', {}).action, 'deny', 'a condition that does not compile');
    const d = r.judge('d', 'x', { x: 1 });
    assert.equal(d.action, 'confirm');
    assert.match(d.rule?.error ?? '', /does not compile/);
    assert.deepEqual(r.judge('e', 'x', {}), {});
  });

  it('globs pick the tools; covers() tells whether any rule names a tool', () => {
    const r = rules(ISSUE_RULES());
    assert.equal(r.covers('filesystem', 'write_file'), true);
    assert.equal(r.covers('filesystem', 'read_file'), false);
    assert.equal(r.size, 3);
  });

  it('arguments cannot reach JavaScript internals', () => {
    const r = rules([rule({ when: "has(args.constructor) || has(args.__proto__) || 'toString' in args", action: 'deny' })]);
    assert.deepEqual(r.judge('s', 't', {}), {});
  });
});
