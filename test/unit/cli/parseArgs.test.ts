/** Argument parsing of `mcp-host`, in-process. */
import * as assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/exitCodes';
import { helpText, usageHint } from '../../../src/cli/helpText';
import { parseArgs, type ParsedCommand } from '../../../src/cli/parseArgs';

function usage(argv: string[], message: RegExp): void {
  assert.throws(
    () => parseArgs(argv),
    (e: unknown) => e instanceof UsageError && e.exitCode === 2 && message.test(e.message),
    `expected a usage error matching ${message} for ${JSON.stringify(argv)}`,
  );
}

function options(argv: string[]): Record<string, unknown> {
  const p: ParsedCommand = parseArgs(argv);
  assert.ok('options' in p, JSON.stringify(p));
  return p.options as unknown as Record<string, unknown>;
}

describe('cli parseArgs', () => {
  it('parses check with defaults and flags', () => {
    assert.deepEqual(parseArgs(['check']), { command: 'check', options: { workspace: undefined, role: undefined, verbose: false, json: false } });
    assert.deepEqual(options(['check', '--workspace', 'ws', '--role=support', '--json', '--verbose']), {
      workspace: 'ws',
      role: 'support',
      verbose: true,
      json: true,
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
      audit: 'a.jsonl',
      timeoutMs: 500,
      json: true,
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
      audit: 'x',
      timeoutMs: 10,
    });
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
    usage(['chek'], /unknown command "chek"; commands: check, call, session/);
    usage(['--json'], /expected a command before "--json"/);
    usage(['check', '--bogus'], /unknown option "--bogus" for "check"/);
    usage(['check', '--yes'], /unknown option "--yes" for "check" \(it is an option of: call, session\)/);
    usage(['check', '--role'], /--role needs a value/);
    usage(['check', '--role', '--json'], /--role needs a value/);
    usage(['check', '--workspace='], /--workspace needs a non-empty value/);
    usage(['check', '--json', '--json'], /--json is given more than once/);
    usage(['check', '--json=1'], /--json takes no value/);
    usage(['check', 'extra'], /unexpected argument "extra"/);
    usage(['call'], /missing the tool NAME/);
    usage(['call', 'a', 'b'], /expected one tool NAME, got 2/);
    usage(['call', 'a', '--args', '{bad'], /--args is not valid JSON/);
    usage(['call', 'a', '--args', '[1]'], /--args must be a JSON object of arguments, got an array/);
    usage(['call', 'a', '--args', 'null'], /got null/);
    usage(['call', 'a', '--timeout', '0'], /--timeout expects a positive whole number/);
    usage(['call', 'a', '--timeout', '1.5'], /--timeout expects a positive whole number/);
    usage(['session', '--json'], /unknown option "--json" for "session"/);
    usage(['--version', 'x'], /--version takes no other arguments/);
  });
});
