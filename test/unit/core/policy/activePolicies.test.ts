/**
 * Behaviour 4: a role sees, starts and may call only its servers and tools; outside the role looks
 * exactly like an unknown tool.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { RecordingConfirmer, role, settings, stateKind, useTestEnv, loaded } from '../helpers';

describe('McpHost: role filter', function () {
  this.timeout(20_000);
  const env = useTestEnv();


  it('the role sees only its tools, a server outside the role is never spawned, and calls are filtered too', async () => {
    const confirmer = new RecordingConfirmer();
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow'), env.stdio('dynamic', 'dynamic')],
        roles: [role('support', { servers: ['basic', 'dynamic'], tools: ['basic/*', 'dynamic/alpha'], exclude: ['basic/fail', 'basic/secret_*'] })],
        activeRole: 'support',
        autoApprove: ['*/*'],
      }),
      confirmer,
    });
    assert.equal(host.snapshot().role, 'support');
    assert.equal(stateKind(host, 'slow'), 'idle');
    assert.equal(fs.existsSync(env.logOf('slow')), false, 'the slow server was never started');
    assert.deepEqual(
      host.snapshot().exposed.map((t) => t.entry.name),
      ['basic__echo', 'basic__add', 'basic__noop', 'basic__wait', 'basic__image', 'basic__resource_link', 'basic__embedded_resource', 'dynamic__alpha'],
    );
    // The registry knows excluded tools (connect to all tools) but the model never sees them.
    assert.ok(loaded(host).some((t) => t.exposedName === 'basic__fail' && !t.visible));
    assert.ok(loaded(host).some((t) => t.exposedName === 'dynamic__control' && !t.visible));

    const unknown = await host.call({ name: 'basic__nonexistent', args: { reason: 'x' } });
    for (const name of ['basic__fail', 'dynamic__control', 'slow__sleep']) {
      const r = await host.call({ name, args: { reason: 'x' } });
      assert.equal(r.outcome, unknown.outcome, name);
      assert.equal(r.isError, unknown.isError);
      assert.equal(r.confirmedBy, unknown.confirmedBy);
      assert.equal(r.server, undefined, 'nothing about the hidden tool leaks');
      assert.equal(r.tool, undefined);
      assert.deepEqual(r.content, unknown.content);
      assert.equal(r.modelText, unknown.modelText.replace('basic__nonexistent', name), 'same text as an unknown tool');
      assert.deepEqual(r.parts, [{ type: 'text', text: r.modelText }]);
    }
    assert.ok(!env.events('basic').some((e) => e.event === 'call'), 'the excluded tool never reached the server');
    assert.ok(!env.events('dynamic').some((e) => e.event === 'call'));
    assert.equal(confirmer.requests.length, 0, 'nor was the user asked');

    assert.equal((await host.call({ name: 'dynamic__alpha' })).outcome, 'ok');
    assert.equal((await host.call({ name: 'basic__echo', args: { text: 'in role' } })).modelText, 'echo: in role');
  });

  it('a role switch changes what is visible and callable at once', async () => {
    const host = await env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic')],
        roles: [role('reader', { tools: ['basic/echo'] }), role('all')],
        activeRole: 'reader',
        autoApprove: ['*/*'],
      }),
    });
    assert.deepEqual(
      host.snapshot().exposed.map((t) => t.entry.name),
      ['basic__echo'],
    );
    assert.equal((await host.call({ name: 'basic__add', args: { a: 1, b: 2 } })).outcome, 'notFound');
    await host.setRole('all');
    assert.equal(host.snapshot().exposed.length, 9);
    assert.equal((await host.call({ name: 'basic__add', args: { a: 1, b: 2 } })).outcome, 'ok');
    await assert.rejects(host.setRole('nope'), /no role named "nope"/);
  });

  it('an unknown active role fails closed: nothing starts, nothing is offered, an error is logged', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic')], activeRole: 'ghost', autoApprove: ['*/*'] }) });
    assert.equal(host.log.matching(/role "ghost" is not defined/, 'error').length, 1);
    assert.equal(stateKind(host, 'basic'), 'idle');
    assert.equal(fs.existsSync(env.logOf('basic')), false, 'never spawned');
    assert.deepEqual(host.snapshot().exposed, []);
    assert.equal((await host.call({ name: 'basic__echo', args: { text: 'x' } })).outcome, 'notFound');
  });
});
