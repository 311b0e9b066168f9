import * as assert from 'node:assert/strict';
import { InputGate } from '../../../src/vscode/inputGate';

describe('InputGate: a modal question waits while an input box is open', () => {
  it('is idle at once with nothing open; a waiter resolves only when the last open input closes, also when one fails', async () => {
    const gate = new InputGate();
    await gate.idle();
    const events: string[] = [];
    let closeFirst!: (v: string) => void;
    let failSecond!: (e: Error) => void;
    const first = gate.during(() => new Promise<string>((r) => (closeFirst = r)));
    const second = gate.during(() => new Promise<string>((_, j) => (failSecond = j))).catch((e: Error) => e.message);
    const waiting = gate.idle().then(() => events.push('idle'));
    closeFirst('typed');
    assert.equal(await first, 'typed');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events, [], 'one input is still open');
    failSecond(new Error('withdrawn'));
    assert.equal(await second, 'withdrawn');
    await waiting;
    assert.deepEqual(events, ['idle']);
    await gate.idle();
  });
});
