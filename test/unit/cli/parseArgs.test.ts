/** Argument parsing of `mcp-host`, in-process. */
import * as assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/exitCodes';
import { helpText } from '../../../src/cli/helpText';
import { usageHint } from '../../../src/cli/usage';
import { parseArgs, type ParsedCommand } from '../../../src/cli/parseArgs';
import { parseCommandLine, type CommandTable } from '../../../src/cli/parseCommandLine';

function usage(argv: string[], message: RegExp, command?: string, parse: (argv: string[]) => unknown = parseArgs): void {
  assert.throws(
    () => parse(argv),
    (e: unknown) => e instanceof UsageError && e.exitCode === 2 && message.test(e.message) && e.command === command,
    `expected a usage error of ${command ?? 'no command'} matching ${message} for ${JSON.stringify(argv)}`,
  );
}

function options(argv: string[]): Record<string, unknown> {
  const p: ParsedCommand = parseArgs(argv);
  assert.ok('options' in p, JSON.stringify(p));
  return p.options as unknown as Record<string, unknown>;
}

describe('cli parseArgs', () => {
  it('parses check with defaults and flags', () => {
    assert.deepEqual(parseArgs(['check']), { command: 'check', options: { workspace: undefined, role: undefined, verbose: false, json: false, login: false, yes: false, allowServers: false, locked: false } });
    assert.deepEqual(options(['check', '--workspace', 'ws', '--role=support', '--json', '--verbose', '--login', '--locked', '-y']), {
      workspace: 'ws',
      role: 'support',
      verbose: true,
      json: true,
      login: true,
      yes: true,
      allowServers: false,
      locked: true,
    });
    assert.equal(options(['check', '--role', ''])['role'], '', '--role "" is no role');
  });

  it('parses call with its name, JSON args and options', () => {
    assert.deepEqual(options(['call', 'basic__echo', '--args', '{"text":"hi"}', '--yes', '--audit', 'a.jsonl', '--timeout', '500', '--json']), {
      workspace: undefined,
      role: undefined,
      verbose: false,
      name: 'basic__echo',
      args: { text: 'hi' },
      yes: true,
      allowServers: false,
      audit: 'a.jsonl',
      timeoutMs: 500,
      json: true,
      login: false,
    });
    assert.deepEqual(options(['call', '-y', 'x'])['args'], {});
    assert.equal(options(['call', '-y', 'x'])['yes'], true);
    assert.equal(options(['call', '--', '-odd-name'])['name'], '-odd-name');
  });

  it('parses session', () => {
    assert.deepEqual(options(['session', '--yes', '--audit=x', '--timeout=10']), {
      workspace: undefined,
      role: undefined,
      verbose: false,
      yes: true,
      allowServers: false,
      audit: 'x',
      timeoutMs: 10,
      login: false,
    });
  });

  it('parses login and logout with the server NAME', () => {
    assert.deepEqual(parseArgs(['login', 'tracker', '--workspace', 'ws']), {
      command: 'login',
      options: { workspace: 'ws', verbose: false, audit: undefined, server: 'tracker' },
    });
    assert.deepEqual(options(['logout', 'tracker', '--audit', 'a.jsonl']), { workspace: undefined, verbose: false, audit: 'a.jsonl', server: 'tracker' });
    usage(['login'], /missing the server NAME to sign in to/, 'login');
    usage(['logout', 'a', 'b'], /expected one server NAME, got 2/, 'logout');
    usage(['login', 'x', '--role', 'r'], /unknown option "--role" for "login" \(it is an option of: check, call, session, serve, lock\)/, 'login');
    usage(['logout', 'x', '--login'], /unknown option "--login" for "logout" \(it is an option of: check, call, session\)/, 'logout');
    assert.match(helpText('login'), /\$BROWSER URL/);
    assert.match(helpText(), /mcp-host login NAME/);
  });

  it('parses serve: --stdio, --http with --port and --token-file, --print-config (issue 29)', () => {
    assert.deepEqual(options(['serve', '--role', 'dev']), {
      workspace: undefined,
      role: 'dev',
      verbose: false,
      stdio: false,
      http: false,
      port: undefined,
      tokenFile: undefined,
      printConfig: undefined,
      allowServers: false,
      audit: undefined,
      timeoutMs: undefined,
    });
    assert.deepEqual([options(['serve', '--http', '--port', '8123'])['port'], options(['serve', '--http', '--token-file', 't'])['tokenFile']], [8123, 't']);
    assert.equal(options(['serve', '--print-config', 'copilot-cli'])['printConfig'], 'copilot-cli');
    usage(['serve', '--http', '--port', '0'], /--port expects a port number from 1 to 65535, got "0"/, 'serve');
    usage(['serve', '--http', '--port', 'x'], /--port expects a port number/, 'serve');
    usage(['serve', '--print-config', 'zed'], /--print-config expects one of claude-code, vscode, copilot-cli, got "zed"/, 'serve');
    usage(['serve', '--yes'], /unknown option "--yes" for "serve"/, 'serve');
    assert.match(helpText('serve'), /Authorization: Bearer <token>/);
    assert.match(helpText(), /mcp-host serve \[--stdio \| --http/);
  });

  it('parses allow [NAME…] and --allow-servers (issue 25)', () => {
    assert.deepEqual(parseArgs(['allow']), { command: 'allow', options: { workspace: undefined, verbose: false, audit: undefined, servers: [] } });
    assert.deepEqual(options(['allow', 'fs', 'memory', '--workspace', 'ws']), { workspace: 'ws', verbose: false, audit: undefined, servers: ['fs', 'memory'] });
    for (const command of ['check', 'session', 'lock']) assert.equal(options([command, '--allow-servers'])['allowServers'], true, command);
    assert.deepEqual([options(['call', 'x', '--allow-servers'])['allowServers'], options(['call', 'x', '--allow-servers'])['yes']], [true, false], 'it is not --yes');
    usage(['allow', '--yes'], /unknown option "--yes" for "allow" \(it is an option of: check, call, session, lock\)/, 'allow');
    usage(['allow', '--allow-servers'], /unknown option "--allow-servers" for "allow" \(it is an option of: check, call, session, serve, lock\)/, 'allow');
    assert.match(helpText('allow'), /without a terminal/);
    assert.match(helpText('call'), /--allow-servers/);
    assert.match(helpText(), /mcp-host allow \[NAME…\]/);
  });

  it('parses lock and the audit commands', () => {
    assert.deepEqual(parseArgs(['lock', '-y', '--role', '']), { command: 'lock', options: { workspace: undefined, role: '', verbose: false, yes: true, allowServers: false } });
    assert.deepEqual(parseArgs(['audit', 'verify', 'a.jsonl', '--json']), { command: 'audit verify', options: { workspace: undefined, json: true, allowUnanchored: false, files: ['a.jsonl'] } });
    assert.equal(options(['audit', 'verify', '--allow-unanchored'])['allowUnanchored'], true);
    const exported = parseArgs(['audit', 'export', '--since', '2026-01-31', '--server', 'basic', '--outcome', 'denied', '--format', 'csv']);
    assert.deepEqual(exported, {
      command: 'audit export',
      options: { workspace: undefined, since: new Date('2026-01-31'), server: 'basic', kind: undefined, outcome: 'denied', format: 'csv', files: [] },
    });
    assert.equal(options(['audit', 'export', '--kind', 'elicitation'])['kind'], 'elicitation');
    usage(['audit', 'export', '--kind', 'calls'], /--kind expects one of call, toolsChanged, elicitation, sampling, roots, auth, resource, prompt, review, consent, got "calls"/, 'audit export');
    assert.equal(options(['audit', 'export'])['format'], 'jsonl');
    usage(['audit', 'export', '--since', 'yesterday'], /--since expects a date like 2026-01-31/, 'audit export');
    usage(['audit', 'export', '--format', 'xml'], /--format expects one of jsonl, csv, got "xml"/, 'audit export');
    usage(['lock', 'x'], /unexpected argument "x"/, 'lock');
    assert.match(helpText('lock'), /mcp-host\.lock\.json/);
    assert.match(helpText('audit verify'), /altered, removed or inserted/);
    assert.match(helpText('check'), /--locked/);
  });

  it('help and version', () => {
    assert.deepEqual(parseArgs(['--help']), { command: 'help' });
    assert.deepEqual(parseArgs(['-h']), { command: 'help' });
    assert.deepEqual(parseArgs(['help', 'call']), { command: 'help', topic: 'call' });
    assert.deepEqual(parseArgs(['call', '--bogus', '-h']), { command: 'help', topic: 'call' }, 'help wins over other problems');
    assert.deepEqual(parseArgs(['--version']), { command: 'version' });
    assert.match(helpText('check'), /"disabled"/);
    assert.match(helpText('session'), /denied unless --yes/);
    assert.match(helpText(), /mcp-host call NAME/);
    assert.match(usageHint('call'), /^usage: mcp-host call NAME/);
  });

  it('rejects bad usage with a clear message', () => {
    usage([], /no command given/);
    usage(['chek'], /unknown command "chek"; commands: check, call, session, serve, login, logout, lock, allow, audit verify, audit export/);
    usage(['help', 'chek'], /unknown command "chek"/);
    usage(['--json'], /expected a command before "--json"/);
    usage(['check', '--bogus'], /unknown option "--bogus" for "check"$/, 'check');
    usage(['check', '--audit', 'x'], /unknown option "--audit" for "check" \(it is an option of: call, session, serve, login, logout, allow\)/, 'check');
    usage(['session', '--locked'], /unknown option "--locked" for "session" \(it is an option of: check\)/, 'session');
    usage(['check', '-x'], /unknown option "-x" for "check"$/, 'check');
    usage(['check', '--role'], /--role needs a value/, 'check');
    usage(['check', '--role', '--json'], /--role needs a value/, 'check');
    usage(['check', '--workspace='], /--workspace needs a non-empty value/, 'check');
    usage(['check', '--workspace', ''], /--workspace needs a non-empty value/, 'check');
    usage(['check', '--json', '--json'], /--json is given more than once/, 'check');
    usage(['call', 'x', '-y', '--yes'], /--yes is given more than once/, 'call');
    usage(['check', '--json=1'], /--json takes no value/, 'check');
    usage(['check', 'extra'], /unexpected argument "extra"/, 'check');
    usage(['check', '--', '--json'], /unexpected argument "--json"/, 'check');
    usage(['call'], /missing the tool NAME/, 'call');
    usage(['call', 'a', 'b'], /expected one tool NAME, got 2: "a" "b"/, 'call');
    usage(['call', 'a', '--args', '{bad'], /--args is not valid JSON/, 'call');
    usage(['call', 'a', '--args', '[1]'], /--args must be a JSON object of arguments, got an array/, 'call');
    usage(['call', 'a', '--args', 'null'], /got null/, 'call');
    usage(['call', 'a', '--args', '"s"'], /got a string/, 'call');
    usage(['call', 'a', '--timeout', '0'], /--timeout expects a positive whole number/, 'call');
    usage(['call', 'a', '--timeout', '1.5'], /--timeout expects a positive whole number/, 'call');
    usage(['call', 'a', '--timeout', '-5'], /--timeout expects a positive whole number of milliseconds, got "-5"/, 'call');
    usage(['call', 'a', '--audit='], /--audit needs a non-empty value/, 'call');
    usage(['session', '--json'], /unknown option "--json" for "session" \(it is an option of: check, call, audit verify\)/, 'session');
    usage(['--version', 'x'], /--version takes no other arguments/);
  });

  it('takes values the way a shell user writes them', () => {
    assert.equal(options(['check', '--role=']).role, '', '--role= is no role');
    assert.equal(options(['check', '--role', '-odd'])['role'], '-odd', 'a value with one dash is a value');
    assert.equal(options(['check', '--workspace=a=b'])['workspace'], 'a=b');
    assert.equal(options(['call', '--args={"a":1}', 'x'])['name'], 'x', 'options before the NAME');
    assert.deepEqual(options(['call', 'x', '--args', '{"a":[1]}'])['args'], { a: [1] });
    assert.equal(options(['call', '-', '-y'])['name'], '-', 'a lone dash is an argument');
    assert.equal(options(['call', '--', '-h'])['name'], '-h', '-h after -- is an argument, not a request for help');
  });
});

/** A table like the commands planned next (login NAME, audit verify [FILE…], audit export --format). */
const PLANNED: CommandTable = {
  login: { options: { verbose: { type: 'boolean' } }, positionals: { key: 'server', label: 'server NAME', variadic: false, missing: 'missing the server NAME to log in to' } },
  lock: { options: {} },
  'audit verify': { options: {}, positionals: { key: 'files', label: 'FILE', variadic: true } },
  'audit export': {
    options: {
      since: { type: 'string', parse: (raw, fail) => (raw === undefined || !Number.isNaN(Date.parse(raw)) ? raw : fail(`--since expects a date, got ${JSON.stringify(raw)}`)) },
      format: { type: 'string', choices: ['jsonl', 'csv'], parse: (raw) => raw ?? 'jsonl' },
    },
  },
};

describe('cli parseCommandLine (a table of other commands)', () => {
  const parse = (argv: string[]) => parseCommandLine(argv, PLANNED);

  it('parses commands of two words, lists of arguments and options with fixed choices', () => {
    assert.deepEqual(parse(['login', 'github']), { command: 'login', options: { server: 'github', verbose: false } });
    assert.deepEqual(parse(['lock']), { command: 'lock', options: {} });
    assert.deepEqual(parse(['audit', 'verify']), { command: 'audit verify', options: { files: [] } });
    assert.deepEqual(parse(['audit', 'verify', 'a.jsonl', 'b.jsonl']), { command: 'audit verify', options: { files: ['a.jsonl', 'b.jsonl'] } });
    assert.deepEqual(parse(['audit', 'export', '--since', '2026-01-01', '--format=csv']), { command: 'audit export', options: { since: '2026-01-01', format: 'csv' } });
    assert.deepEqual(parse(['audit', 'export']), { command: 'audit export', options: { since: undefined, format: 'jsonl' } });
    assert.deepEqual(parse(['audit', 'export', '-h']), { command: 'help', topic: 'audit export' });
    assert.deepEqual(parse(['help', 'audit', 'verify']), { command: 'help', topic: 'audit verify' });
  });

  it('reports their misuse with the command', () => {
    usage(['login'], /missing the server NAME to log in to/, 'login', parse);
    usage(['lock', 'now'], /unexpected argument "now"/, 'lock', parse);
    usage(['audit'], /unknown command "audit"; commands: login, lock, audit verify, audit export/, undefined, parse);
    usage(['audit', 'export', '--format', 'xml'], /--format expects one of jsonl, csv, got "xml"/, 'audit export', parse);
    usage(['audit', 'export', '--since', 'soon'], /--since expects a date, got "soon"/, 'audit export', parse);
    usage(['audit', 'verify', '--format=csv'], /unknown option "--format" for "audit verify" \(it is an option of: audit export\)/, 'audit verify', parse);
  });
});
