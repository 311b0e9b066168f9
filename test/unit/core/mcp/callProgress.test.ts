import * as assert from 'node:assert/strict';
import { describeProgress, throttleProgress, type CallProgress } from '../../../../src/core/mcp/callProgress';

describe('callProgress', () => {
  it('describes progress, totals, messages and task states in one line', () => {
    assert.equal(describeProgress({ progress: 3, total: 5 }), '3/5 (60%)');
    assert.equal(describeProgress({ progress: 7, message: 'copying\n  files' }), '7 · copying files');
    assert.equal(describeProgress({ taskStatus: 'input_required', message: 'Which one?' }), 'task input required · Which one?');
    assert.equal(describeProgress({ progress: 1, total: 0 }), '1');
  });

  it('throttles a flood of progress but keeps the last step and every task status report', () => {
    let now = 0;
    const got: CallProgress[] = [];
    const report = throttleProgress((p) => got.push(p), 250, () => now);
    for (let i = 1; i <= 100; i++) {
      now = i; // 100 reports within 100 ms
      report({ progress: i, total: 100 });
    }
    assert.deepEqual(got.map((p) => p.progress), [1, 100]);
    report({ taskStatus: 'working', message: 'a' });
    report({ taskStatus: 'working', message: 'b' });
    assert.deepEqual(got.slice(2).map((p) => p.message), ['a', 'b']);
    now = 1000;
    report({ progress: 5 });
    assert.equal(got.length, 5);
  });
});
