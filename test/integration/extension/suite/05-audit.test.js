'use strict';
const assert = require('assert');
const h = require('../helpers');

describe('audit file', () => {
  it('has one well-formed JSON line per call and per tool-list change', () => {
    const lines = require('fs').readFileSync(h.files.audit, 'utf8').split('\n').filter(Boolean);
    const records = lines.map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`audit line ${i + 1} is not JSON: ${l}`, { cause: e });
      }
    });
    const calls = records.filter((r) => r.kind === 'call');
    for (const r of calls) {
      for (const k of ['ts', 'role', 'server', 'tool', 'name', 'args', 'outcome', 'isError', 'durationMs', 'confirmedBy', 'result']) {
        assert.ok(k in r, `call record without "${k}": ${JSON.stringify(r)}`);
      }
    }
    const outcomes = new Set(calls.map((r) => r.outcome));
    for (const o of ['ok', 'isError', 'notFound', 'invalidArgs', 'timeout', 'cancelled', 'denied']) assert.ok(outcomes.has(o), `no "${o}" call in the audit`);
    assert.ok(records.some((r) => r.kind === 'toolsChanged' && r.server === 'dynamic'), 'no toolsChanged record of dynamic');
    // Who confirmed: autoApprove → policy; the refused dialog → nobody.
    assert.ok(calls.filter((r) => r.outcome === 'ok').every((r) => r.confirmedBy === 'policy'));
    assert.ok(calls.filter((r) => r.outcome === 'denied').every((r) => r.confirmedBy === null));
  });
});
