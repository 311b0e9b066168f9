/**
 * Behaviour 5: the host's own configuration decides what needs the user's yes; annotations are
 * shown, never trusted; answers once / session / deny; failures to ask deny; one question at a time.
 */
import * as assert from 'node:assert/strict';
import type { ConfirmationAnswer } from '../../../../src/core/calls/confirmer';
import { basicServer, InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, RecordingConfirmer, role, settings, sleep, useTestEnv, waitFor } from '../helpers';

describe('McpHost: confirmation policy', function () {
  this.timeout(20_000);


  describe('through the router, against in-process servers', () => {
    const env = useTestEnv();
    let servers: InMemoryServers;

    /** A fresh host with the basic server in this process, the confirmer's answers and the policy. */
    const start = async (answer: RecordingConfirmer['answer'], partial: Parameters<typeof settings>[0] = {}) => {
      servers = new InMemoryServers({ basic: () => basicServer() });
      const confirmer = new RecordingConfirmer(answer);
      const host = await env.started({ settings: settings({ servers: [servers.settings('basic')], ...partial }), confirmer, ...memoryHostOptions(servers) });
      return { host, confirmer };
    };
    /** Calls the server has received so far. */
    const serverCalls = () => servers.calls('basic').length;

    it('asks by default and shows the tool, arguments and the server’s annotations', async () => {
      const { host, confirmer } = await start(() => 'once');
      const r = await host.call({ name: 'basic__fail', args: { reason: 'why' } });
      assert.equal(r.outcome, 'isError');
      assert.equal(r.confirmedBy, 'user');
      assert.equal(confirmer.requests.length, 1);
      const req = confirmer.requests[0];
      assert.equal(req.name, 'basic__fail');
      assert.equal(req.server, 'basic');
      assert.equal(req.tool, 'fail');
      assert.deepEqual(req.args, { reason: 'why' });
      assert.deepEqual(req.annotations, { destructiveHint: true });
      assert.match(req.description!, /Always fails/);
      assert.equal(req.role, undefined);
    });

    it('readOnlyHint never auto-approves', async () => {
      const { host, confirmer } = await start(() => 'once');
      const view = host.snapshot().tool('basic', 'echo')!;
      assert.equal(view.tool.annotations?.readOnlyHint, true);
      assert.equal(view.rule, 'ask');
      await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.deepEqual(confirmer.asked(), ['basic__echo']);
    });

    it('autoApprove (global and role) runs without asking; confirm beats autoApprove', async () => {
      const { host, confirmer } = await start(() => 'once', {
        autoApprove: ['basic/echo'],
        confirm: ['basic/fail'],
        roles: [role('ops', { autoApprove: ['basic/*'] })],
        activeRole: 'ops',
      });
      const echo = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(echo.confirmedBy, 'policy');
      const add = await host.call({ name: 'basic__add', args: { a: 1, b: 1 } });
      assert.equal(add.confirmedBy, 'policy', 'role autoApprove');
      const fail = await host.call({ name: 'basic__fail', args: {} });
      assert.equal(fail.confirmedBy, 'user', 'confirm wins over the role’s autoApprove');
      assert.deepEqual(confirmer.asked(), ['basic__fail']);
      assert.deepEqual(
        Object.fromEntries(host.snapshot().exposed.map((t) => [t.entry.tool.name, t.rule])),
        { echo: 'auto', add: 'auto', noop: 'auto', wait: 'auto', image: 'auto', resource_link: 'auto', embedded_resource: 'auto', fail: 'ask', secret_echo: 'auto' },
      );
    });

    it('"session" is remembered per role and tool; another role still asks; "once" asks again', async () => {
      const { host, confirmer } = await start((req) => (req.tool === 'echo' ? 'session' : 'once'), { roles: [role('a'), role('b')], activeRole: 'a' });
      const first = await host.call({ name: 'basic__echo', args: { text: '1' } });
      assert.equal(first.confirmedBy, 'session');
      const second = await host.call({ name: 'basic__echo', args: { text: '2' } });
      assert.equal(second.confirmedBy, 'session');
      assert.equal(second.outcome, 'ok');
      assert.deepEqual(confirmer.asked(), ['basic__echo'], 'asked once for the session');

      await host.call({ name: 'basic__add', args: { a: 1, b: 2 } });
      await host.call({ name: 'basic__add', args: { a: 1, b: 2 } });
      assert.deepEqual(confirmer.asked(), ['basic__echo', 'basic__add', 'basic__add'], '"once" is once');

      await host.setRole('b');
      await host.call({ name: 'basic__echo', args: { text: '3' } });
      assert.equal(confirmer.requests.at(-1)!.role, 'b');
      assert.equal(confirmer.requests.length, 4, 'another role asks again');
      await host.setRole('a');
      await host.call({ name: 'basic__echo', args: { text: '4' } });
      assert.equal(confirmer.requests.length, 4, 'role a still remembers');
    });

    it('deny: outcome denied, the server is not called', async () => {
      const { host } = await start(() => 'deny');
      const before = serverCalls();
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(r.outcome, 'denied');
      assert.match(r.modelText, /user denied the call to tool "basic__echo"/);
      assert.equal(serverCalls(), before, 'the server was not called');
    });

    it('a confirmer that throws (e.g. a dialog refused in tests) counts as a denial', async () => {
      const before = serverCalls();
      const { host } = await start(() => {
        throw new Error('DialogService: refused to show dialog in tests');
      });
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(r.outcome, 'denied');
      assert.equal(r.confirmedBy, null);
      assert.equal(serverCalls(), before, 'the server was not called');
      assert.equal(host.log.matching(/treated as denied: DialogService/, 'warn').length, 1);
    });

    it('confirmations are serialized: never two open questions at once', async () => {
      const answers: ((a: ConfirmationAnswer) => void)[] = [];
      const { host, confirmer } = await start(() => new Promise<ConfirmationAnswer>((resolve) => answers.push(resolve)));
      const calls = [
        host.call({ name: 'basic__echo', args: { text: 'a' } }),
        host.call({ name: 'basic__add', args: { a: 1, b: 2 } }),
        host.call({ name: 'basic__noop' }),
      ];
      await waitFor('the first question', () => answers.length === 1);
      await sleep(100);
      assert.equal(confirmer.open, 1, 'the others wait their turn');
      answers[0]('once');
      await waitFor('the second question', () => answers.length === 2);
      assert.equal(confirmer.open, 1);
      answers[1]('deny');
      await waitFor('the third question', () => answers.length === 3);
      answers[2]('once');
      const results = await Promise.all(calls);
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['ok', 'denied', 'ok'],
      );
      assert.equal(confirmer.maxOpen, 1);
    });

    it('a parallel call of a tool allowed for the session while it waited does not ask again', async () => {
      const { host, confirmer } = await start(async () => {
        await sleep(50);
        return 'session' as const;
      });
      const results = await Promise.all([1, 2, 3].map((i) => host.call({ name: 'basic__echo', args: { text: String(i) } })));
      assert.deepEqual(
        results.map((r) => [r.outcome, r.confirmedBy]),
        [
          ['ok', 'session'],
          ['ok', 'session'],
          ['ok', 'session'],
        ],
      );
      assert.equal(confirmer.requests.length, 1);
    });

    it('aborting while waiting for confirmation cancels the call', async () => {
      const { host, confirmer } = await start(() => new Promise<ConfirmationAnswer>(() => undefined));
      const ac = new AbortController();
      const pending = host.call({ name: 'basic__echo', args: { text: 'x' }, signal: ac.signal });
      await waitFor('the question', () => confirmer.requests.length === 1);
      ac.abort();
      // The confirmer never answers: the call must still end.
      const r = await Promise.race([pending, sleep(2000).then(() => undefined)]);
      assert.ok(r, 'the call ends without an answer');
      assert.equal(r.outcome, 'cancelled');
    });
  });

  describe('each on its own host', () => {
    const env = useTestEnv();

    it('assumeYes (CLI --yes) runs without asking, recorded as confirmed by "flag"', async () => {
      const confirmer = new RecordingConfirmer(() => 'deny');
      const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')] }), confirmer, assumeYes: true });
      const r = await host.call({ name: 'basic__echo', args: { text: 'x' } });
      assert.equal(r.confirmedBy, 'flag');
      assert.equal(confirmer.requests.length, 0);
    });
  });
});
