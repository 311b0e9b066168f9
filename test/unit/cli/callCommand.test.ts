/** `mcp-host call`, run as a process against the fixture servers. stdin is a pipe: never a terminal. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JSON_SLICE } from '../../../src/cli/jsonStream';
import { isProcessAlive, readFixtureLog } from '../../fixtures/fixtureServers';
import { describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, startCli, tempDir, type Json } from './cliHarness';

describe('mcp-host call', function () {
  this.timeout(40_000);
  after(removeTempDirs);

  let ws: string;
  let fixtureLog: string;
  before(() => {
    fixtureLog = path.join(tempDir(), 'slow.log');
    ws = makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic'), slow: fixtureServer('slow', { FIXTURE_LOG: fixtureLog }) },
      // One server per role, so each call starts one fixture process.
      'mcpHost.roles': { basic: { servers: ['basic'] }, slow: { servers: ['slow'] } },
      'mcpHost.activeRole': 'basic',
      'mcpHost.autoApprove': ['basic/echo', 'basic/add', 'slow/*'],
      'mcpHost.audit.path': '.mcp-host/audit.jsonl',
    });
  });

  const call = (...args: string[]) => runCli(['call', ...args, '--workspace', ws]);

  it('--json: an ok call, run by the policy, with the content as returned and the model text', async () => {
    const r = await call('basic__echo', '--args', '{"text":"hi"}', '--json');
    assert.equal(r.code, 0, describeRun(r));
    const doc = parseJson(r);
    assert.deepEqual(Object.keys(doc), ['name', 'server', 'tool', 'outcome', 'confirmedBy', 'durationMs', 'content', 'modelText']);
    assert.equal(doc.name, 'basic__echo');
    assert.equal(doc.server, 'basic');
    assert.equal(doc.tool, 'echo');
    assert.equal(doc.outcome, 'ok');
    assert.equal(doc.confirmedBy, 'policy');
    assert.equal(typeof doc.durationMs, 'number');
    assert.deepEqual(doc.content, [{ type: 'text', text: 'echo: hi' }]);
    assert.equal(doc.modelText, 'echo: hi');
    // The workspace's audit file got the record.
    const audit = fs.readFileSync(path.join(ws, '.mcp-host', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(audit.at(-1).name, 'basic__echo');
  });

  it('--json is streamed and still exactly JSON.stringify(document, null, 2): a long text with unicode, lone surrogates and control characters', async () => {
    // Escaped in --args (one argument stays under Linux's 128 KiB), longer than a slice of the writer (src/cli/jsonStream.ts).
    const escaped = 'é€😀 \\ud83d \\ude00 \\u0000\\u001f \\"quoted\\" \\\\ back\\n'.repeat(200) + 'plain text'.repeat(10_000);
    const text = JSON.parse(`"${escaped}"`) as string;
    assert.ok(text.length > JSON_SLICE);
    const r = await call('basic__echo', '--args', `{"text":"${escaped}"}`, '--json');
    assert.equal(r.code, 0, describeRun(r));
    const doc = parseJson(r);
    assert.deepEqual(doc.content, [{ type: 'text', text: `echo: ${text}` }]);
    assert.equal(r.stdout, JSON.stringify(doc, null, 2) + '\n');
  });

  it('without --json prints the model text; structuredContent is in --json', async () => {
    const r = await call('basic__add', '--args', '{"a":2,"b":3}');
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, '5\n');
    const j = parseJson(await call('basic__add', '--args={"a":2,"b":3}', '--json'));
    assert.deepEqual(j.structuredContent, { sum: 5 });
    assert.equal(j.modelText, '5');

    const image = await call('basic__image', '--yes');
    assert.equal(image.code, 0);
    assert.equal(image.stdout, 'before image\n[image image/png, 77 B]\nafter image\n');
  });

  it('isError from the server: exit 1, the error text goes back as the result; --yes confirms by "flag" and --audit writes there', async () => {
    const auditFile = path.join(tempDir(), 'nested', 'audit.jsonl');
    const r = await call('basic__fail', '--args', '{"reason":"boom"}', '--yes', '--audit', auditFile, '--json');
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    assert.equal(doc.outcome, 'isError');
    assert.equal(doc.confirmedBy, 'flag');
    assert.equal(doc.modelText, 'something failed: boom');
    const lines = fs.readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.deepEqual(
      { kind: lines[0].kind, server: lines[0].server, tool: lines[0].tool, args: lines[0].args, outcome: lines[0].outcome, confirmedBy: lines[0].confirmedBy },
      { kind: 'call', server: 'basic', tool: 'fail', args: { reason: 'boom' }, outcome: 'isError', confirmedBy: 'flag' },
    );
    assert.equal(lines[0].result, 'something failed: boom');
  });

  it('a call that needs confirmation is denied without a terminal and without --yes', async () => {
    const r = await call('basic__noop', '--json');
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    assert.equal(doc.outcome, 'denied');
    assert.equal(doc.confirmedBy, null);
    assert.deepEqual(doc.content, []);
    assert.match(doc.modelText, /denied the call to tool "basic__noop"/);
    assert.match(r.stderr, /needs confirmation and there is no terminal to ask on.*pass --yes/);

    const yes = parseJson(await call('basic__noop', '--yes', '--json'));
    assert.equal(yes.outcome, 'ok');
    assert.equal(yes.confirmedBy, 'flag');
  });

  it('notFound and invalidArgs are outcomes (exit 1), not usage errors', async () => {
    const missing = await call('basic__nope', '--json');
    assert.equal(missing.code, 1);
    const m = parseJson(missing);
    assert.equal(m.outcome, 'notFound');
    assert.equal(m.server, null);
    assert.equal(m.tool, null);
    assert.match(m.modelText, /Tool "basic__nope" is not available/);

    const human = await call('basic__nope');
    assert.equal(human.stdout, '', 'the host answered, not a tool');
    assert.match(human.stderr, /mcp-host: role "\w+" has no tool "basic__nope"; run "mcp-host check --workspace \S+" to list the role's tools\n/);
    assert.doesNotMatch(human.stderr, /Use only the tools offered/, 'the model\'s words are not the person\'s');
    const outside = await call('slow__sleep', '--args', '{"ms":1}');
    assert.equal(outside.code, 1, describeRun(outside));
    assert.equal(outside.stdout, '');
    assert.match(
      outside.stderr,
      /mcp-host: tool "slow__sleep" would be a tool of server "slow", which role "basic" does not use; run "mcp-host check --workspace \S+" to list the role's tools, or pick a role with --role NAME\n/,
    );

    const invalid = await call('basic__echo', '--args', '{"text":5}', '--json');
    assert.equal(invalid.code, 1);
    const i = parseJson(invalid);
    assert.equal(i.outcome, 'invalidArgs');
    assert.match(i.modelText, /Invalid arguments for tool "basic__echo"; the server was not called/);
  });

  it('--timeout: a slow call times out and the server is told to cancel', async () => {
    const r = await call('slow__sleep', '--args', '{"ms":10000}', '--timeout', '300', '--role', 'slow', '--json');
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    assert.equal(doc.outcome, 'timeout');
    assert.ok(doc.durationMs >= 290 && doc.durationMs < 5000, String(doc.durationMs));
    assert.match(doc.modelText, /timed out after 300 ms/);
    const events = readFixtureLog(fixtureLog);
    assert.ok(
      events.some((e: Json) => e.event === 'cancelled' && e.tool === 'sleep'),
      JSON.stringify(events),
    );
  });

  it('SIGINT cancels the call in flight, audits it, stops the servers and exits 130', async () => {
    const auditFile = path.join(tempDir(), 'audit.jsonl');
    const cli = startCli(['call', 'slow__sleep', '--args', '{"ms":20000}', '--workspace', ws, '--role', 'slow', '--audit', auditFile, '--json']);
    const end = Date.now() + 15_000;
    let started: Json;
    while (!(started = readFixtureLog(fixtureLog).find((e: Json) => e.event === 'call' && e.args?.ms === 20000))) {
      if (Date.now() > end) throw new Error('the call never reached the server');
      await new Promise((r) => setTimeout(r, 50));
    }
    cli.child.kill('SIGINT');
    const r = await cli.result;
    assert.equal(r.code, 130, describeRun(r));
    assert.equal(parseJson(r).outcome, 'cancelled');
    assert.equal(isProcessAlive(started.pid), false, 'the slow server is gone');
    const events = readFixtureLog(fixtureLog).filter((e: Json) => e.pid === started.pid);
    assert.ok(events.some((e: Json) => e.event === 'cancelled' && e.requestId === started.requestId), JSON.stringify(events));
    const audit = fs.readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(
      audit.map((a) => [a.name, a.outcome]),
      [['slow__sleep', 'cancelled']],
    );
  });

  it('bad --args JSON is bad usage (exit 2) before any server starts', async () => {
    const bad = await call('basic__echo', '--args', '{text: hi}');
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /--args is not valid JSON: .*example: --args '\{"text":"hello"\}'/);
    assert.match(bad.stderr, /usage: mcp-host call NAME/);
  });
});
