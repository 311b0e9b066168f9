/** Consent before a server starts and the audit chain, from the terminal. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { createHost } from '../../../src/cli/createHost';
import { DenyingConfirmer } from '../../../src/cli/denyingConfirmer';
import { loadWorkspace } from '../../../src/cli/loadWorkspace';
import { createStderrLogger } from '../../../src/cli/stderrLogger';
import { TerminalConsentPrompt } from '../../../src/cli/terminalConsentPrompt';
import { testConfigDir } from '../../fixtures/cliConsent';
import { pinnedRequest, unpinnedRequest } from '../../fixtures/consentRequests';
import { describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, tempDir } from './cliHarness';

describe('consent from the terminal', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('without a terminal a server not allowed yet does not start, and says how to allow it; --yes starts it (audited, not kept)', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { basic: fixtureServer('basic') }, 'mcpHost.audit.path': 'audit.jsonl' });
    let r = await runCli(['check', '--workspace', ws, '--json'], { consent: false });
    assert.equal(r.code, 3, 'a decision is needed, not a failure\n' + describeRun(r));
    const doc = parseJson(r);
    const basic = doc.servers[0];
    assert.equal(basic.state, 'notAllowed');
    assert.match(basic.reason, /not started: this server has not been allowed to start in this workspace and there is no terminal to ask on.*basic\.mjs/);
    assert.equal(basic.allow, `mcp-host allow basic --workspace ${ws}`);
    assert.deepEqual(doc.next, [{ reason: 'server "basic" is not allowed to start in this workspace', command: `mcp-host allow basic --workspace ${ws}` }]);
    r = await runCli(['check', '--workspace', ws], { consent: false });
    assert.equal(r.code, 3, describeRun(r));
    assert.match(r.stdout, /^basic +notAllowed +- +not allowed to start in this workspace; run: mcp-host allow basic --workspace \S+$/m);
    assert.match(r.stdout, /\nNOT READY: 0 of 1 started server connected, 0 tools for the role, no problems\.\nNext: mcp-host allow basic --workspace \S+ {3}\(server "basic" is not allowed to start in this workspace\)\n$/);

    r = await runCli(['check', '--workspace', ws, '--yes'], { consent: false });
    assert.equal(r.code, 0, describeRun(r));
    r = await runCli(['call', 'basic__echo', '--args', '{"text":"hi"}', '--workspace', ws], { consent: false });
    assert.equal(r.code, 3, 'a --yes run is not kept: the next run without it is refused again\n' + describeRun(r));
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /mcp-host: server "basic" is not allowed to start in this workspace, so its tools cannot be called\nmcp-host: to allow it, run: mcp-host allow basic --workspace \S+\n/,
    );
    assert.doesNotMatch(r.stderr, /Use only the tools/);
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
        roots: ['/ws/files'],
      });
      if (answer === null) input.end();
      else input.write(answer + '\n');
      return { answer: await pending, shown };
    };
    const yes = await ask('y');
    assert.equal(yes.answer, 'allow');
    assert.match(yes.shown, /the workspace \/ws wants to start the MCP server "files":\n {2}command: npx -y @modelcontextprotocol\/server-filesystem \/ws\n {2}environment variables set: TOKEN/);
    assert.match(yes.shown, /its command changed since you allowed it; before:\n {4}command: npx -y other/);
    assert.match(yes.shown, /\n {2}roots \(folders it is given\): \/ws\/files\n/);
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

  /** A terminal on PassThrough streams: what it showed, and the lines typed once `when` shows. */
  const terminal = () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const typeWhen = async (when: RegExp | ((shown: string) => boolean), line: string | null) => {
      for (let i = 0; !(typeof when === 'function' ? when(shown) : when.test(shown)); i++) {
        if (i > 600) throw new Error(`the terminal never showed ${when}:\n${shown}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (line === null) input.end();
      else input.write(line + '\n');
    };
    return { streams: { input, output }, shown: () => shown, typeWhen };
  };
  const [unpinned, pinned] = [unpinnedRequest, pinnedRequest];

  it('one server: what the lockfile pins is shown; with nothing pinned "y" approves what it lists, "r" reviews first', async () => {
    const t1 = terminal();
    const one = new TerminalConsentPrompt('/ws', t1.streams).ask(pinned);
    await t1.typeWhen(/\[y\/N\] $/, 'y');
    assert.equal(await one, 'allow');
    assert.match(t1.shown(), /command: node kb\.mjs\n {2}environment variables set: \(none\)\n {2}It offers 2 tools, as pinned in mcp-host\.lock\.json:\n {4}search — Searches the knowledge base\n {4}open\n/);

    for (const [line, answer] of [['y', 'approve'], ['r', 'review'], ['', 'deny'], [null, 'dismiss']] as const) {
      const t = terminal();
      const pending = new TerminalConsentPrompt('/ws', t.streams).ask(unpinned('files'));
      await t.typeWhen(/\[y\] yes, and approve the tools it lists \/ \[r\] yes, review them first \/ \[N\] no: $/, line);
      assert.equal(await pending, answer);
      assert.match(t.shown(), /What it offers is not known before it starts: mcp-host\.lock\.json has no entry for it\./);
      if (answer === 'review') assert.match(t.shown(), /the tools of "files" stay quarantined until they are approved: "mcp-host check" lists them, "mcp-host lock" approves them/);
    }
  });

  it('several servers in one question: "a" allows all, one letter per server chooses each; a wrong answer says what is wrong and asks again', async () => {
    const requests = [unpinned('files'), pinned, unpinned('notes')];
    const ask = async (...lines: (string | null)[]) => {
      const t = terminal();
      const pending = new TerminalConsentPrompt('/ws', t.streams).askAll(requests);
      let asked = 0;
      for (const line of lines) {
        const n = ++asked;
        await t.typeWhen((shown) => (shown.match(/Allow them to start\?/g) ?? []).length === n && shown.endsWith(': '), line);
      }
      return { answers: await pending, shown: t.shown() };
    };
    const all = await ask('a');
    assert.deepEqual(all.answers, ['approve', 'allow', 'approve']);
    assert.match(all.shown, /wants to start 3 MCP servers:\n {2}1\. "files"\n {5}command: node files\.mjs/);
    assert.match(all.shown, / {2}2\. "kb"\n[\s\S]* {5}It offers 2 tools, as pinned in mcp-host\.lock\.json:\n {7}search — Searches the knowledge base/);

    const each = await ask('yr', 'y r n', 'r, y, n');
    assert.deepEqual(each.answers, ['review', 'allow', 'deny']);
    assert.match(each.shown, /mcp-host: "yr" has 2 letters for 3 servers \(a, n, or one of y\/r\/n per server\); answer again\./);
    assert.match(each.shown, /mcp-host: letter 2 \("r", for "kb"\) is not y or n \(its tools are pinned: nothing to review first\); answer again\./);
    assert.deepEqual((await ask('')).answers, ['deny', 'deny', 'deny']);
    assert.deepEqual((await ask(null)).answers, ['dismiss', 'dismiss', 'dismiss']);
  });

  it('a real host with two new servers asks once on the terminal; "yr" approves the first\'s tools into the lockfile and leaves the second\'s quarantined', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { basic: fixtureServer('basic'), dynamic: fixtureServer('dynamic') }, 'mcpHost.pinning': 'review' });
    const configDir = tempDir('mcp-host-config-');
    const saved = process.env.MCP_HOST_CONFIG_DIR;
    process.env.MCP_HOST_CONFIG_DIR = configDir;
    const t = terminal();
    const audit = path.join(ws, 'audit.jsonl');
    const host = createHost(loadWorkspace(ws, undefined), {
      yes: false,
      consent: new TerminalConsentPrompt(ws, t.streams),
      confirmer: new DenyingConfirmer('no terminal in this test'),
      logger: createStderrLogger(false, () => undefined),
      env: { ...process.env, MCP_HOST_CONFIG_DIR: configDir },
      audit,
    });
    try {
      const started = host.start();
      await t.typeWhen(/Allow them to start\?[^\n]*$/, 'yr');
      await started;
      assert.equal((t.shown().match(/Allow them to start\?/g) ?? []).length, 1, 'one question for both');
      const lock = JSON.parse(fs.readFileSync(path.join(ws, 'mcp-host.lock.json'), 'utf8'));
      assert.deepEqual(Object.keys(lock.servers), ['basic']);
      const snap = host.snapshot();
      assert.ok(snap.tools('basic').length > 0 && snap.tools('basic').every((v) => !v.quarantine), 'basic: approved at consent');
      assert.ok(snap.tools('dynamic').length > 0 && snap.tools('dynamic').every((v) => v.quarantine?.reason === 'unreviewedServer'), 'dynamic: quarantined until reviewed');
      const kept = JSON.parse(fs.readFileSync(path.join(configDir, 'consent.json'), 'utf8')).workspaces[ws];
      assert.deepEqual(Object.keys(kept).sort(), ['basic', 'dynamic']);
    } finally {
      await host.close();
      if (saved === undefined) delete process.env.MCP_HOST_CONFIG_DIR;
      else process.env.MCP_HOST_CONFIG_DIR = saved;
    }
    const review = fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.kind === 'review');
    assert.deepEqual(review.map((r) => [r.server, r.decision, r.by.via, r.atConsent]), [['basic', 'approve', 'cli', true]]);
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
    // The server's time has no column of its own: it is among the record's other fields (details).
    assert.match(rows[1], /,1,call,,basic,echo,basic__echo,ok,[\d.]+,policy,"\{""text"":""one""\}",echo: one,[0-9a-f]{64},,,"\{""serverMs"":[\d.]+\}"$/);
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

  it('audit verify fails when the last records and the head file are deleted, unless --allow-unanchored says that is expected', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { basic: fixtureServer('basic') }, 'mcpHost.autoApprove': ['basic/echo'], 'mcpHost.audit.path': 'audit.jsonl' });
    for (const text of ['one', 'two']) assert.equal((await runCli(['call', 'basic__echo', '--args', JSON.stringify({ text }), '--workspace', ws])).code, 0);
    const file = path.join(ws, 'audit.jsonl');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('\n')[0] + '\n');
    fs.rmSync(`${file}.head`);
    let r = await runCli(['audit', 'verify', '--workspace', ws]);
    assert.equal(r.code, 1, describeRun(r));
    assert.match(r.stdout, /audit\.jsonl: 1 line \(records 1–1\): 1 problem\n {2}UNANCHORED: audit\.jsonl: its end is not anchored: the head file audit\.jsonl\.head is missing .* pass --allow-unanchored\)\nFAILED: /);
    r = await runCli(['audit', 'verify', '--workspace', ws, '--allow-unanchored']);
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /audit\.jsonl: 1 line \(records 1–1\): chain intact; its last record is not anchored \(no head file\)\nOK: 1 file verified\./);
  });
});
