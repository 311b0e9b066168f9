/**
 * Deadlines: many timeouts on one timer. Real timers, short times; what is checked is the order,
 * that nothing fires early or twice, that removed deadlines never fire, and that an idle Deadlines
 * does not keep the process alive while a waiting one does.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Deadlines } from '../../../../src/core/util/deadlines';
import { sleep } from '../helpers';

describe('Deadlines', () => {
  it('fires each deadline once, not before its time, earliest first, whatever the order they were added in', async () => {
    const d = new Deadlines();
    const fired: { name: string; late: number }[] = [];
    const start = performance.now();
    const add = (name: string, ms: number) => d.add(ms, () => fired.push({ name, late: performance.now() - start - ms }));
    add('c', 90);
    add('a', 30);
    add('b', 60);
    await sleep(150);
    assert.deepEqual(
      fired.map((f) => f.name),
      ['a', 'b', 'c'],
    );
    // A timer may run up to a millisecond before performance.now() reaches its time: never more.
    for (const f of fired) assert.ok(f.late > -1, `${f.name} fired ${-f.late} ms early`);
    assert.equal(d.size, 0);
  });

  it('never fires a removed deadline, and the others still fire', async () => {
    const d = new Deadlines();
    const fired: string[] = [];
    const first = d.add(20, () => fired.push('first'));
    d.add(40, () => fired.push('second'));
    d.remove(first);
    d.remove(first); // twice: nothing
    await sleep(80);
    assert.deepEqual(fired, ['second']);
  });

  it('fires a deadline added later with a shorter time at its own time, not at the earlier-armed one', async () => {
    const d = new Deadlines();
    const fired: string[] = [];
    const long = d.add(5000, () => fired.push('long'));
    d.add(20, () => fired.push('short'));
    await sleep(80);
    assert.deepEqual(fired, ['short']);
    d.remove(long);
    assert.equal(d.size, 0);
  });

  it('a deadline added from a firing one fires too; a throwing one does not stop the others', async () => {
    const d = new Deadlines();
    const fired: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    // mocha's own handler would fail the test: ours alone while the throw is expected.
    const mochaHandlers = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      d.add(10, () => {
        fired.push('one');
        d.add(10, () => fired.push('added'));
      });
      d.add(10, () => {
        throw new Error('boom');
      });
      d.add(10, () => fired.push('two'));
      await sleep(80);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      for (const h of mochaHandlers) process.on('uncaughtException', h);
    }
    assert.deepEqual(fired, ['one', 'two', 'added']);
    assert.equal(uncaught.length, 1);
    assert.match(String(uncaught[0]), /boom/);
  });

  it('keeps the process alive while a deadline waits, and not once every deadline is removed', () => {
    const mod = join(__dirname, '..', '..', '..', '..', 'src', 'core', 'util', 'deadlines.ts');
    const run = (body: string) =>
      spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', `const { Deadlines } = require(${JSON.stringify(mod)}); const d = new Deadlines(); ${body}`], {
        encoding: 'utf8',
        timeout: 20_000,
      });
    const waiting = run(`const t0 = Date.now(); d.add(300, () => console.log('fired after', Date.now() - t0));`);
    assert.equal(waiting.status, 0, waiting.stderr);
    assert.match(waiting.stdout, /fired after \d+/);
    const t0 = Date.now();
    const removed = run(`const x = d.add(60000, () => console.log('fired')); setTimeout(() => d.remove(x), 50);`);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(removed.stdout, '');
    assert.ok(Date.now() - t0 < 15_000, 'the process waited for a removed deadline');
  });
});
