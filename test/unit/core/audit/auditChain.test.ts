import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { AuditLog, JsonlFileSink } from '../../../../src/core/audit/auditLog';
import { hashLine, chainLine, GENESIS } from '../../../../src/core/audit/auditChain';
import { headPath, nextRotatedPath, rotatedFiles, rotatedPath } from '../../../../src/core/audit/auditFiles';
import type { AuditRecord } from '../../../../src/core/audit/auditRecord';
import { verifyAuditFiles } from '../../../../src/core/audit/verifyAudit';
import { useTestEnv } from '../helpers';

const record = (i: number): AuditRecord => ({
  kind: 'call',
  ts: new Date(Date.UTC(2026, 11, 3, 9, 0, i)).toISOString(),
  role: null,
  server: 'basic',
  tool: 'echo',
  name: 'basic__echo',
  args: { text: `call ${i}` },
  outcome: 'ok',
  isError: false,
  durationMs: i,
  confirmedBy: 'policy',
  result: `echo: call ${i}`,
  definitionHash: null,
});

/** Write `n` records through the shipped sink and close it (which writes the head). */
async function writeAudit(file: string, n: number, maxBytes?: number): Promise<void> {
  const log = new AuditLog([]);
  log.useFile(file, maxBytes);
  for (let i = 1; i <= n; i++) await log.record(record(i));
  log.dispose();
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const writeLines = (file: string, ls: string[]) => fs.writeFileSync(file, ls.map((l) => l + '\n').join(''));

function firstProblem(files: string[]) {
  const r = verifyAuditFiles(files);
  const p = r.files.flatMap((f) => f.problems)[0];
  return { ok: r.ok, kind: p?.kind, line: p?.line, file: p ? path.basename(p.file) : undefined, message: p?.message };
}

describe('audit chain: verify finds any single line altered, removed or inserted', () => {
  const env = useTestEnv();
  const N = 6;

  it('a file as written verifies, with its head', async () => {
    const file = env.file('audit.jsonl');
    await writeAudit(file, N);
    const ls = lines(file);
    assert.equal(ls.length, N);
    assert.deepEqual(ls.map((l) => JSON.parse(l).seq), [1, 2, 3, 4, 5, 6]);
    assert.equal(JSON.parse(ls[0]).prev, GENESIS);
    for (let i = 1; i < N; i++) assert.equal(JSON.parse(ls[i]).prev, hashLine(ls[i - 1]));
    assert.deepEqual(JSON.parse(fs.readFileSync(headPath(file), 'utf8')).seq, N);
    const r = verifyAuditFiles([file]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.files[0].records, N);
    assert.ok(r.files[0].anchored);
  });

  for (let k = 0; k < N; k++) {
    it(`editing line ${k + 1} is found at line ${k + 1}`, async () => {
      const file = env.file('audit.jsonl');
      await writeAudit(file, N);
      const ls = lines(file);
      ls[k] = ls[k].replace(`call ${k + 1}`, `call ${k + 1}!`);
      writeLines(file, ls);
      assert.deepEqual(firstProblem([file]).kind, 'altered');
      assert.equal(firstProblem([file]).line, k + 1, firstProblem([file]).message);
    });

    it(`deleting line ${k + 1} is found as record ${k + 1} removed`, async () => {
      const file = env.file('audit.jsonl');
      await writeAudit(file, N);
      const ls = lines(file);
      ls.splice(k, 1);
      writeLines(file, ls);
      const p = firstProblem([file]);
      assert.equal(p.kind, 'removed', p.message);
      assert.match(p.message!, new RegExp(`record ${k + 1} was removed`));
    });

    it(`inserting a line at ${k + 1} (a copy, a hand-written record, a correctly linked forgery) is found at line ${k + 1}`, async () => {
      const file = env.file('audit.jsonl');
      await writeAudit(file, N);
      const original = lines(file);
      const prevLine = original[k - 1];
      const forged = chainLine(JSON.stringify(record(99)), { seq: k + 1, prev: prevLine ? hashLine(prevLine) : GENESIS });
      for (const inserted of [original[(k + 2) % N], JSON.stringify(record(42)), forged]) {
        const ls = [...original];
        ls.splice(k, 0, inserted);
        writeLines(file, ls);
        const p = firstProblem([file]);
        assert.equal(p.kind, 'inserted', `${inserted.slice(0, 60)}…: ${p.message}`);
        assert.equal(p.line, k + 1, p.message);
      }
    });
  }

  it('appending a line after the last one is found', async () => {
    const file = env.file('audit.jsonl');
    await writeAudit(file, N);
    const ls = lines(file);
    writeLines(file, [...ls, chainLine(JSON.stringify(record(7)), { seq: N + 1, prev: hashLine(ls[N - 1]) + '' }).replace(/"prev":"[0-9a-f]+"/, `"prev":"${hashLine('x')}"`)]);
    const p = firstProblem([file]);
    assert.ok(!p.ok);
    assert.equal(p.line, N + 1, p.message);
  });

  it('deleting the last records and the head file is found: the end is not anchored (unless that is expected)', async () => {
    const file = env.file('audit.jsonl');
    await writeAudit(file, N);
    writeLines(file, lines(file).slice(0, N - 2));
    fs.rmSync(headPath(file));
    const p = firstProblem([file]);
    assert.equal(p.ok, false);
    assert.equal(p.kind, 'unanchored', p.message);
    assert.equal(p.line, N - 2);
    assert.match(p.message!, /audit\.jsonl: its end is not anchored: the head file \S*audit\.jsonl\.head is missing/);
    const allowed = verifyAuditFiles([file], { allowUnanchored: true });
    assert.ok(allowed.ok, JSON.stringify(allowed));
    assert.equal(allowed.files[0].anchored, false);
  });

  it('rotation: the next file names the rotated one and continues its chain; a break at the seam is found', async () => {
    const file = env.file('audit.jsonl');
    await writeAudit(file, 10, 900);
    const rotated = rotatedFiles(file);
    assert.ok(rotated.length >= 2, `rotated into ${rotated.length} files`);
    const all = [...rotated, file];
    const seqs = all.flatMap((f) => lines(f).map((l) => JSON.parse(l).seq));
    assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (let i = 1; i < all.length; i++) {
      const first = JSON.parse(lines(all[i])[0]);
      assert.equal(first.prevFile, path.basename(all[i - 1]));
      assert.equal(first.prev, hashLine(lines(all[i - 1]).pop()!));
    }
    assert.ok(verifyAuditFiles(all).ok, JSON.stringify(verifyAuditFiles(all)));
    // Remove the last record of the first rotated file: found at the seam.
    const firstFile = lines(all[0]);
    const removedSeq = JSON.parse(firstFile.pop()!).seq;
    writeLines(all[0], firstFile);
    const p = firstProblem(all);
    assert.equal(p.kind, 'removed', p.message);
    assert.match(p.message!, new RegExp(`record ${removedSeq} was removed`));
    assert.equal(p.file, path.basename(all[1]));
  });

  it('two writers appending to one file (an editor and a CLI) keep one chain: each picks up where the file ends', async () => {
    const file = env.file('audit.jsonl');
    const a = new JsonlFileSink(file);
    const b = new JsonlFileSink(file);
    for (let i = 1; i <= 6; i++) await (i % 2 ? a : b).write(record(i));
    a.dispose();
    b.dispose();
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).seq), [1, 2, 3, 4, 5, 6]);
    assert.ok(verifyAuditFiles([file]).ok, JSON.stringify(verifyAuditFiles([file])));
  });

  it('the records of one turn are written together at its end, in order, each promise settling once its line is in the file; flush and dispose write at once', async () => {
    const file = env.file('audit.jsonl');
    const sink = new JsonlFileSink(file);
    const writes = Array.from({ length: 50 }, (_, i) => sink.write(record(i + 1)));
    // They wait for the end of this turn of the event loop, then go in one write.
    assert.equal(fs.existsSync(file) ? lines(file).length : 0, 0);
    const settled: number[] = [];
    await Promise.all(writes.map((w, i) => w.then(() => settled.push(lines(file).length > i ? i : -1))));
    assert.ok(settled.every((i) => i >= 0), 'no promise settled before its line was written');
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).seq), Array.from({ length: 50 }, (_, i) => i + 1));
    assert.ok(verifyAuditFiles([file]).ok, JSON.stringify(verifyAuditFiles([file])));
    // flush() writes what waits now; dispose() too.
    const waiting = [sink.write(record(51)), sink.write(record(52))];
    sink.flush();
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).durationMs).slice(-2), [51, 52]);
    const left = sink.write(record(53));
    sink.dispose();
    await Promise.all([...waiting, left]);
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).seq).slice(-3), [51, 52, 53]);
    assert.ok(verifyAuditFiles([file]).ok);
  });

  it("records still waiting when the process exits are written (the sink's exit hook)", async () => {
    const file = env.file('audit.jsonl');
    const script = `const { JsonlFileSink } = require(${JSON.stringify(require.resolve('../../../../src/core/audit/jsonlFileSink'))});
const sink = new JsonlFileSink(${JSON.stringify(file)});
for (let i = 1; i <= 3; i++) void sink.write({ kind: 'call', ts: new Date().toISOString(), role: null, server: 's', tool: 't', name: 's__t', args: {}, outcome: 'ok', isError: false, durationMs: i, confirmedBy: 'policy', result: '', definitionHash: null });
process.exit(0);`;
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(lines(file).map((l) => JSON.parse(l).durationMs), [1, 2, 3]);
    assert.ok(verifyAuditFiles([file]).ok);
  });

  it('a batch that crosses the size limit rotates between two of its records; the chain goes on in the new file', async () => {
    const file = env.file('audit.jsonl');
    const one = Buffer.byteLength(JSON.stringify(record(1))) + 120;
    const sink = new JsonlFileSink(file, one * 3);
    await Promise.all(Array.from({ length: 8 }, (_, i) => sink.write(record(i + 1))));
    sink.dispose();
    const files = [...rotatedFiles(file), file];
    assert.ok(files.length >= 3, `${files.length} files`);
    assert.deepEqual(files.flatMap((f) => lines(f).map((l) => JSON.parse(l).seq)), [1, 2, 3, 4, 5, 6, 7, 8]);
    const r = verifyAuditFiles(files);
    assert.ok(r.ok, JSON.stringify(r));
  });

  it('a rotated file is named after the newest one there even when the clock stepped back, so the names keep the order', () => {
    const file = env.file('audit.jsonl');
    const ahead = rotatedPath(file, new Date(Date.now() + 3_600_000));
    fs.writeFileSync(ahead, '');
    const next = nextRotatedPath(file);
    fs.writeFileSync(next, '');
    assert.deepEqual(rotatedFiles(file), [ahead, next]);
    // Two rotations in one millisecond get two names, in order.
    const now = Date.parse('2026-12-03T09:15:00.123Z');
    const other = env.file('other.jsonl');
    const first = nextRotatedPath(other, now);
    fs.writeFileSync(first, '');
    const second = nextRotatedPath(other, now);
    fs.writeFileSync(second, '');
    assert.deepEqual(rotatedFiles(other).map((f) => path.basename(f).replace(/^.*other\./, '')), ['20261203T091500123Z.jsonl', '20261203T091500124Z.jsonl']);
  });

  it('a file written before records were chained is moved aside; the new file names it and starts the chain', async () => {
    const file = env.file('audit.jsonl');
    fs.writeFileSync(file, JSON.stringify(record(1)) + '\n' + JSON.stringify(record(2)) + '\n');
    await writeAudit(file, 2);
    const [legacy] = rotatedFiles(file);
    assert.ok(legacy, 'the old file was renamed');
    const first = JSON.parse(lines(file)[0]);
    assert.deepEqual([first.seq, first.prevFile, first.prev], [1, path.basename(legacy), hashLine(lines(legacy)[1])]);
    const r = verifyAuditFiles([legacy, file]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.files.map((f) => f.unchained), [true, false]);
  });
});
