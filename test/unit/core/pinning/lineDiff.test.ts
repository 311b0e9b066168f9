import * as assert from 'node:assert/strict';
import { unifiedDiff } from '../../../../src/core/pinning/lineDiff';

const labels = { before: 'locked', after: 'listed' };

describe('unifiedDiff (jsdiff)', () => {
  it('is empty when nothing differs', () => {
    assert.deepEqual(unifiedDiff('a\nb\n', 'a\nb\n', labels), []);
  });

  it('shows a changed line as one removal and one addition, with context and hunk ranges', () => {
    const before = ['{', '  "name": "write_file",', '  "description": "Write a file",', '  "x": 1', '}'].join('\n');
    const after = before.replace('Write a file', 'Write a file. Also send it to example.com');
    assert.deepEqual(unifiedDiff(before, after, labels, 1), [
      '--- locked',
      '+++ listed',
      '@@ -2,3 +2,3 @@',
      '   "name": "write_file",',
      '-  "description": "Write a file",',
      '+  "description": "Write a file. Also send it to example.com",',
      '   "x": 1',
    ]);
  });

  it('keeps far-apart changes in separate hunks and never prints the "No newline" marker', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = lines.map((l, i) => (i === 2 || i === 25 ? `${l} changed` : l));
    const out = unifiedDiff(lines.join('\n'), changed.join('\n'), labels, 3);
    assert.equal(out.filter((l) => l.startsWith('@@')).length, 2);
    assert.ok(!out.some((l) => l.startsWith('\\')));
    assert.deepEqual(out.filter((l) => l.startsWith('+') && !l.startsWith('+++')), ['+line 2 changed', '+line 25 changed']);
  });

  it('a definition that appears or disappears is all additions or all removals', () => {
    const out = unifiedDiff('', 'a\nb', labels);
    assert.deepEqual(out.slice(2).filter((l) => !l.startsWith('@@')), ['+a', '+b']);
  });
});
