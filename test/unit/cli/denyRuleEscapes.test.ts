/**
 * Issue 25: a deny rule cannot be walked through. `!isWithin(args.path, workspaceFolder)` with
 * `"action": "deny"` in front of the published filesystem server, and sixteen paths that try to
 * leave the workspace, through `mcp-host session` and `mcp-host call`, with and without `--yes`.
 * Before the fix a path `isWithin` could not judge made the condition fail, the failure asked, and
 * `--yes` answered: the call reached the server.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeEnv } from '../../fixtures/fixtureServers';
import { readAudit } from '../core/helpers';
import { CliSession, describeRun, FILESYSTEM_SERVER, runCli, tempDir, type Json, trackSessions } from './cliHarness';

const MISSING = Symbol('missing');

/** parent/ws (the workspace and the server's folder), parent/out (outside), parent/home ($HOME), ws/link → out. */
function layout() {
  const parent = fs.realpathSync(tempDir('mcp-host-escape-'));
  const [ws, out, home] = ['ws', 'out', 'home'].map((d) => path.join(parent, d));
  for (const d of [ws, out, home, path.join(ws, '.vscode'), path.join(ws, 'sub')]) fs.mkdirSync(d, { recursive: true });
  fs.symlinkSync(out, path.join(ws, 'link'));
  return { parent, ws, out, home };
}

function writeSettings(ws: string, extra: Record<string, unknown>): void {
  const settings = {
    'mcpHost.servers': { fs: { command: process.execPath, args: [FILESYSTEM_SERVER, ws], env: nodeEnv() } },
    'mcpHost.rules': [{ tools: ['fs/write_file'], when: '!isWithin(args.path, workspaceFolder)', action: 'deny', reason: 'writes outside the workspace' }],
    'mcpHost.pinning': 'off',
    'mcpHost.audit.path': 'audit.jsonl',
    ...extra,
  };
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** The sixteen escapes: a label and the `path` argument (MISSING: no `path` at all). */
function escapes(ws: string, out: string): [string, unknown][] {
  return [
    ['a literal ..', '../out/dotdot.txt'],
    ['an absolute path outside', path.join(out, 'absolute.txt')],
    ['an absolute path through the workspace and ..', `${ws}/../out/through.txt`],
    ['percent-encoded dots', '%2e%2e/out/percent.txt'],
    ['double percent-encoded dots', '%252e%252e/out/percent2.txt'],
    ['percent-encoded slashes', '..%2fout%2fslash.txt'],
    ['backslashes', 'sub\\..\\..\\out\\backslash.txt'],
    ['a NUL byte', 'ok.txt\u0000/../../out/nul.txt'],
    ['~ (the home folder)', '~/home.txt'],
    ['a file:// URL outside', pathToFileURL(path.join(out, 'url.txt')).href],
    ['a symbolic link out of the folder', 'link/symlink.txt'],
    ['a number', 42],
    ['an array', ['../out/array.txt']],
    ['an object', { path: '../out/object.txt' }],
    ['null', null],
    ['a missing argument', MISSING],
  ];
}

/** Every file and link under `dir` (not following links), except the audit file and the settings. */
function tree(dir: string, ws: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p === path.join(ws, '.vscode') || p.startsWith(path.join(ws, 'audit.jsonl'))) continue;
      found.push(path.relative(dir, p));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return found.sort();
}

function callRecords(ws: string): Json[] {
  return readAudit(path.join(ws, 'audit.jsonl')).filter((r) => r.kind === 'call');
}

describe('a deny rule cannot be walked through (issue 25)', function () {
  this.timeout(120_000);
  const sessions = trackSessions();

  const variants: { title: string; args: string[]; extra: Record<string, unknown> }[] = [
    { title: 'without --yes (the tool is auto-approved)', args: [], extra: { 'mcpHost.autoApprove': ['fs/write_file'] } },
    { title: 'with --yes (nothing auto-approved)', args: ['--yes'], extra: {} },
  ];
  for (const v of variants) {
    it(`mcp-host session ${v.title}: none of the 16 escaping paths reaches the server; a write inside runs`, async () => {
      const { parent, ws, out, home } = layout();
      writeSettings(ws, v.extra);
      const s = new CliSession(['--workspace', ws, ...v.args], { env: { HOME: home } });
      sessions.push(s);
      await s.waitFor('fs connected', (l) => l.event === 'serverState' && l.server === 'fs' && l.state === 'connected', 60_000);
      const before = tree(parent, ws);

      const cases = escapes(ws, out);
      cases.forEach(([, p], i) => s.send({ id: i, op: 'call', name: 'fs__write_file', args: p === MISSING ? { content: 'escaped' } : { path: p, content: 'escaped' } }));
      for (let i = 0; i < cases.length; i++) {
        const answer = await s.answer(i, 60_000);
        const [label, p] = cases[i];
        // A string is judged by the rule and denied; anything else fails the tool's input schema first.
        assert.equal(answer.outcome, typeof p === 'string' ? 'denied' : 'invalidArgs', `${label}: ${JSON.stringify(answer)}`);
        assert.equal(answer.confirmedBy, null, label);
      }
      assert.deepEqual(tree(parent, ws), before, 'no file was written anywhere');

      s.send({ id: 'inside', op: 'call', name: 'fs__write_file', args: { path: path.join(ws, 'inside.txt'), content: 'kept' } });
      const inside = await s.answer('inside', 60_000);
      assert.equal(inside.outcome, 'ok', JSON.stringify(inside));
      assert.equal(fs.readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'kept', 'the same server writes inside the workspace');
      s.end();
      assert.equal((await s.exited).code, 0, s.stderr);

      const records = callRecords(ws);
      assert.equal(records.length, cases.length + 1);
      for (const [i, [label, p]] of cases.entries()) {
        const r = records.find((x) => x.name === 'fs__write_file' && (p === MISSING ? x.args.path === undefined : JSON.stringify(x.args.path) === JSON.stringify(p)));
        assert.ok(r, `${label}: audited`);
        if (typeof p !== 'string') continue;
        assert.equal(r.outcome, 'denied', label);
        assert.deepEqual([r.rule?.setting, r.rule?.action, r.rule?.reason], ['mcpHost.rules[0]', 'deny', 'writes outside the workspace'], `${label} (case ${i})`);
      }
      const failed = records.filter((r) => r.rule?.error).map((r) => r.args.path);
      assert.deepEqual(failed.sort(), ['%252e%252e/out/percent2.txt', '%2e%2e/out/percent.txt', '..%2fout%2fslash.txt', 'ok.txt\u0000/../../out/nul.txt', 'sub\\..\\..\\out\\backslash.txt'].sort(), 'the paths isWithin cannot judge are denied with the reason');
      assert.doesNotMatch(s.stderr, /needs confirmation/, 'nobody was asked');
      assert.match(s.stderr, /rule mcpHost\.rules\[0\] \("writes outside the workspace"\) failed on a call of fs\/write_file: .*; the call is denied/);
    });
  }

  it('mcp-host call --yes: an unjudgeable path is refused by the rule, exit 1, and the server is not called', async () => {
    const { parent, ws } = layout();
    writeSettings(ws, {});
    const before = tree(parent, ws);
    const r = await runCli(['call', 'fs__write_file', '--yes', '--json', '--workspace', ws, '--args', JSON.stringify({ path: '%2e%2e/out/oneshot.txt', content: 'escaped' })]);
    assert.equal(r.code, 1, describeRun(r));
    const result = JSON.parse(r.stdout);
    assert.equal(result.outcome, 'denied');
    assert.equal(result.confirmedBy, null);
    assert.match(result.modelText, /refused by the host's policy \(rule mcpHost\.rules\[0\]: writes outside the workspace — path ".*" is inside .* under one reading and outside under another/);
    assert.deepEqual(tree(parent, ws), before);
    const [record] = callRecords(ws);
    assert.deepEqual([record.outcome, record.rule.action, record.confirmedBy], ['denied', 'deny', null]);
  });
});
