import * as assert from 'node:assert/strict';
import { ActivePolicies, PolicySet } from '../../../../src/core/policy/activePolicies';
import { RecordingLogger, role, settings } from '../helpers';

const servers = [
  { name: 'orders', type: 'stdio', enabled: true, command: 'x', args: [], env: {}, connectTimeoutMs: 1, timeoutMs: 500 },
  { name: 'kb', type: 'stdio', enabled: true, command: 'x', args: [], env: {}, connectTimeoutMs: 1 },
] as const;

describe('ActivePolicies', () => {
  it('an unknown role fails closed: no server, no tool, logged — never "every tool"', () => {
    const log = new RecordingLogger();
    const p = new PolicySet(settings({ servers: [...servers], roles: [role('support')] }), 'nope', {}, log);
    assert.equal(p.roleName, 'nope');
    assert.equal(p.usesServer('orders'), false);
    assert.equal(p.allows('orders', 'get'), false);
    assert.equal(log.matching(/role "nope" is not defined/, 'error').length, 1);
  });

  it('no role means every enabled server and tool; a role narrows it', () => {
    const s = settings({ servers: [...servers], roles: [role('support', { servers: ['kb'] })] });
    const p = new ActivePolicies(s, {}, new RecordingLogger());
    assert.equal(p.current.roleName, undefined);
    assert.equal(p.current.allows('orders', 'get'), true);
    p.setRole('support');
    assert.equal(p.current.roleName, 'support');
    assert.equal(p.current.usesServer('orders'), false);
    assert.equal(p.current.allows('kb', 'search'), true);
    assert.throws(() => p.setRole('nope'), /no role named "nope"/);
  });

  it('a settings change brings back the configured role (or the CLI override)', () => {
    const s = settings({ servers: [...servers], roles: [role('a'), role('b')], activeRole: 'a' });
    const p = new ActivePolicies(s, {}, new RecordingLogger());
    p.setRole('b');
    assert.equal(p.current.roleName, 'b');
    p.update(s);
    assert.equal(p.current.roleName, 'a');
    const cli = new ActivePolicies(s, { role: '' }, new RecordingLogger());
    assert.equal(cli.current.roleName, undefined, '--role "" means no role');
    cli.update(s);
    assert.equal(cli.current.roleName, undefined);
  });

  it('per-call limits: the server timeout, the global one, and the CLI override over both', () => {
    const s = settings({ servers: [...servers], timeoutMs: 2000 });
    assert.equal(new PolicySet(s, undefined, {}, new RecordingLogger()).timeoutFor('orders'), 500);
    assert.equal(new PolicySet(s, undefined, {}, new RecordingLogger()).timeoutFor('kb'), 2000);
    assert.equal(new PolicySet(s, undefined, { timeoutMs: 7 }, new RecordingLogger()).timeoutFor('orders'), 7);
  });

  it('session approvals survive a settings change and a role switch, keyed by role', () => {
    const s = settings({ servers: [...servers], roles: [role('a'), role('b')] });
    const p = new ActivePolicies(s, {}, new RecordingLogger());
    p.approvals.add('a', 'orders', 'get');
    p.update(s);
    p.setRole('b');
    assert.equal(p.approvals.has('a', 'orders', 'get'), true);
    assert.equal(p.approvals.has('b', 'orders', 'get'), false);
  });
});
