import { describeValue } from '../settings/describeValue';
import { isPlainObject } from '../settings/isPlainObject';
import type { PathSegment } from '../settings/settingPath';
import type { ProblemSink } from './importedServer';

/** Turns one string of a file into the `mcpHost.servers` variable syntax, or says why it cannot. */
export type TranslateVariables = (value: string) => { value: string } | { error: string };

/** How one file format differs in its server entries. */
export interface EntryFormat {
  readonly translate: TranslateVariables;
  /** Keys that are valid in the format but not used by MCP Host: the warning to give, or null to ignore silently. */
  readonly ignoredKeys: Readonly<Record<string, string | null>>;
  /** Keys of the format mapped one to one (besides type, command, args, env, cwd, url, headers). */
  readonly extraKeys?: readonly string[];
  /** VS Code allows numbers (used as text) and null (unset) as `env` values. */
  readonly lenientEnv: boolean;
  /** `cwd` of a stdio server that sets none. */
  readonly defaultCwd?: string;
}

const STDIO_KEYS = ['type', 'command', 'args', 'env', 'cwd'];
const REMOTE_KEYS = ['type', 'url', 'headers'];

/**
 * One server entry in the `mcpHost.servers` format, or undefined (with the reasons in `sink`) when
 * it cannot be used.
 */
export function buildServerDefinition(
  name: string,
  def: unknown,
  path: readonly PathSegment[],
  sink: ProblemSink,
  format: EntryFormat,
): Record<string, unknown> | undefined {
  const skipped = `server "${name}" is not imported`;
  const fail = (at: readonly PathSegment[], message: string) => {
    sink.add('error', at, `${message}; ${skipped}`, name);
    return undefined;
  };
  if (name.trim() === '') return fail(path, 'a server name must not be empty');
  if (name.includes('/')) return fail(path, 'MCP Host cannot use a server name with "/" (tool patterns are "server/tool")');
  if (!isPlainObject(def)) return fail(path, `expected an object (a server definition), got ${describeValue(def)}`);

  let type = def.type;
  if (type === undefined) type = typeof def.command === 'string' || !('url' in def) ? 'stdio' : 'http';
  if (type !== 'stdio' && type !== 'http' && type !== 'sse') return fail([...path, 'type'], `expected "stdio", "http" or "sse", got ${describeValue(type)}`);

  const known = new Set([...(type === 'stdio' ? STDIO_KEYS : REMOTE_KEYS), ...(format.extraKeys ?? [])]);
  for (const key of Object.keys(def)) {
    if (known.has(key)) continue;
    const note = format.ignoredKeys[key];
    if (note === null) continue;
    sink.add('warning', [...path, key], note ?? 'not used by MCP Host; ignored', name);
  }

  const str = (key: string, required: boolean): string | undefined | false => {
    const v = def[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v === '') {
      fail([...path, key], v === undefined ? `missing: "${key}" (a non-empty string)` : `expected a non-empty string, got ${describeValue(v)}`);
      return false;
    }
    return translated(v, [...path, key]);
  };
  const translated = (v: string, at: readonly PathSegment[]): string | false => {
    const t = format.translate(v);
    if ('error' in t) {
      fail(at, t.error);
      return false;
    }
    return t.value;
  };
  const stringMap = (key: string, lenient: boolean): Record<string, string> | undefined | false => {
    const v = def[key];
    if (v === undefined) return undefined;
    if (!isPlainObject(v)) {
      fail([...path, key], `expected an object of string values, got ${describeValue(v)}`);
      return false;
    }
    const out: Record<string, string> = {};
    for (const [k, raw] of Object.entries(v)) {
      let text: string;
      if (typeof raw === 'string') text = raw;
      else if (lenient && typeof raw === 'number') text = String(raw);
      else if (lenient && raw === null) {
        sink.add('warning', [...path, key, k], `null (remove the variable) is not supported by MCP Host; "${k}" is left as inherited`, name);
        continue;
      } else {
        fail([...path, key, k], `expected a string, got ${describeValue(raw, true)}`);
        return false;
      }
      const t = translated(text, [...path, key, k]);
      if (t === false) return false;
      out[k] = t;
    }
    return out;
  };

  const common: Record<string, unknown> = {};
  if (known.has('disabled') && def.disabled === true) common.enabled = false;
  if (type === 'stdio') {
    const command = str('command', true);
    if (command === false || command === undefined) return undefined;
    let args: string[] | undefined;
    if (def.args !== undefined) {
      if (!Array.isArray(def.args)) return fail([...path, 'args'], `expected an array of strings, got ${describeValue(def.args)}`);
      args = [];
      for (let i = 0; i < def.args.length; i++) {
        const a = def.args[i];
        if (typeof a !== 'string') return fail([...path, 'args', i], `expected a string, got ${describeValue(a)}`);
        const t = translated(a, [...path, 'args', i]);
        if (t === false) return undefined;
        args.push(t);
      }
    }
    const env = stringMap('env', format.lenientEnv);
    if (env === false) return undefined;
    const cwd = str('cwd', false);
    const envFile = known.has('envFile') ? str('envFile', false) : undefined;
    if (cwd === false || envFile === false) return undefined;
    return {
      type: 'stdio',
      command,
      ...(args ? { args } : {}),
      ...(env ? { env } : {}),
      ...(envFile ? { envFile } : {}),
      ...(cwd ?? format.defaultCwd ? { cwd: cwd ?? format.defaultCwd } : {}),
      ...common,
    };
  }
  const url = str('url', true);
  if (url === false || url === undefined) return undefined;
  const headers = stringMap('headers', false);
  if (headers === false) return undefined;
  return { type, url, ...(headers ? { headers } : {}), ...common };
}
