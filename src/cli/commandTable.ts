import { AUDIT_RECORD_KINDS } from '../core/audit/auditRecord';
import type { CommandSpec, Fail, OptionSpec } from './parseCommandLine';
import { CONFIG_TARGETS } from './serveConfig';

/** The options of `mcp-host`, by name; each command below picks the ones it takes. */
const OPTIONS = {
  workspace: { type: 'string', parse: nonEmpty('--workspace') },
  role: { type: 'string' },
  verbose: { type: 'boolean' },
  json: { type: 'boolean' },
  args: { type: 'string', parse: toolArgs },
  yes: { type: 'boolean', short: 'y' },
  'allow-servers': { type: 'boolean', key: 'allowServers' },
  audit: { type: 'string', parse: nonEmpty('--audit') },
  timeout: { type: 'string', key: 'timeoutMs', parse: milliseconds },
  login: { type: 'boolean' },
  locked: { type: 'boolean' },
  'allow-unanchored': { type: 'boolean', key: 'allowUnanchored' },
  since: { type: 'string', parse: date },
  server: { type: 'string', parse: nonEmpty('--server') },
  kind: { type: 'string', choices: AUDIT_RECORD_KINDS },
  outcome: { type: 'string', parse: nonEmpty('--outcome') },
  format: { type: 'string', choices: ['jsonl', 'csv'], parse: (raw: string | undefined) => raw ?? 'jsonl' },
  stdio: { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string', parse: port },
  'token-file': { type: 'string', key: 'tokenFile', parse: nonEmpty('--token-file') },
  'print-config': { type: 'string', key: 'printConfig', choices: CONFIG_TARGETS },
} as const satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTIONS;

function pick(...names: OptionName[]): Record<string, OptionSpec> {
  return Object.fromEntries(names.map((n) => [n, OPTIONS[n]]));
}

const COMMON: OptionName[] = ['workspace', 'role', 'verbose'];

/**
 * The commands of `mcp-host` and what each takes: adding a command or an option is a line here
 * (plus its fields in parseArgs.ts and its text in helpText.ts). Key order is the order in messages.
 */
export const COMMAND_TABLE = {
  check: { options: pick(...COMMON, 'json', 'login', 'yes', 'allow-servers', 'locked') },
  call: {
    options: pick(...COMMON, 'args', 'yes', 'allow-servers', 'audit', 'timeout', 'json', 'login'),
    positionals: { key: 'name', label: 'tool NAME', variadic: false, missing: 'missing the tool NAME to call' },
  },
  session: { options: pick(...COMMON, 'yes', 'allow-servers', 'audit', 'timeout', 'login') },
  serve: { options: pick(...COMMON, 'stdio', 'http', 'port', 'token-file', 'print-config', 'allow-servers', 'audit', 'timeout') },
  login: {
    options: pick('workspace', 'verbose', 'audit'),
    positionals: { key: 'server', label: 'server NAME', variadic: false, missing: 'missing the server NAME to sign in to' },
  },
  logout: {
    options: pick('workspace', 'verbose', 'audit'),
    positionals: { key: 'server', label: 'server NAME', variadic: false, missing: 'missing the server NAME to sign out of' },
  },
  lock: { options: pick(...COMMON, 'yes', 'allow-servers') },
  allow: { options: pick('workspace', 'verbose', 'audit'), positionals: { key: 'servers', label: 'server NAME', variadic: true } },
  'audit verify': { options: pick('workspace', 'json', 'allow-unanchored'), positionals: { key: 'files', label: 'FILE', variadic: true } },
  'audit export': { options: pick('workspace', 'since', 'server', 'kind', 'outcome', 'format'), positionals: { key: 'files', label: 'FILE', variadic: true } },
} as const satisfies Record<string, CommandSpec>;

function nonEmpty(flag: string): (raw: string | undefined, fail: Fail) => string | undefined {
  return (raw, fail) => {
    if (raw === '') fail(`${flag} needs a non-empty value`);
    return raw;
  };
}

/** `--since 2026-01-01` (any date `Date.parse` reads, e.g. with a time); a Date. */
function date(raw: string | undefined, fail: Fail): Date | undefined {
  if (raw === undefined) return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) fail(`--since expects a date like 2026-01-31 or 2026-01-31T12:00:00Z, got ${JSON.stringify(raw)}`);
  return new Date(t);
}

/** `--port N`: 1–65535 (0, the default, is a random free port). */
function port(raw: string | undefined, fail: Fail): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) fail(`--port expects a port number from 1 to 65535, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function milliseconds(raw: string | undefined, fail: Fail): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw))) {
    fail(`--timeout expects a positive whole number of milliseconds, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** `--args` must be a JSON object; anything else is bad usage, reported before any server starts. */
function toolArgs(raw: string | undefined, fail: Fail): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    fail(`--args is not valid JSON: ${(e as Error).message}; example: --args '{"text":"hello"}'`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    fail(`--args must be a JSON object of arguments, got ${got}; example: --args '{"text":"hello"}'`);
  }
  return parsed as Record<string, unknown>;
}
