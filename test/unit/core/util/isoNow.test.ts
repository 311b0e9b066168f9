import * as assert from 'node:assert/strict';
import { isoNow } from '../../../../src/core/util/isoNow';

describe('isoNow', () => {
  it('is new Date(ms).toISOString(), second after second and out of order', () => {
    const samples = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, -1, -999, -1000, -1001, 1.7, 1_796_000_000_000, 1_796_000_000_009, 1_796_000_000_099, 1_796_000_000_999, 253_402_300_799_999, 253_402_300_800_000, 253_402_300_800_042];
    let x = 1_700_000_000_000;
    for (let i = 0; i < 2000; i++) {
      // A walk through nearby and far instants: same second, next second, another year.
      x += i % 7 === 0 ? Math.floor(Math.random() * 1e11) - 5e10 : Math.floor(Math.random() * 1500);
      samples.push(x);
    }
    for (const ms of samples) assert.equal(isoNow(ms), new Date(ms).toISOString(), String(ms));
  });

  it('is now by default', () => {
    const before = Date.now();
    const stamp = Date.parse(isoNow());
    assert.ok(stamp >= before && stamp <= Date.now());
  });
});
