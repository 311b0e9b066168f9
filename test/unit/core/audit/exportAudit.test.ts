import * as assert from 'node:assert/strict';
import { filterAudit, toCsv, toJsonl, type AuditLine } from '../../../../src/core/audit/exportAudit';

const records: AuditLine[] = [
  { kind: 'call', ts: '2026-12-01T10:00:00.000Z', server: 'files', tool: 'write_file', name: 'files__write_file', outcome: 'denied', args: { path: 'a,b "c"' }, result: 'line 1\nline 2', seq: 1, prev: 'x' },
  { kind: 'call', ts: '2026-12-02T10:00:00.000Z', server: 'files', tool: 'read_text_file', outcome: 'ok', durationMs: 3.5, confirmedBy: 'policy', seq: 2, prev: 'y' },
  { kind: 'review', ts: '2026-12-03T10:00:00.000Z', server: 'kb', decision: 'approve', by: { user: 'ann', via: 'editor' }, added: [{ tool: 't', hash: 'h' }], seq: 3, prev: 'z' },
  { kind: 'elicitation', ts: '2026-12-04T10:00:00.000Z', server: 'files', outcome: 'denied', decidedBy: 'policy', seq: 4, prev: 'w' },
  { kind: 'resource', ts: '2026-12-04T11:00:00.000Z', server: 'files', uri: 'file:///a', outcome: 'ok', seq: 5, prev: 'v' },
];

describe('audit export', () => {
  it('filters by time, server, kind and outcome (an outcome alone: call records, as the help says)', () => {
    assert.deepEqual(filterAudit(records, { since: new Date('2026-12-02') }).map((r) => r.seq), [2, 3, 4, 5]);
    assert.deepEqual(filterAudit(records, { server: 'files' }).map((r) => r.seq), [1, 2, 4, 5]);
    // The elicitation denied by policy and the resource read ok are not call records.
    assert.deepEqual(filterAudit(records, { outcome: 'denied' }).map((r) => r.seq), [1]);
    assert.deepEqual(filterAudit(records, { outcome: 'ok' }).map((r) => r.seq), [2]);
    assert.deepEqual(filterAudit(records, { kind: 'elicitation', outcome: 'denied' }).map((r) => r.seq), [4]);
    assert.deepEqual(filterAudit(records, { kind: 'resource' }).map((r) => r.seq), [5]);
    assert.deepEqual(filterAudit(records, {}).length, 5);
  });

  it('CSV: a header row, RFC 4180 quoting, objects as JSON, other fields in "details"', () => {
    const rows = toCsv(records).split('\r\n');
    assert.equal(rows[0], 'ts,seq,kind,role,server,tool,name,outcome,durationMs,confirmedBy,args,result,definitionHash,decision,by,details');
    assert.equal(rows[1], '2026-12-01T10:00:00.000Z,1,call,,files,write_file,files__write_file,denied,,,"{""path"":""a,b \\""c\\""""}","line 1\nline 2",,,,');
    assert.match(rows[3], /^2026-12-03T10:00:00\.000Z,3,review,,kb,,,,,,,,,approve,"\{""user"":""ann"",""via"":""editor""\}","\{""added"":\[\{""tool"":""t"",""hash"":""h""\}\]\}"$/);
    assert.equal(rows.at(-1), '');
  });

  it('JSONL: one record per line, as read', () => {
    assert.deepEqual(toJsonl(records).split('\n').filter(Boolean).map((l) => JSON.parse(l)), records);
  });
});
