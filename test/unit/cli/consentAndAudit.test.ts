/** Consent before a server starts and the audit chain, from the terminal. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { TerminalConsentPrompt } from '../../../src/cli/terminalConsentPrompt';
import { testConfigDir } from '../../fixtures/cliConsent';
import { describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli } from './cliHarness';

describe('consent from the terminal', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('without a terminal a server not allowed yet does not start, and says how to allow it; --yes starts it (audited, not kept)', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { basic: fixtureServer('basic') }, 'mcpHost.audit.path': 'audit.jsonl' });
    let r = await runCli(['check', '--workspace', ws, '--json'], { consent: false });
    assert.equal(r.code, 1, describeRun(r));
    const basic = parseJson(r).servers[0];
    assert.equal(basic.state, 'error');
    assert.match(basic.error, /not started: this server has not been allowed to start in this workspace and there is no terminal to ask on; allow it once on a terminal \(e\.g\. "mcp-host check"\), or pass --yes: .*basic\.mjs/);

    r = await runCli(['check', '--workspace', ws, '--yes'], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    r = await runCli(['call', 'basic__echo', '--args', '{"text":"hi"}', '--workspace', ws], { consent: false });
    assert.equal(r.code, 1, 'a --yes run is not kept: the next run without it is refused again');
    const records = fs.readFileSync(path.join(ws, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const consent = records.filter((x) => x.kind === 'consent');
    assert.deepEqual(consent.map((x) => [x.server, x.decision, x.by.via, x.remembered]), [['basic', 'allow', 'flag', false]]);
    assert.match(consent[0].target, /basic\.mjs$/);
    assert.ok(!fs.existsSync(path.join(testConfigDir(), 'consent.json')) || !fs.readFileSync(path.join(testConfigDir(), 'consent.json'), 'utf8').includes(ws));
  });

  it('asks y/N on a terminal with the exact command; "y" allows, anything else denies, end of input dismisses', async () => {
    const ask = async (answer: string | null) => {
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (d) => (shown += d));
      const prompt = new TerminalConsentPrompt('/ws', { input, output });
      const pending = prompt.ask({
        server: 'files',
        identity: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/ws'], envKeys: ['TOKEN'] },
        previous: { type: 'stdio', command: 'npx', args: ['-y', 'other'], envKeys: [] },
      });
      if (answer === null) input.end();
      else input.write(answer + '\n');
      return { answer: await pending, shown };
    };
    const yes = await ask('y');
    assert.equal(yes.answer, 'allow');
    assert.match(yes.shown, /the workspace \/ws wants to start the MCP server "files":\n {2}command: npx -y @modelcontextprotocol\/server-filesystem \/ws\n {2}environment variables set: TOKEN/);
    assert.match(yes.shown, /its command changed since you allowed it; before:\n {4}command: npx -y other/);
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const input = new PassThrough();
    const pending = new TerminalConsentPrompt('/ws', { input, output }).ask({ server: 'r', identity: { type: 'http', url: 'https://h/mcp?key=${env:API_KEY}' }, changedVariables: ['API_KEY'] });
    input.write('y\n');
    assert.equal(await pending, 'allow');
    assert.match(shown, /"r":\n {2}HTTP endpoint: https:\/\/h\/mcp\?key=\$\{env:API_KEY\}\n {2}\(the value of \$\{env:API_KEY\} changed since it was allowed \(the value itself is not shown\)\)/);
    assert.equal((await ask('no')).answer, 'deny');
    assert.equal((await ask('')).answer, 'deny');
    assert.equal((await ask(null)).answer, 'dismiss');
  });
});

describe('mcp-host audit verify and export', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('verifies the chain of the workspace audit, names an altered line, and exports filtered records as CSV and JSONL', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { basic: fixtureServer('basic') }, 'mcpHost.autoApprove': ['basic/echo'], 'mcpHost.audit.path': 'logs/audit.jsonl' });
    for (const text of ['one', 'two', 'three']) assert.equal((await runCli(['call', 'basic__echo', '--args', JSON.stringify({ text }), '--workspace', ws])).code, 0);
    assert.equal((await runCli(['call', 'basic__noop', '--workspace', ws])).code, 1, 'denied: no terminal');

    let r = await runCli(['audit', 'verify', '--workspace', ws]);
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /audit\.jsonl: 4 lines \(records 1–4\): chain intact\nOK: 1 file verified\./);

    r = await runCli(['audit', 'export', '--workspace', ws, '--outcome', 'ok', '--format', 'csv']);
    assert.equal(r.code, 0, describeRun(r));
    const rows = r.stdout.trim().split('\r\n');
    assert.equal(rows[0], 'ts,seq,kind,role,server,tool,name,outcome,durationMs,confirmedBy,args,result,definitionHash,decision,by,details');
    assert.equal(rows.length, 4);
    assert.match(rows[1], /,1,call,,basic,echo,basic__echo,ok,[\d.]+,policy,"\{""text"":""one""\}",echo: one,[0-9a-f]{64},,,$/);
    r = await runCli(['audit', 'export', '--workspace', ws, '--since', '2000-01-01', '--server', 'basic']);
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => JSON.parse(l).outcome), ['ok', 'ok', 'ok', 'denied']);
    assert.equal((await runCli(['audit', 'export', '--workspace', ws, '--since', '2999-01-01'])).stdout, '');

    const file = path.join(ws, 'logs', 'audit.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1].replace('echo: two', 'echo: 2');
    fs.writeFileSync(file, lines.join('\n'));
    r = await runCli(['audit', 'verify', file]);
    assert.equal(r.code, 1, describeRun(r));
    assert.match(r.stdout, /ALTERED: audit\.jsonl:2: this line was altered/);
    assert.match(r.stdout, /FAILED: the first problem is audit\.jsonl:2:/);
    assert.deepEqual(parseJson(await runCli(['audit', 'verify', file, '--json'])).files[0].problems.map((p: { line: number; kind: string }) => [p.line, p.kind]), [[2, 'altered']]);
  });
});
