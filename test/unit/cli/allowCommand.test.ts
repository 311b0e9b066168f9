/**
 * Issue 25: consent without a terminal that confirms no call. `mcp-host allow` (kept, audited) and
 * `--allow-servers` (one run, audited, not kept) let the published filesystem server start from a
 * pipe, while a write that needs confirmation is still denied and never reaches the server.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testConfigDir } from '../../fixtures/cliConsent';
import { nodeEnv } from '../../fixtures/fixtureServers';
import { readAudit } from '../core/helpers';
import { describeRun, FILESYSTEM_SERVER, makeWorkspace, parseJson, removeTempDirs, runCli, type Json } from './cliHarness';


/** A workspace with the filesystem server rooted in it; nothing auto-approved, so every write asks. */
function workspace(): string {
  const ws = fs.realpathSync(makeWorkspace({}));
  const settings = {
    'mcpHost.servers': { fs: { command: process.execPath, args: [FILESYSTEM_SERVER, ws], env: nodeEnv() }, off: { command: process.execPath, args: ['never-started.js'], enabled: false } },
    'mcpHost.pinning': 'off',
    'mcpHost.audit.path': 'audit.jsonl',
  };
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  return ws;
}

const records = (ws: string): Json[] => readAudit(path.join(ws, 'audit.jsonl'));

const kept = (ws: string): Json => {
  const file = path.join(testConfigDir(), 'consent.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).workspaces[ws] : undefined;
};

const write = (ws: string, extra: string[] = []) =>
  runCli(['call', 'fs__write_file', '--json', '--workspace', ws, '--args', JSON.stringify({ path: path.join(ws, 'written.txt'), content: 'x' }), ...extra], { consent: false });

describe('consent without a terminal that confirms no call (issue 25)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('mcp-host allow prints the exact command, keeps and audits the consent; the server then starts from a pipe and a write is still denied', async () => {
    const ws = workspace();
    let r = await write(ws);
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr + r.stdout, /not been allowed to start in this workspace and there is no terminal to ask on; allow it with "mcp-host allow fs"/);

    r = await runCli(['allow', '--workspace', ws], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.ok(r.stdout.startsWith(`Allowed "fs" to start in this workspace:\n  command: ${process.execPath} ${FILESYSTEM_SERVER} ${ws}\n`), r.stdout);
    assert.doesNotMatch(r.stdout, /"off"/, 'a disabled server is not allowed unless named');
    assert.match(r.stdout, /Consent is kept in .*consent\.json for /);
    assert.equal(kept(ws)?.fs?.allowed, true);
    const consent = records(ws).filter((x) => x.kind === 'consent');
    assert.deepEqual(consent.map((x) => [x.server, x.decision, x.by.via, x.remembered]), [['fs', 'allow', 'cli', true]]);
    assert.equal(consent[0].target, `${process.execPath} ${FILESYSTEM_SERVER} ${ws}`);
    assert.deepEqual(records(ws).filter((x) => x.kind === 'call').map((x) => x.outcome), ['notFound'], 'only the refused write before: allow makes no call');

    r = await runCli(['check', '--workspace', ws, '--json'], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(parseJson(r).servers.find((s: Json) => s.name === 'fs').state, 'connected');

    r = await write(ws);
    assert.equal(r.code, 1, describeRun(r));
    assert.deepEqual([parseJson(r).outcome, parseJson(r).confirmedBy], ['denied', null]);
    assert.match(r.stderr, /needs confirmation and there is no terminal to ask on .*: denied/);
    assert.ok(!fs.existsSync(path.join(ws, 'written.txt')), 'the server never wrote');

    r = await runCli(['allow', 'fs', '--workspace', ws], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^"fs" was already allowed to start in this workspace:\n {2}command: /);
    assert.equal(records(ws).filter((x) => x.kind === 'consent').length, 1, 'nothing new to record');
  });

  it('--allow-servers starts servers for one run (audited, not kept) and confirms no call; --yes still confirms both', async () => {
    const ws = workspace();
    let r = await write(ws, ['--allow-servers']);
    assert.equal(r.code, 1, describeRun(r));
    assert.deepEqual([parseJson(r).outcome, parseJson(r).confirmedBy], ['denied', null], 'the server started; the write asked and was denied');
    assert.ok(!fs.existsSync(path.join(ws, 'written.txt')));
    assert.equal(kept(ws), undefined, 'not kept');
    assert.deepEqual(
      records(ws).filter((x) => x.kind === 'consent').map((x) => [x.decision, x.by.via, x.remembered]),
      [['allow', 'flag', false]],
    );

    r = await write(ws);
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stderr + r.stdout, /not been allowed to start/, 'the next run without it is refused again');

    r = await write(ws, ['--yes']);
    assert.equal(r.code, 0, describeRun(r));
    assert.deepEqual([parseJson(r).outcome, parseJson(r).confirmedBy], ['ok', 'flag'], '--yes keeps its meaning');
    assert.equal(fs.readFileSync(path.join(ws, 'written.txt'), 'utf8'), 'x');
  });

  it('a remembered "Don\'t Allow" stands against --yes and --allow-servers; mcp-host allow NAME overrides it', async () => {
    const ws = workspace();
    assert.equal((await runCli(['allow', 'fs', '--workspace', ws], { consent: false })).code, 0);
    // The person's "Don't Allow" for this exact command, as a terminal would have kept it.
    const file = path.join(testConfigDir(), 'consent.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.workspaces[ws].fs.allowed = false;
    fs.writeFileSync(file, JSON.stringify(doc));
    for (const flag of ['--yes', '--allow-servers']) {
      const r = await write(ws, [flag]);
      assert.equal(r.code, 3, describeRun(r));
      assert.equal(parseJson(r).outcome, 'notFound', flag);
      assert.match(r.stderr, /not started: you did not allow this server to start/, flag);
    }
    assert.equal((await runCli(['allow', 'fs', '--workspace', ws], { consent: false })).code, 0);
    assert.equal(kept(ws).fs.allowed, true);
    const r = await runCli(['check', '--workspace', ws], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
  });

  it('an unknown server is bad usage; a disabled one is allowed when named', async () => {
    const ws = workspace();
    let r = await runCli(['allow', 'nope', '--workspace', ws], { consent: false });
    assert.equal(r.code, 2, describeRun(r));
    assert.match(r.stderr, /no server named "nope" in mcpHost\.servers; servers: fs, off/);
    r = await runCli(['allow', 'off', '--workspace', ws], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^Allowed "off" to start in this workspace:\n {2}command: .* never-started\.js\n/);
    assert.deepEqual(Object.keys(kept(ws)), ['off']);
  });
});
