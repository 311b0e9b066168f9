/**
 * `mcp-host call` in a workspace `mcp-host lock` reviewed: the one-shot path reads only the called
 * tool's pin (entry by entry, once the lockfile's content is known valid and canonical), and is
 * exactly as strict as a full read — a pin edited by hand, a tool missing from the lockfile or a
 * broken lockfile are refused, and the tool is never called.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testConfigDir } from '../../fixtures/cliConsent';
import { describeRun, fixtureServer, makeWorkspace, removeTempDirs, runCli } from './cliHarness';

describe('mcp-host call, one-shot, against the lockfile', function () {
  // Several CLI runs, each starting a server: a bound for a busy machine, not a speed claim.
  this.timeout(180_000);
  after(removeTempDirs);

  const workspace = () =>
    makeWorkspace({
      'mcpHost.servers': { dyn: fixtureServer('dynamic') },
      'mcpHost.autoApprove': ['dyn/*'],
      'mcpHost.pinning': 'review',
      'mcpHost.audit.path': 'audit.jsonl',
    });
  const lockfile = (ws: string) => path.join(ws, 'mcp-host.lock.json');
  /** Edit the lockfile by hand, keeping its canonical form (sorted keys, two-space indent). */
  const editLock = (ws: string, edit: (lock: { servers: Record<string, { tools: Record<string, { definition: { description?: string } }> }> }) => void) => {
    const lock = JSON.parse(fs.readFileSync(lockfile(ws), 'utf8'));
    edit(lock);
    fs.writeFileSync(lockfile(ws), JSON.stringify(lock, null, 2) + '\n');
  };
  const outcomes = (ws: string) =>
    fs
      .readFileSync(path.join(ws, 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.kind === 'call')
      .map((r) => `${r.tool ?? r.name}:${r.outcome}`);

  it('runs an unchanged tool; refuses a pin edited by hand, a tool the lockfile lacks and a broken lockfile', async () => {
    const ws = workspace();
    const marks = path.join(testConfigDir(), 'checked-lockfiles');
    const before = fs.existsSync(marks) ? fs.readdirSync(marks).length : 0;
    let r = await runCli(['lock', '--workspace', ws, '--yes']);
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(fs.readdirSync(marks).length, before + 1, '"lock" remembers the content it wrote as canonical');

    r = await runCli(['call', 'dyn__alpha', '--workspace', ws]);
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, 'alpha\n');

    // The pinned description no longer matches what the server lists: another digest, read in full.
    editLock(ws, (lock) => (lock.servers.dyn.tools.alpha.definition.description = 'Reviewed as something else'));
    r = await runCli(['call', 'dyn__alpha', '--workspace', ws]);
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr, /tool "dyn__alpha" was not called: it is quarantined because the definition of tool "alpha" changed since it was reviewed \(description\)/);
    // Again, now that this content is known canonical (entry-by-entry read): the same answer.
    r = await runCli(['call', 'dyn__alpha', '--workspace', ws]);
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr, /the definition of tool "alpha" changed since it was reviewed \(description\)/);

    editLock(ws, (lock) => delete lock.servers.dyn.tools.alpha);
    for (let i = 0; i < 2; i++) {
      r = await runCli(['call', 'dyn__alpha', '--workspace', ws]);
      assert.equal(r.code, 3, describeRun(r));
      assert.match(r.stderr, /tool "alpha" is new since server "dyn" was reviewed/);
    }
    r = await runCli(['call', 'dyn__beta', '--workspace', ws]);
    assert.equal(r.code, 0, describeRun(r));

    fs.writeFileSync(lockfile(ws), fs.readFileSync(lockfile(ws), 'utf8').replace('"hash"', '"hash" "'));
    r = await runCli(['call', 'dyn__beta', '--workspace', ws]);
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr, /the lockfile cannot be used/);
    assert.match(r.stderr, /to see the difference and approve it, run: mcp-host lock --workspace /);
    assert.match(r.stderr, /is not a valid lockfile/);

    assert.deepEqual(outcomes(ws), ['alpha:ok', 'alpha:quarantined', 'alpha:quarantined', 'alpha:quarantined', 'alpha:quarantined', 'beta:ok', 'beta:quarantined']);
  });
});
