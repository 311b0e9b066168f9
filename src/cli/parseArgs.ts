import { UsageError } from './exitCodes';

/** The commands of `mcp-host`. */
export const COMMANDS = ['check', 'call', 'session'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Options every command takes. */
export interface CommonOptions {
  /** `--workspace DIR`; undefined = the current directory. */
  readonly workspace?: string;
  /** `--role NAME`; undefined = `mcpHost.activeRole`, '' = no role (all servers, all tools). */
  readonly role?: string;
  readonly verbose: boolean;
}

export interface CheckOptions extends CommonOptions {
  readonly json: boolean;
}

export interface CallOptions extends CommonOptions {
  /** The exposed tool name. */
  readonly name: string;
  /** Parsed `--args` (always a JSON object); {} without --args. */
  readonly args: Record<string, unknown>;
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
  readonly json: boolean;
}

export interface SessionOptions extends CommonOptions {
  readonly yes: boolean;
  readonly audit?: string;
  readonly timeoutMs?: number;
}

export type ParsedCommand =
  | { readonly command: 'help'; readonly topic?: CommandName }
  | { readonly command: 'version' }
  | { readonly command: 'check'; readonly options: CheckOptions }
  | { readonly command: 'call'; readonly options: CallOptions }
  | { readonly command: 'session'; readonly options: SessionOptions };

type FlagKind = 'value' | 'boolean';

const COMMON_FLAGS: Record<string, FlagKind> = { '--workspace': 'value', '--role': 'value', '--verbose': 'boolean' };

const FLAGS: Record<CommandName, Record<string, FlagKind>> = {
  check: { ...COMMON_FLAGS, '--json': 'boolean' },
  call: {
    ...COMMON_FLAGS,
    '--args': 'value',
    '--yes': 'boolean',
    '--audit': 'value',
    '--timeout': 'value',
    '--json': 'boolean',
  },
  session: { ...COMMON_FLAGS, '--yes': 'boolean', '--audit': 'value', '--timeout': 'value' },
};

const ALIASES: Record<string, string> = { '-y': '--yes' };

function isCommand(s: string | undefined): s is CommandName {
  return (COMMANDS as readonly string[]).includes(s ?? '');
}

/**
 * Parse `argv` (without node and the script). Throws {@link UsageError} for anything that is not
 * a valid invocation. `--help`/`-h` anywhere before `--` wins over every other problem.
 */
export function parseArgs(argv: readonly string[]): ParsedCommand {
  const beforeDashes = argv.indexOf('--') === -1 ? argv : argv.slice(0, argv.indexOf('--'));
  const first = argv[0];

  if (first === 'help') {
    const topic = argv[1];
    if (topic === undefined) return { command: 'help' };
    if (!isCommand(topic)) throw new UsageError(`unknown command "${topic}"; commands: ${COMMANDS.join(', ')}`);
    return { command: 'help', topic };
  }
  if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
    return isCommand(first) ? { command: 'help', topic: first } : { command: 'help' };
  }
  if (first === '--version') {
    if (argv.length > 1) throw new UsageError(`--version takes no other arguments`);
    return { command: 'version' };
  }
  if (first === undefined) throw new UsageError('no command given');
  if (!isCommand(first)) {
    if (first.startsWith('-')) throw new UsageError(`expected a command before "${first}"`);
    throw new UsageError(`unknown command "${first}"; commands: ${COMMANDS.join(', ')}`);
  }

  const command = first;
  const { flags, positionals } = scan(command, argv.slice(1));
  const common: CommonOptions = {
    workspace: nonEmpty(flags.get('--workspace'), '--workspace', command),
    role: flags.get('--role'),
    verbose: flags.has('--verbose'),
  };

  switch (command) {
    case 'check':
      noPositionals(command, positionals);
      return { command, options: { ...common, json: flags.has('--json') } };
    case 'session':
      noPositionals(command, positionals);
      return {
        command,
        options: {
          ...common,
          yes: flags.has('--yes'),
          audit: nonEmpty(flags.get('--audit'), '--audit', command),
          timeoutMs: parseTimeout(flags.get('--timeout'), command),
        },
      };
    case 'call': {
      if (positionals.length === 0) throw new UsageError('missing the tool NAME to call', command);
      if (positionals.length > 1) {
        throw new UsageError(`expected one tool NAME, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(' ')}`, command);
      }
      return {
        command,
        options: {
          ...common,
          name: positionals[0],
          args: parseToolArgs(flags.get('--args'), command),
          yes: flags.has('--yes'),
          audit: nonEmpty(flags.get('--audit'), '--audit', command),
          timeoutMs: parseTimeout(flags.get('--timeout'), command),
          json: flags.has('--json'),
        },
      };
    }
  }
}

function scan(command: CommandName, args: readonly string[]): { flags: Map<string, string>; positionals: string[] } {
  const known = FLAGS[command];
  const flags = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const rawName = eq === -1 ? arg : arg.slice(0, eq);
    const name = ALIASES[rawName] ?? rawName;
    const kind = known[name];
    if (!kind) {
      const elsewhere = COMMANDS.filter((c) => c !== command && FLAGS[c][name]);
      const hint = elsewhere.length ? ` (it is an option of: ${elsewhere.join(', ')})` : '';
      throw new UsageError(`unknown option "${rawName}" for "${command}"${hint}`, command);
    }
    if (flags.has(name)) throw new UsageError(`${name} is given more than once`, command);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`${name} takes no value`, command);
      flags.set(name, '');
      continue;
    }
    if (eq !== -1) {
      flags.set(name, arg.slice(eq + 1));
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || (value.startsWith('--') && value.length > 2)) {
      throw new UsageError(`${name} needs a value`, command);
    }
    flags.set(name, value);
    i++;
  }
  return { flags, positionals };
}

function noPositionals(command: CommandName, positionals: readonly string[]): void {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, command);
}

function nonEmpty(value: string | undefined, flag: string, command: CommandName): string | undefined {
  if (value === '') throw new UsageError(`${flag} needs a non-empty value`, command);
  return value;
}

function parseTimeout(value: string | undefined, command: CommandName): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--timeout expects a positive whole number of milliseconds, got ${JSON.stringify(value)}`, command);
  }
  return Number(value);
}

/** `--args` must be a JSON object; anything else is bad usage, reported before any server starts. */
export function parseToolArgs(value: string | undefined, command: CommandName = 'call'): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    throw new UsageError(`--args is not valid JSON: ${(e as Error).message}; example: --args '{"text":"hello"}'`, command);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    throw new UsageError(`--args must be a JSON object of arguments, got ${got}; example: --args '{"text":"hello"}'`, command);
  }
  return parsed as Record<string, unknown>;
}
