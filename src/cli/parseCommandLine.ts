import { parseArgs as tokenize, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exitCodes';

/** Stops the command line with a usage error; given to the value parsers of a {@link OptionSpec}. */
export type Fail = (message: string) => never;

/** One option of a command: `--NAME VALUE` (string) or `--NAME` (boolean). The table key is NAME. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** One-letter alias: `y` for `-y`. */
  readonly short?: string;
  /** The field of the parsed options; default: the option's NAME. */
  readonly key?: string;
  /** The only values a string option accepts (`--format jsonl|csv`). */
  readonly choices?: readonly string[];
  /**
   * Turns the option's raw value (undefined when it is not given) into the field's value. Without
   * it a string option's field is its raw value and a boolean's whether it was given.
   */
  readonly parse?: (raw: string | undefined, fail: Fail) => unknown;
}

/** The positional arguments of a command (after its options are taken out). */
export interface PositionalSpec {
  /** The field of the parsed options. */
  readonly key: string;
  /** What one argument is, for messages: "tool NAME". */
  readonly label: string;
  /** false: exactly one argument, the field is a string. true: any number, the field is a string[]. */
  readonly variadic: boolean;
  /** The message when a required argument is missing; a variadic one without it may be empty. */
  readonly missing?: string;
}

export interface CommandSpec {
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly positionals?: PositionalSpec;
}

/** Commands by name; a name of two words ("audit export") is a subcommand. Key order is the order in messages. */
export type CommandTable = Readonly<Record<string, CommandSpec>>;

export type ParsedCommandLine =
  | { readonly command: 'help'; readonly topic?: string }
  | { readonly command: 'version' }
  | { readonly command: string; readonly options: Record<string, unknown> };

const HELP: OptionSpec = { type: 'boolean', short: 'h' };

/**
 * Parse `argv` (without node and the script) against `table`. Throws {@link UsageError} for
 * anything that is not a valid invocation; `--help`/`-h` anywhere before `--` wins over every other
 * problem, `help [COMMAND]` and a lone `--version` are understood for every table.
 *
 * Node's `util.parseArgs` splits the arguments into tokens (long and short options, `--name=value`,
 * short groups, `--`); this checks the tokens against the table so that every problem is reported
 * in the CLI's words, naming the option and, for an option of another command, which one has it.
 */
export function parseCommandLine(argv: readonly string[], table: CommandTable): ParsedCommandLine {
  const commands = Object.keys(table);
  const beforeDashes = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const found = findCommand(argv, table);

  if (argv[0] === 'help') {
    if (argv.length === 1) return { command: 'help' };
    const topic = findCommand(argv.slice(1), table);
    if (!topic) throw new UsageError(`unknown command "${argv[1]}"; commands: ${commands.join(', ')}`);
    return { command: 'help', topic: topic.name };
  }
  if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
    return found ? { command: 'help', topic: found.name } : { command: 'help' };
  }
  if (argv[0] === '--version') {
    if (argv.length > 1) throw new UsageError('--version takes no other arguments');
    return { command: 'version' };
  }
  if (argv[0] === undefined) throw new UsageError('no command given');
  if (!found) {
    if (argv[0].startsWith('-')) throw new UsageError(`expected a command before "${argv[0]}"`);
    throw new UsageError(`unknown command "${argv[0]}"; commands: ${commands.join(', ')}`);
  }
  return { command: found.name, options: parseCommand(found.name, found.args, table) };
}

function findCommand(argv: readonly string[], table: CommandTable): { name: string; args: readonly string[] } | undefined {
  const two = argv.slice(0, 2).join(' ');
  if (argv.length >= 2 && Object.hasOwn(table, two)) return { name: two, args: argv.slice(2) };
  if (argv.length >= 1 && Object.hasOwn(table, argv[0])) return { name: argv[0], args: argv.slice(1) };
  return undefined;
}

function parseCommand(command: string, args: readonly string[], table: CommandTable): Record<string, unknown> {
  const spec = table[command];
  const fail: Fail = (message) => {
    throw new UsageError(message, command);
  };
  const config: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, o] of Object.entries({ ...spec.options, help: HELP })) {
    config[name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  }
  // Not strict: the checks below make every check strict mode makes, but name the problem in our
  // words (strict mode's errors carry neither the option nor the command).
  const { tokens } = tokenize({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });

  const raw = new Map<string, string | undefined>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (!option) fail(`unknown option "${token.rawName}" for "${command}"${elsewhere(token.rawName, command, table)}`);
    const flag = `--${token.name}`;
    if (raw.has(token.name)) fail(`${flag} is given more than once`);
    if (option.type === 'boolean') {
      if (token.value !== undefined) fail(`${flag} takes no value`);
      raw.set(token.name, undefined);
      continue;
    }
    // A value that looks like a long option is the next option, not this one's value.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--') && token.value.length > 2)) {
      fail(`${flag} needs a value`);
    }
    if (option.choices && !option.choices.includes(token.value)) {
      fail(`${flag} expects one of ${option.choices.join(', ')}, got ${JSON.stringify(token.value)}`);
    }
    raw.set(token.name, token.value);
  }

  const options: Record<string, unknown> = {};
  const p = spec.positionals;
  if (!p) {
    if (positionals.length) fail(`unexpected argument "${positionals[0]}"`);
  } else if (p.variadic) {
    if (p.missing && positionals.length === 0) fail(p.missing);
    options[p.key] = positionals;
  } else {
    if (positionals.length === 0) fail(p.missing ?? `missing the ${p.label}`);
    if (positionals.length > 1) {
      fail(`expected one ${p.label}, got ${positionals.length}: ${positionals.map((a) => JSON.stringify(a)).join(' ')}`);
    }
    options[p.key] = positionals[0];
  }
  for (const [name, option] of Object.entries(spec.options)) {
    const given = raw.has(name);
    const value = raw.get(name);
    options[option.key ?? name] = option.parse ? option.parse(value, fail) : option.type === 'boolean' ? given : value;
  }
  return options;
}

/** " (it is an option of: call, session)" when other commands know the option spelled `rawName`. */
function elsewhere(rawName: string, command: string, table: CommandTable): string {
  const spelled = (name: string, o: OptionSpec) => rawName === `--${name}` || (o.short !== undefined && rawName === `-${o.short}`);
  const others = Object.entries(table)
    .filter(([c, spec]) => c !== command && Object.entries(spec.options).some(([name, o]) => spelled(name, o)))
    .map(([c]) => c);
  return others.length ? ` (it is an option of: ${others.join(', ')})` : '';
}
