import * as assert from 'node:assert/strict';
import { ConnectionState } from '../../../../src/core/mcp/connectionState';

const states: ConnectionState[] = [
  ConnectionState.idle,
  ConnectionState.disabled,
  ConnectionState.untrusted,
  { kind: 'starting', attempt: 1 },
  { kind: 'connected', info: { capabilities: {} } },
  { kind: 'restarting', attempt: 2, delayMs: 1000, reason: 'exited' },
  { kind: 'error', message: 'boom' },
  { kind: 'needsSignIn', issuer: 'https://auth.example', message: 'sign in' },
  ConnectionState.stopped,
];

describe('ConnectionState predicates', () => {
  const table = (pred: (s: ConnectionState) => boolean) => states.filter(pred).map((s) => s.kind);

  it('each question has one answer per state', () => {
    assert.deepEqual(table(ConnectionState.isConnected), ['connected']);
    assert.deepEqual(table(ConnectionState.isRunning), ['starting', 'connected', 'restarting']);
    assert.deepEqual(table(ConnectionState.isSettling), ['starting', 'restarting']);
    assert.deepEqual(table(ConnectionState.hasTools), ['connected', 'restarting']);
    assert.deepEqual(table(ConnectionState.isFailed), ['error']);
    assert.deepEqual(table(ConnectionState.canStart), ['idle', 'error', 'needsSignIn', 'stopped']);
    assert.deepEqual(table(ConnectionState.startsWhenWanted), ['idle', 'untrusted', 'stopped']);
    assert.deepEqual(table(ConnectionState.needsStop), ['starting', 'connected', 'restarting', 'error', 'needsSignIn']);
    assert.deepEqual(table(ConnectionState.needsSignIn), ['needsSignIn']);
  });

  it('a failed server is not started again by a role change, but stopped when no longer used', () => {
    const failed: ConnectionState = { kind: 'error', message: 'x' };
    assert.equal(ConnectionState.startsWhenWanted(failed), false);
    assert.equal(ConnectionState.needsStop(failed), true);
  });

  it('a server waiting for sign-in holds no tools and is not started again by itself (no restart loop)', () => {
    const s: ConnectionState = { kind: 'needsSignIn', issuer: 'https://auth.example', message: 'x' };
    assert.equal(ConnectionState.hasTools(s), false);
    assert.equal(ConnectionState.isSettling(s), false, 'waiting for a person never holds up the chat');
    assert.equal(ConnectionState.startsWhenWanted(s), false);
    assert.equal(ConnectionState.isFailed(s), false);
    assert.equal(ConnectionState.signInIssuer(s), 'https://auth.example');
    assert.equal(ConnectionState.signInIssuer(ConnectionState.idle), undefined);
    assert.equal(ConnectionState.describe(s), 'not signed in (sign in with https://auth.example)');
  });

  it('describes every state in one line, and exposes failure and restart reason', () => {
    for (const s of states) assert.ok(ConnectionState.describe(s).length > 0);
    assert.equal(ConnectionState.failure({ kind: 'error', message: 'boom' }), 'boom');
    assert.equal(ConnectionState.failure(ConnectionState.idle), undefined);
    assert.equal(ConnectionState.restartReason({ kind: 'restarting', attempt: 2, delayMs: 1, reason: 'exited' }), 'exited');
  });
});
