import * as assert from 'node:assert/strict';
import { AuditLog, JsonlFileSink } from '../../../../src/core/audit/auditLog';
import { readAudit, useTestEnv, waitFor } from '../helpers';

describe('AuditLog', () => {
  const env = useTestEnv();
  it('JsonlFileSink serializes writes into whole lines', async () => {
    const file = env.file('x/y/sink.jsonl');
    const log = new AuditLog([new JsonlFileSink(file)]);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        log.record({ kind: 'toolsChanged', ts: String(i), server: 's'.repeat(1000), added: [], removed: [], changed: [] }),
      ),
    );
    await waitFor('all lines', () => readAudit(file).length === 50);
    assert.deepEqual(
      readAudit(file).map((l) => l.ts),
      Array.from({ length: 50 }, (_, i) => String(i)),
    );
  });

  it('keeps the open file while the path stays the same, and moves to a new path', async () => {
    const first = env.file('a.jsonl');
    const second = env.file('b.jsonl');
    const log = new AuditLog([]);
    log.useFile(first);
    await log.record({ kind: 'toolsChanged', ts: '1', server: 's', added: [], removed: [], changed: [] });
    log.useFile(first);
    await log.record({ kind: 'toolsChanged', ts: '2', server: 's', added: [], removed: [], changed: [] });
    log.useFile(second);
    await log.record({ kind: 'toolsChanged', ts: '3', server: 's', added: [], removed: [], changed: [] });
    assert.equal(log.path, second);
    assert.deepEqual(readAudit(first).map((l) => l.ts), ['1', '2']);
    assert.deepEqual(readAudit(second).map((l) => l.ts), ['3']);
    log.dispose();
  });
});
