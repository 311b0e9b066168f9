/**
 * Argument rules through the router, against real SDK servers in this process: the decision order
 * (role → validate → rules → confirmation), the precedence table against the glob settings, what
 * the confirmer, the model and the audit are told, and that rules never widen a role.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { CallAuditRecord } from '../../../../src/core/audit/auditRecord';
import type { ConfirmationAnswer } from '../../../../src/core/calls/confirmer';
import type { HostSettings, RuleSettings } from '../../../../src/core/settings/hostSettings';
import { InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, RecordingConfirmer, role, settings, useTestEnv } from '../helpers';

function toolServer(name: string, tools: Record<string, z.ZodRawShape>): () => McpServer {
  return () => {
    const server = new McpServer({ name, version: '1.0.0' });
    for (const [tool, shape] of Object.entries(tools)) {
      server.registerTool(tool, { description: `${tool} of ${name}`, inputSchema: z.object(shape) }, async (args) => ({ content: [{ type: 'text', text: `${tool} ran with ${JSON.stringify(args)}` }] }));
    }
    return server;
  };
}

const ISSUE_RULES: RuleSettings[] = [
  { tools: ['files/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'confirm', reason: 'writes outside the workspace', setting: 'mcpHost.rules[0]' },
  { tools: ['payments/refund'], when: 'args.amount > 50', action: 'confirm', reason: 'refund over 50', setting: 'mcpHost.rules[1]' },
  { tools: ['mail/send'], when: "!args.to.all(a, a.endsWith('@acme.example'))", action: 'deny', reason: 'mail outside acme', setting: 'mcpHost.rules[2]' },
];

describe('McpHost: argument rules in the router', function () {
  this.timeout(20_000);
  const env = useTestEnv();
  let servers: InMemoryServers;
  let ws: string;

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-router-')));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  const start = async (answer: (tool: string) => ConfirmationAnswer, partial: Partial<HostSettings> = {}, extra: { assumeYes?: boolean } = {}) => {
    servers = new InMemoryServers({
      files: toolServer('files', { write_file: { path: z.string(), content: z.string() }, read_file: { path: z.string() } }),
      payments: toolServer('payments', { refund: { amount: z.number() } }),
      mail: toolServer('mail', { send: { to: z.array(z.string()) } }),
    });
    const confirmer = new RecordingConfirmer((req) => answer(req.tool));
    const audit = new MemorySink();
    const host = await env.started({
      settings: settings({ servers: ['files', 'payments', 'mail'].map((s) => servers.settings(s)), autoApprove: ['*/*'], rules: ISSUE_RULES, ...partial }),
      confirmer,
      auditSinks: [audit],
      workspaceFolder: ws,
      ...extra,
      ...memoryHostOptions(servers),
    });
    const calls = (records = audit.records) => records.filter((r): r is CallAuditRecord => r.kind === 'call');
    return { host, confirmer, calls: () => calls() };
  };

  it('the same tool: a write inside the workspace runs, one outside asks and names the rule; a refusal reaches the model', async () => {
    const { host, confirmer, calls } = await start(() => 'deny');
    const inside = await host.call({ name: 'files__write_file', args: { path: path.join(ws, 'a.txt'), content: 'x' } });
    assert.equal(inside.outcome, 'ok');
    assert.equal(inside.confirmedBy, 'policy');
    assert.equal(inside.rule, undefined);
    const outside = await host.call({ name: 'files__write_file', args: { path: `${ws}/../etc/passwd`, content: 'x' } });
    assert.equal(outside.outcome, 'denied');
    assert.deepEqual(confirmer.asked(), ['files__write_file']);
    assert.deepEqual(confirmer.requests[0].rule, { setting: 'mcpHost.rules[0]', action: 'confirm', reason: 'writes outside the workspace' });
    assert.match(outside.modelText, /denied the call .*asked because of rule mcpHost\.rules\[0\]: writes outside the workspace/);
    assert.deepEqual(servers.calls('files'), ['write_file'], 'the server saw only the first call');
    const [first, second] = calls();
    assert.equal(first.rule, undefined);
    assert.deepEqual(second.rule, { setting: 'mcpHost.rules[0]', action: 'confirm', reason: 'writes outside the workspace' });
    assert.equal(second.outcome, 'denied');
    assert.equal(second.confirmedBy, null);
  });

  it('deny: the server is not called, nobody is asked, the model and the audit get the reason and the index', async () => {
    const { host, confirmer, calls } = await start(() => 'once');
    const ok = await host.call({ name: 'mail__send', args: { to: ['a@acme.example'] } });
    assert.equal(ok.outcome, 'ok');
    const r = await host.call({ name: 'mail__send', args: { to: ['a@acme.example', 'eve@evil.example'] } });
    assert.equal(r.outcome, 'denied');
    assert.match(r.modelText, /refused by the host's policy \(rule mcpHost\.rules\[2\]: mail outside acme\)\. The server was not called/);
    assert.deepEqual(confirmer.asked(), []);
    assert.deepEqual(servers.calls('mail'), ['send']);
    assert.deepEqual(calls()[1].rule, { setting: 'mcpHost.rules[2]', action: 'deny', reason: 'mail outside acme' });
  });

  it('rules run after validation: invalid arguments never reach a condition', async () => {
    const { host, confirmer } = await start(() => 'once');
    assert.equal(host.snapshot().tool('payments', 'refund')?.argumentRules, true, 'the tree says rules apply');
    assert.equal(host.snapshot().tool('files', 'read_file')?.argumentRules, undefined);
    const r = await host.call({ name: 'payments__refund', args: { amount: 'lots' } });
    assert.equal(r.outcome, 'invalidArgs');
    assert.equal(r.rule, undefined);
    assert.deepEqual(confirmer.asked(), []);
  });

  it('a run-time failure asks (never allows) and is logged and audited with the error', async () => {
    const { host, confirmer, calls } = await start(() => 'once', {
      rules: [{ tools: ['payments/refund'], when: 'args.amount > 50 && args.currency == "EUR"', action: 'allow', reason: 'small EUR refunds', setting: 'mcpHost.rules[0]' }],
      autoApprove: [],
    });
    const r = await host.call({ name: 'payments__refund', args: { amount: 60 } });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.confirmedBy, 'user');
    assert.match(confirmer.requests[0].rule?.error ?? '', /No such key: currency/);
    assert.equal(host.log.matching(/rule mcpHost\.rules\[0\] \("small EUR refunds"\) failed/, 'warn').length, 1);
    assert.match(calls()[0].rule?.error ?? '', /No such key: currency/);
  });

  describe('precedence: deny > confirm > allow > autoApprove/confirm globs', () => {
    type Row = { globs: 'auto' | 'ask'; rule?: RuleSettings['action']; expect: 'runs' | 'asks' | 'denied' };
    const table: Row[] = [
      { globs: 'auto', expect: 'runs' },
      { globs: 'ask', expect: 'asks' },
      { globs: 'ask', rule: 'allow', expect: 'runs' },
      { globs: 'auto', rule: 'allow', expect: 'runs' },
      { globs: 'auto', rule: 'confirm', expect: 'asks' },
      { globs: 'ask', rule: 'confirm', expect: 'asks' },
      { globs: 'auto', rule: 'deny', expect: 'denied' },
      { globs: 'ask', rule: 'deny', expect: 'denied' },
    ];
    for (const row of table) {
      it(`globs say ${row.globs}, rule says ${row.rule ?? 'nothing'} → ${row.expect}`, async () => {
        const rules: RuleSettings[] = row.rule ? [{ tools: ['payments/refund'], when: 'args.amount > 50', action: row.rule, reason: 'big', setting: 'mcpHost.rules[0]' }] : [];
        // "ask" through the strongest glob form: a confirm glob that beats autoApprove.
        const { host, confirmer } = await start(() => 'once', { rules, autoApprove: ['*/*'], confirm: row.globs === 'ask' ? ['payments/refund'] : [] });
        const r = await host.call({ name: 'payments__refund', args: { amount: 75 } });
        const got = r.outcome === 'denied' ? 'denied' : confirmer.requests.length ? 'asks' : 'runs';
        assert.equal(got, row.expect);
        if (row.expect === 'runs') assert.equal(r.confirmedBy, 'policy');
        if (row.rule) assert.equal(r.rule?.action, row.rule);
        // The same call with arguments the condition does not match falls back to the globs.
        confirmer.requests.length = 0;
        await host.call({ name: 'payments__refund', args: { amount: 5 } });
        assert.equal(confirmer.requests.length ? 'asks' : 'runs', row.globs === 'auto' ? 'runs' : 'asks');
      });
    }
  });

  it('an allow rule never auto-approves a tool outside the role', async () => {
    const allowAll: RuleSettings = { tools: ['*/*'], action: 'allow', reason: 'everything', setting: 'mcpHost.rules[0]' };
    const { host, confirmer } = await start(() => 'once', {
      rules: [allowAll],
      autoApprove: [],
      roles: [role('reader', { tools: ['files/read_file'] })],
      activeRole: 'reader',
    });
    const hidden = await host.call({ name: 'files__write_file', args: { path: 'a', content: 'x' } });
    assert.equal(hidden.outcome, 'notFound');
    assert.equal(hidden.rule, undefined);
    const visible = await host.call({ name: 'files__read_file', args: { path: 'a' } });
    assert.equal(visible.confirmedBy, 'policy');
    assert.deepEqual(confirmer.asked(), []);
    assert.deepEqual(servers.calls('files'), ['read_file']);
  });

  it('a role\'s rules apply after the global ones, only in that role', async () => {
    const roleRule: RuleSettings = { tools: ['payments/refund'], when: 'args.amount > 10', action: 'deny', reason: 'interns refund little', setting: 'mcpHost.roles.intern.rules[0]' };
    const { host } = await start(() => 'once', { roles: [role('intern', { rules: [roleRule] }), role('lead')], activeRole: 'intern' });
    const r = await host.call({ name: 'payments__refund', args: { amount: 20 } });
    assert.equal(r.outcome, 'denied');
    assert.equal(r.rule?.setting, 'mcpHost.roles.intern.rules[0]');
    await host.setRole('lead');
    const lead = await host.call({ name: 'payments__refund', args: { amount: 20 } });
    assert.equal(lead.outcome, 'ok');
  });

  it('a rule\'s question is about these arguments: no session approval is taken from it or skips it', async () => {
    const { host, confirmer } = await start(() => 'session', { autoApprove: [] });
    const small = await host.call({ name: 'payments__refund', args: { amount: 5 } });
    assert.equal(small.confirmedBy, 'session', 'an ordinary question may allow for the session');
    const big = await host.call({ name: 'payments__refund', args: { amount: 500 } });
    assert.equal(big.confirmedBy, 'user', 'the session approval does not skip the rule, and "session" counts once');
    const big2 = await host.call({ name: 'payments__refund', args: { amount: 501 } });
    assert.equal(big2.confirmedBy, 'user');
    assert.deepEqual(confirmer.asked(), ['payments__refund', 'payments__refund', 'payments__refund']);
  });

  describe('nothing but a settings change turns a deny or a tool outside the role into a run (issue 25)', () => {
    const DENY_OUTSIDE: RuleSettings = { tools: ['files/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'deny', reason: 'writes outside the workspace', setting: 'mcpHost.rules[0]' };
    const unjudgeable = '%2e%2e/escaped.txt';

    it('a deny rule whose condition cannot be evaluated denies, with autoApprove and --yes, audited with the error', async () => {
      const { host, confirmer, calls } = await start(() => 'once', { rules: [DENY_OUTSIDE], autoApprove: ['*/*'] }, { assumeYes: true });
      const r = await host.call({ name: 'files__write_file', args: { path: unjudgeable, content: 'x' } });
      assert.equal(r.outcome, 'denied');
      assert.equal(r.confirmedBy, null);
      assert.match(r.modelText, /refused by the host's policy \(rule mcpHost\.rules\[0\]: writes outside the workspace — path .* under another/);
      assert.deepEqual(confirmer.asked(), []);
      assert.deepEqual(servers.calls('files'), []);
      assert.equal(calls()[0].outcome, 'denied');
      assert.equal(calls()[0].rule?.action, 'deny');
      assert.match(calls()[0].rule?.error ?? '', /inside .* under one reading and outside under another/);
      assert.equal(host.log.matching(/rule mcpHost\.rules\[0\] .* failed on a call of files\/write_file: .*; the call is denied/, 'warn').length, 1);
    });

    it('a session approval of the tool does not skip a deny rule, evaluated or failed', async () => {
      const { host, confirmer } = await start(() => 'session', { rules: [DENY_OUTSIDE], autoApprove: [] });
      const inside = await host.call({ name: 'files__write_file', args: { path: 'a.txt', content: 'x' } });
      assert.equal(inside.confirmedBy, 'session', 'the tool is now approved for the session');
      for (const p of [unjudgeable, '../escaped.txt']) {
        const r = await host.call({ name: 'files__write_file', args: { path: p, content: 'x' } });
        assert.equal(r.outcome, 'denied', p);
      }
      assert.deepEqual(confirmer.asked(), ['files__write_file'], 'asked once, for the first call only');
      assert.deepEqual(servers.calls('files'), ['write_file']);
    });

    it('a tool taken out of the role stays out: not its session approval, autoApprove or --yes brings it back', async () => {
      const writer = (exclude: string[]) => role('writer', { tools: ['files/*'], exclude });
      const { host, confirmer } = await start(() => 'session', { roles: [writer([])], activeRole: 'writer', autoApprove: [] });
      assert.equal((await host.call({ name: 'files__write_file', args: { path: 'a.txt', content: 'x' } })).confirmedBy, 'session');
      await host.applySettings(settings({ servers: ['files', 'payments', 'mail'].map((n) => servers.settings(n)), roles: [writer(['files/write_file'])], activeRole: 'writer', autoApprove: ['*/*'] }));
      const r = await host.call({ name: 'files__write_file', args: { path: 'b.txt', content: 'x' } });
      assert.equal(r.outcome, 'notFound');
      assert.deepEqual(confirmer.asked(), ['files__write_file']);
      assert.deepEqual(servers.calls('files'), ['write_file']);

      const yes = await start(() => 'once', { roles: [writer(['files/write_file'])], activeRole: 'writer', autoApprove: ['*/*'] }, { assumeYes: true });
      assert.equal((await yes.host.call({ name: 'files__write_file', args: { path: 'c.txt', content: 'x' } })).outcome, 'notFound');
      assert.deepEqual(servers.calls('files'), []);
    });
  });

  it('--yes answers a rule\'s question (recorded as "flag", with the rule)', async () => {
    const { host, confirmer } = await start(() => 'deny', {}, { assumeYes: true });
    const r = await host.call({ name: 'payments__refund', args: { amount: 500 } });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.confirmedBy, 'flag');
    assert.equal(r.rule?.reason, 'refund over 50');
    assert.deepEqual(confirmer.asked(), []);
    const denied = await host.call({ name: 'mail__send', args: { to: ['x@evil.example'] } });
    assert.equal(denied.outcome, 'denied', '--yes never overrides a deny');
  });
});
