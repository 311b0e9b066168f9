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
import { readFixtureLog } from '../../fixtures/fixtureServers';
import { describeRun, fixtureServer, makeWorkspace, removeTempDirs, runCli, tempDir } from './cliHarness';

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

/**
 * A one-shot `call` to a 2026-07-28 server whose `tools/list` says it may be used again (the modern
 * fixture: ttlMs 60 s, public): the first CLI process that lists the server whole keeps the list
 * (ToolListStore, in the CLI's configuration folder), and a later `call` within the ttl sends no
 * `tools/list` at all — with the pin check exactly as strict (a pin edited by hand, or a kept file
 * edited by hand, still quarantines the tool) and a list never crossing two configurations.
 */
describe('mcp-host call, one-shot, with a tool list the server allows to keep (2026-07-28 ttlMs)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('skips tools/list within the ttl; edited pins and edited kept lists are refused; other env values list again', async () => {
    const log = path.join(tempDir('mcp-host-kept-'), 'modern.jsonl');
    const settingsWith = (token: string) => ({
      'mcpHost.servers': { modern: fixtureServer('modern/server', { FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1', ACCOUNT_TOKEN: token }) },
      'mcpHost.autoApprove': ['modern/*'],
      'mcpHost.pinning': 'review',
      'mcpHost.audit.path': 'audit.jsonl',
    });
    const ws = makeWorkspace(settingsWith('a'));
    const lists = () => readFixtureLog(log).filter((e: { event: string; method?: string }) => e.event === 'request' && e.method === 'tools/list').length;
    // The CLI's configuration folder of these tests (cliHarness): other tests' kept lists may be there too.
    const kept = path.join(testConfigDir(), 'tool-lists');
    const earlier = new Set(fs.existsSync(kept) ? fs.readdirSync(kept) : []);
    const keptFiles = () => (fs.existsSync(kept) ? fs.readdirSync(kept).filter((f) => f.endsWith('.json') && !earlier.has(f)) : []);
    const echo = (text: string) => runCli(['call', 'modern__echo', '--args', JSON.stringify({ text }), '--workspace', ws]);

    let r = await runCli(['lock', '--workspace', ws, '--yes']);
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(lists(), 1);
    assert.equal(keptFiles().length, 1, '"lock" listed the server whole and kept the list it allowed to keep');
    assert.equal(fs.statSync(path.join(kept, keptFiles()[0])).mode & 0o777, 0o600);

    r = await echo('one');
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, 'echo: one\n');
    assert.equal(lists(), 1, 'the call took the kept list: no tools/list sent');

    // A pin edited by hand: the kept definition is checked against it like a listed one.
    const lockPath = path.join(ws, 'mcp-host.lock.json');
    const reviewed = fs.readFileSync(lockPath, 'utf8');
    const lock = JSON.parse(reviewed);
    lock.servers.modern.tools.echo.definition.description = 'Reviewed as something else';
    fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
    r = await echo('two');
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr, /the definition of tool "echo" changed since it was reviewed \(description\)/);
    assert.equal(lists(), 1);
    fs.writeFileSync(lockPath, reviewed);

    // The kept file edited by hand: read back like a server's answer, so the pin catches it too.
    const file = path.join(kept, keptFiles()[0]);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('["echo",'));
    const [name, tool] = JSON.parse(lines[at]);
    lines[at] = JSON.stringify([name, { ...tool, description: 'Does something else now' }]);
    fs.writeFileSync(file, lines.join('\n'));
    r = await echo('three');
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr, /the definition of tool "echo" changed since it was reviewed \(description\)/);
    // A kept file that is not a list is never used: the server is listed again, and the list kept anew.
    fs.writeFileSync(file, '{"version": 1, "tools": "no"}');
    r = await echo('four');
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(lists(), 2, 'a broken kept file: the call listed the server');
    assert.equal(keptFiles().length, 1);
    r = await echo('five');
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(lists(), 2, 'the list the previous call listed whole was kept and used');

    // Another value of an env variable (another account, say): another key, never this list.
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify(settingsWith('b')));
    r = await echo('six');
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(lists(), 3, 'other settings values: listed, not served another configuration’s list');
    assert.equal(keptFiles().length, 2);
  });
});
