/** `mcp-host check`, run as a process against the fixture servers. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, tempDir, type Json } from './cliHarness';

describe('mcp-host check', function () {
  this.timeout(40_000);
  after(removeTempDirs);

  /** basic is used by role "reader"; slow is configured but not used by it. */
  const readerWorkspace = () =>
    makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic'), slow: fixtureServer('slow') },
      'mcpHost.roles': {
        reader: { servers: ['basic'], tools: ['basic/*'], exclude: ['basic/secret_echo'], autoApprove: ['basic/echo', 'basic/add'] },
        all: {},
      },
      'mcpHost.activeRole': 'reader',
    });

  it('prints a readable listing for the active role, reading the workspace in the current directory', async () => {
    const ws = readerWorkspace();
    const r = await runCli(['check'], { cwd: ws });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^Role:\s+reader$/m);
    assert.match(r.stdout, /^SERVER\s+STATE\s+TOOLS\s+DETAILS$/m);
    assert.match(r.stdout, /^basic\s+connected\s+8\/9\s+basic 1\.0\.0, protocol 2025-11-25 \(legacy\), over stdio$/m);
    assert.match(r.stdout, /^slow\s+disabled\s+-\s+not used by role "reader"$/m);
    assert.match(r.stdout, /^basic__echo\s+basic\s+auto\s+Echoes its text back/m);
    assert.match(r.stdout, /^basic__fail\s+basic\s+ask\s+/m);
    assert.doesNotMatch(r.stdout, /secret_echo/);
    assert.match(r.stdout, /^OK: 1 of 1 started server connected, 8 tools for the role, no problems\.$/m);
    assert.equal(r.stderr, '', 'nothing on stderr without --verbose when all is well');
  });

  it('--json prints one document with servers, tools and problems', async () => {
    const ws = readerWorkspace();
    const r = await runCli(['check', '--workspace', ws, '--json']);
    assert.equal(r.code, 0, describeRun(r));
    const doc = parseJson(r);
    assert.deepEqual(Object.keys(doc), ['role', 'servers', 'tools', 'appOnly', 'budget', 'quarantined', 'problems', 'next']);
    assert.deepEqual(doc.next, [], 'nothing to decide');
    assert.deepEqual(Object.keys(doc.budget), ['tools', 'tokens', 'tokenizer', 'maxTools', 'maxToolTokens', 'over']);
    assert.equal(doc.budget.tools, 8);
    assert.equal(doc.budget.over, false);
    assert.deepEqual(doc.quarantined, [], 'pinning is off in this workspace');
    assert.equal(doc.role, 'reader');
    const [basic, slow] = doc.servers;
    assert.equal(basic.name, 'basic');
    assert.equal(basic.state, 'connected');
    assert.equal(typeof basic.protocolVersion, 'string');
    assert.deepEqual(basic.serverInfo, { name: 'basic', version: '1.0.0' });
    assert.equal(basic.toolCount, 9);
    assert.equal(basic.visibleToolCount, 8);
    assert.equal(basic.error, undefined);
    assert.deepEqual(slow, { name: 'slow', state: 'disabled', reason: 'not used by role "reader"', toolCount: 0, visibleToolCount: 0 });

    const echo = doc.tools.find((t: Json) => t.name === 'basic__echo');
    assert.deepEqual(Object.keys(echo), ['name', 'server', 'tool', 'confirm', 'description', 'inputSchema', 'annotations']);
    assert.equal(echo.server, 'basic');
    assert.equal(echo.tool, 'echo');
    assert.equal(echo.confirm, 'auto');
    assert.equal(echo.inputSchema.type, 'object');
    assert.deepEqual(echo.annotations, { readOnlyHint: true });
    const fail = doc.tools.find((t: Json) => t.name === 'basic__fail');
    assert.equal(fail.confirm, 'ask', 'destructive by annotation, but the host policy decides: default ask');
    const noop = doc.tools.find((t: Json) => t.name === 'basic__noop');
    assert.equal(noop.confirm, 'ask');
    assert.equal('annotations' in noop, false);
    assert.equal(doc.tools.some((t: Json) => t.tool === 'secret_echo'), false, 'excluded by the role');
    assert.deepEqual(doc.problems, []);
  });

  it('counts the tokens of the role\'s definitions and warns when a role of 400 tools is over its budget', async () => {
    const servers = Object.fromEntries(
      ['crm', 'billing', 'support', 'devops'].map((s, i) => [s, fixtureServer('many-tools', { FIXTURE_TOOL_COUNT: '100', FIXTURE_TOOL_OFFSET: String(i * 100) })]),
    );
    const ws = makeWorkspace({ 'mcpHost.servers': servers, 'mcpHost.roles': { all: {}, lean: { servers: ['crm'], maxToolTokens: 100000 } }, 'mcpHost.activeRole': 'all' });
    const json = await runCli(['check', '--workspace', ws, '--json'], { timeoutMs: 60_000 });
    assert.equal(json.code, 0, describeRun(json));
    const doc = parseJson(json);
    assert.equal(doc.tools.length, 400);
    const { tokens, ...rest } = doc.budget;
    assert.deepEqual(rest, { tools: 400, tokenizer: 'o200k_base', maxTools: 128, maxToolTokens: null, over: true });
    assert.ok(tokens > 400 * 40 && tokens < 400 * 200, `${tokens} tokens for 400 definitions`);
    const warning = doc.problems.find((p: Json) => p.setting === 'mcpHost.maxTools');
    assert.equal(warning?.severity, 'warning');
    assert.match(warning.message, new RegExp(`role "all" has 400 tools \\(${tokens} tokens of definitions, o200k_base\\), over the budget of 128 tools`));

    const text = await runCli(['check', '--workspace', ws, '--role', 'lean'], { timeoutMs: 60_000 });
    assert.equal(text.code, 0, describeRun(text));
    assert.match(text.stdout, /^Budget: {4}100 tools, [\d,]+ tokens of definitions \(o200k_base\) per request; limit 128 tools, 100,000 tokens; within budget$/m);
    assert.equal(text.stderr, '', 'within budget: no warning');
    const over = await runCli(['check', '--workspace', ws], { timeoutMs: 60_000 });
    assert.match(over.stderr, /^mcp-host warning: mcpHost\.maxTools: role "all" has 400 tools \(\d+ tokens of definitions, o200k_base\), over the budget of 128 tools/m);
    assert.match(over.stdout, /OVER: each request carries the most relevant tools plus search_tools/);
  });

  it('--role overrides mcpHost.activeRole; --role "" means no role', async () => {
    const ws = readerWorkspace();
    const all = parseJson(await runCli(['check', '--workspace', ws, '--json', '--role', 'all']));
    assert.equal(all.role, 'all');
    assert.deepEqual(
      all.servers.map((s: Json) => [s.name, s.state]),
      [
        ['basic', 'connected'],
        ['slow', 'connected'],
      ],
    );
    assert.equal(all.tools.length, 11);
    const none = parseJson(await runCli(['check', '--workspace', ws, '--json', '--role=']));
    assert.equal(none.role, null);
    assert.equal(none.tools.length, 11);
  });

  it('a server that fails to start gives exit 1 and its error', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic'), broken: fixtureServer('crashy', { FIXTURE_CRASH_ON_START: '1' }) },
    });
    const r = await runCli(['check', '--workspace', ws, '--json']);
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    const broken = doc.servers.find((s: Json) => s.name === 'broken');
    assert.equal(broken.state, 'error');
    assert.match(broken.error, /exited \(code 4\)/);
    assert.equal(doc.servers.find((s: Json) => s.name === 'basic').state, 'connected');
    assert.match(r.stderr, /\[broken\] failed to start/, 'errors are logged on stderr even without --verbose');

    const human = await runCli(['check', '--workspace', ws]);
    assert.equal(human.code, 1);
    assert.match(human.stdout, /^broken\s+error\s+-\s+server process exited \(code 4\)/m);
    assert.match(human.stdout, /^FAILED: 1 of 2 started servers connected/m);
  });

  it('a server whose command fails reports the error\'s own line from stderr, not the stack\'s tail, and suggests --verbose', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { broken: { command: process.execPath, args: ['-e', "require('node:nonexistent')"] } } });
    const r = await runCli(['check', '--workspace', ws]);
    assert.equal(r.code, 1, describeRun(r));
    const line = /^broken +error +- +(.*)$/m.exec(r.stdout)?.[1];
    assert.equal(line, 'server process exited (code 1) before initialize completed; stderr: Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:nonexistent', describeRun(r));
    assert.doesNotMatch(r.stderr, /code: 'ERR_UNKNOWN_BUILTIN_MODULE'|\| \}|Node\.js v/, 'not the tail of the stack');
    assert.match(r.stderr, /\nmcp-host: to see everything "broken" wrote to stderr, run the command again with --verbose\n$/);

    const verbose = await runCli(['check', '--workspace', ws, '--verbose']);
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /\[broken\] stderr: +at /, '--verbose shows the whole stderr, stack included');
    assert.doesNotMatch(verbose.stderr, /run the command again with --verbose/);
  });

  it('settings problems carry their setting path; an error problem gives exit 1', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': { basic: fixtureServer('basic'), bad: { command: 'x', args: ['ok', 5] } },
      'mcpHost.autoApprove': ['nosuchserver/*'],
    });
    const r = await runCli(['check', '--workspace', ws, '--json']);
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    const err = doc.problems.find((p: Json) => p.setting === 'mcpHost.servers.bad.args[1]');
    assert.ok(err, JSON.stringify(doc.problems));
    assert.equal(err.severity, 'error');
    assert.match(err.message, /expected a string, got number 5/);
    const warn = doc.problems.find((p: Json) => p.setting === 'mcpHost.autoApprove[0]');
    assert.equal(warn.severity, 'warning');
    assert.deepEqual(
      doc.servers.map((s: Json) => s.name),
      ['basic'],
      'the bad server is dropped, the good one still runs',
    );
    assert.equal(r.stderr, '', 'with --json the problems are in the document, not on stderr');

    const human = await runCli(['check', '--workspace', ws]);
    assert.equal(human.code, 1);
    assert.match(human.stderr, /^mcp-host error: mcpHost\.servers\.bad\.args\[1\]: expected a string, got number 5/m);
    assert.match(human.stderr, /^mcp-host warning: mcpHost\.autoApprove\[0\]: /m);
    assert.match(human.stdout, /1 error problem, 1 warning \(printed on stderr\)/);
  });

  it('naming problems from the registry are problems too', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': {
        one: fixtureServer('collide', { FIXTURE_NAME: 'one', FIXTURE_TOOLS: 'search' }),
        two: fixtureServer('collide', { FIXTURE_NAME: 'two', FIXTURE_TOOLS: 'search' }),
      },
      'mcpHost.toolNames': 'reject',
    });
    const r = await runCli(['check', '--workspace', ws, '--json', '--verbose']);
    assert.equal(r.code, 0, `a refused duplicate is a warning: ${describeRun(r)}`);
    assert.match(r.stderr, /\[one\] stderr: fixture collide\(one\) started/, '--verbose shows server stderr');
    const doc = parseJson(r);
    assert.deepEqual(
      doc.tools.map((t: Json) => [t.name, t.server]),
      [['search', 'one']],
    );
    assert.equal(doc.problems.length, 1);
    assert.equal(doc.problems[0].severity, 'warning');
    assert.equal(doc.problems[0].server, 'two');
    assert.match(doc.problems[0].message, /already used by server "one"/);
  });

  it('${secret:NAME} reads MCP_HOST_SECRET_NAME from the environment; a missing secret fails only its server', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': {
        withSecret: { ...fixtureServer('basic'), env: { TOKEN: '${secret:api-token}' } },
        missing: { ...fixtureServer('basic'), env: { TOKEN: '${secret:other}' } },
      },
    });
    const r = await runCli(['check', '--workspace', ws, '--json'], { env: { MCP_HOST_SECRET_API_TOKEN: 'tok-123456' } });
    assert.equal(r.code, 1, describeRun(r));
    const doc = parseJson(r);
    assert.deepEqual(
      doc.servers.map((s: Json) => [s.name, s.state]),
      [
        ['withSecret', 'connected'],
        ['missing', 'error'],
      ],
    );
    assert.match(doc.servers[1].error, /secret "other" is not set \(mcpHost\.servers\.missing\.env\.TOKEN\)/);
    assert.doesNotMatch(r.stdout + r.stderr, /tok-123456/);
  });

  it('unreadable settings exit 2', async () => {
    const ws = makeWorkspace('{ "mcpHost.servers": { "a": } }');
    const r = await runCli(['check', '--workspace', ws, '--json']);
    assert.equal(r.code, 2, describeRun(r));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /settings\.json:1:29: value expected/);

    const missing = await runCli(['check', '--workspace', path.join(tempDir(), 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no \.vscode\/settings\.json in /);
  });

  it('an unknown role exits 2 with the list of roles', async () => {
    const ws = readerWorkspace();
    const r = await runCli(['check', '--workspace', ws, '--role', 'admin']);
    assert.equal(r.code, 2, describeRun(r));
    assert.match(r.stderr, /unknown role "admin" \(roles: reader, all\)/);
    assert.equal(r.stdout, '');
  });

  it('an unknown flag is bad usage (exit 2); --version prints the package version', async () => {
    const bad = await runCli(['check', '--jsn']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown option "--jsn" for "check"/);
    assert.match(bad.stderr, /usage: mcp-host check /);

    const version = await runCli(['--version']);
    assert.equal(version.code, 0);
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    assert.equal(version.stdout, `${pkg.version}\n`);
  });
});
