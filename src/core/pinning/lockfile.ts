import type { Tool } from '@modelcontextprotocol/client';
import { isPlainObject } from '../settings/isPlainObject';
import type { ServerIdentity } from './serverIdentity';

/** The file name of the lockfile, at the workspace root. */
export const LOCKFILE_NAME = 'mcp-host.lock.json';
export const LOCKFILE_VERSION = 1;

/** One reviewed tool: its full definition as the server listed it, and that definition's hash. */
export interface LockedTool {
  /** sha256 of the definition with keys sorted (the same value the audit records as `definitionHash`). */
  readonly hash: string;
  readonly definition: Tool;
}

/** One reviewed server: what ran and what it said it was when it was reviewed, and its tools by name. */
export interface LockedServer {
  readonly identity: ServerIdentity;
  /** `serverInfo` of `initialize` at review time (name and version), for the reader. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly tools: Readonly<Record<string, LockedTool>>;
}

/** `mcp-host.lock.json`: reviewed tool definitions per server, committed with the workspace. */
export interface Lockfile {
  readonly version: typeof LOCKFILE_VERSION;
  readonly servers: Readonly<Record<string, LockedServer>>;
}

export class LockfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockfileError';
  }
}

export function emptyLockfile(): Lockfile {
  return { version: LOCKFILE_VERSION, servers: {} };
}

/** The lockfile with one server's entry replaced (undefined removes it). */
export function withServer(lock: Lockfile, server: string, entry: LockedServer | undefined): Lockfile {
  const servers = { ...lock.servers };
  if (entry) servers[server] = entry;
  else delete servers[server];
  return { version: LOCKFILE_VERSION, servers };
}

/**
 * The lockfile as text: keys sorted at every level (servers and tools by name), two-space indent,
 * a final newline. The same content always gives the same bytes, so a review changes few lines.
 */
export function serializeLockfile(lock: Lockfile): string {
  return JSON.stringify(sortKeys(lock), null, 2) + '\n';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort()) if (obj[k] !== undefined) out[k] = sortKeys(obj[k]);
  return out;
}

/** Parse and check the shape of a lockfile; throws LockfileError naming what is wrong. */
export function parseLockfile(text: string): Lockfile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new LockfileError(`not valid JSON: ${(e as Error).message}`);
  }
  if (!isPlainObject(raw)) throw new LockfileError('expected a JSON object');
  if (raw.version !== LOCKFILE_VERSION) throw new LockfileError(`unsupported version ${JSON.stringify(raw.version)} (expected ${LOCKFILE_VERSION})`);
  if (!isPlainObject(raw.servers)) throw new LockfileError('"servers" must be an object');
  for (const [name, s] of Object.entries(raw.servers)) checkServer(name, s);
  return raw as unknown as Lockfile;
}

function checkServer(name: string, s: unknown): void {
  const where = `servers.${JSON.stringify(name)}`;
  if (!isPlainObject(s)) throw new LockfileError(`${where} must be an object`);
  const id = s.identity;
  if (!isPlainObject(id)) throw new LockfileError(`${where}.identity must be an object`);
  if (id.type === 'stdio') {
    if (typeof id.command !== 'string' || !isStringArray(id.args) || !isStringArray(id.envKeys) || (id.cwd !== undefined && typeof id.cwd !== 'string')) {
      throw new LockfileError(`${where}.identity must have "command", "args", "envKeys" and optionally "cwd"`);
    }
  } else if (id.type === 'http' || id.type === 'sse') {
    if (typeof id.url !== 'string') throw new LockfileError(`${where}.identity.url must be a string`);
  } else {
    throw new LockfileError(`${where}.identity.type must be "stdio", "http" or "sse"`);
  }
  if (!isPlainObject(s.tools)) throw new LockfileError(`${where}.tools must be an object`);
  for (const [tool, t] of Object.entries(s.tools)) {
    const at = `${where}.tools.${JSON.stringify(tool)}`;
    if (!isPlainObject(t) || typeof t.hash !== 'string' || !isPlainObject(t.definition)) throw new LockfileError(`${at} must have "hash" and "definition"`);
    if (t.definition.name !== tool) throw new LockfileError(`${at}.definition.name must be ${JSON.stringify(tool)}`);
  }
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
