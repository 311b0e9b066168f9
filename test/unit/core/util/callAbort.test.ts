/**
 * The per-call abort signal behaves as an AbortSignal wherever the SDK and the host use one:
 * checked side by side with Node's AbortController on the same sequence of operations.
 */
import * as assert from 'node:assert/strict';
import { CallAbortController } from '../../../../src/core/util/callAbort';

type Controller = { readonly signal: AbortSignal; abort(reason?: unknown): void };

function script(c: Controller): unknown[] {
  const seen: unknown[] = [];
  const a = () => seen.push('a');
  const b = () => seen.push('b');
  const once = () => seen.push('once');
  c.signal.addEventListener('abort', a);
  c.signal.addEventListener('abort', a); // the same listener twice: called once
  c.signal.addEventListener('abort', b);
  c.signal.addEventListener('abort', once, { once: true });
  c.signal.removeEventListener('abort', b);
  c.signal.addEventListener('other' as 'abort', () => seen.push('other'));
  c.signal.onabort = () => seen.push('onabort');
  seen.push(c.signal.aborted);
  assert.doesNotThrow(() => c.signal.throwIfAborted());
  c.abort('why');
  c.abort('again'); // no second event, the first reason stays
  seen.push(c.signal.aborted, c.signal.reason);
  assert.throws(() => c.signal.throwIfAborted(), (e) => e === 'why');
  c.signal.addEventListener('abort', () => seen.push('late')); // never called
  return seen;
}

describe('CallAbortController', () => {
  it('the same events, order and reason as AbortController', () => {
    assert.deepEqual(script(new CallAbortController()), script(new AbortController()));
  });

  it('abort() without a reason gives an AbortError, as AbortController does', () => {
    const ours = new CallAbortController();
    const theirs = new AbortController();
    ours.abort();
    theirs.abort();
    assert.equal((ours.signal.reason as DOMException).name, (theirs.signal.reason as DOMException).name);
    assert.equal((ours.signal.reason as DOMException).name, 'AbortError');
  });

  it('a listener that throws does not stop the others; its error is reported as uncaught, as with EventTarget', async () => {
    const c = new CallAbortController();
    const seen: string[] = [];
    c.signal.addEventListener('abort', () => {
      throw new Error('listener failed');
    });
    c.signal.addEventListener('abort', () => seen.push('second'));
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const uncaught = new Promise<Error>((resolve) => process.once('uncaughtException', resolve));
    try {
      c.abort();
      assert.deepEqual(seen, ['second']);
      assert.equal((await uncaught).message, 'listener failed');
    } finally {
      for (const l of listeners) process.on('uncaughtException', l);
    }
  });
});
