/** Assertions shared by the fault-injection suite. */
import * as assert from 'node:assert/strict';
import { describeRun, readAudit, reportCase, type CliRun, type FaultyStdio, type Json, type Session } from '../fixtures/faulty/cliFaultHarness';

/** "Fails at once vs waits the full timeout": calls run with a 60 s timeout, a fault must be answered well within this. */
export const AT_ONCE_MS = 15_000;
/** Per-call timeout given to the CLI where a hang must not be mistaken for an answer. */
export const LONG_TIMEOUT = '60000';

/** The healthy server (basic.mjs) still answers a call in this session. */
export async function assertHealthyAnswers(session: Session, id: string): Promise<void> {
  const { answer } = await session.call(id, 'healthy__echo', { text: `still here ${id}` });
  assert.equal(answer.outcome, 'ok', `the healthy server did not answer\n${session.describe()}`);
  assert.equal(answer.modelText, `echo: still here ${id}`);
}

/** `check --json` output: the healthy server connected with its tools. */
export function assertHealthyConnected(run: CliRun): Json {
  let doc: Json;
  try {
    doc = JSON.parse(run.stdout);
  } catch {
    assert.fail(`check --json printed no JSON document\n${describeRun(run)}`);
  }
  const healthy = doc.servers.find((s: Json) => s.name === 'healthy');
  assert.equal(healthy?.state, 'connected', describeRun(run));
  assert.ok(healthy.toolCount > 0, describeRun(run));
  return doc;
}

/** Exactly `n` complete call records for `name` in the audit, and no broken line. */
export function assertAudited(auditFile: string, name: string, n = 1): Json[] {
  const audit = readAudit(auditFile);
  assert.deepEqual(audit.broken, [], 'broken audit lines');
  const records = audit.calls.filter((r) => r.name === name);
  assert.equal(records.length, n, `audit records for ${name}: ${JSON.stringify(audit.calls.map((r) => [r.name, r.outcome]))}`);
  return records;
}

export function assertNothingLeft(leftBehind: readonly number[], what = 'the CLI'): void {
  assert.deepEqual(leftBehind, [], `processes left behind by ${what} (killed now): ${leftBehind.join(', ')}`);
}

export function assertAtOnce(ms: number, what: string): void {
  assert.ok(ms < AT_ONCE_MS, `${what} took ${Math.round(ms)} ms: a fault must be answered at once, not after a timeout`);
}

/** Whether the faulty server's log shows an event (proves the fault was really injected). */
export function sawEvent(faulty: FaultyStdio, predicate: (e: Json) => boolean): boolean {
  return faulty.events().some(predicate);
}

export { reportCase };
