import { createHash } from 'node:crypto';
import type { ServerSettings } from '../settings/hostSettings';
import { redactSecrets } from '../settings/redactSecrets';
import { canonicalJson } from '../tools/definitionHash';

/** What runs for a configured server, as a person reviews it: never a secret, never an env value. */
export type ServerIdentity =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly cwd?: string;
      /** Names of the environment variables the settings give the server (sorted); their values are never kept. */
      readonly envKeys: readonly string[];
    }
  | { readonly type: 'http' | 'sse'; readonly url: string };

export const WORKSPACE_FOLDER_VARIABLE = '${workspaceFolder}';

export interface IdentityOptions {
  /** Values of `${secret:…}` used by the server: replaced by `[secret]`. */
  readonly secretValues?: readonly string[];
  /**
   * Write this folder as `${workspaceFolder}` (the lockfile, which is committed and read on other
   * machines); without it the identity shows the exact paths (consent, which is per user).
   */
  readonly workspaceFolder?: string;
}

/** The identity of a server from its settings after variable resolution. */
export function serverIdentity(resolved: ServerSettings, o: IdentityOptions = {}): ServerIdentity {
  const text = (s: string) => portable(redactSecrets(s, o.secretValues ?? []), o.workspaceFolder);
  if (resolved.type === 'stdio') {
    return {
      type: 'stdio',
      command: text(resolved.command),
      args: resolved.args.map(text),
      ...(resolved.cwd !== undefined ? { cwd: text(resolved.cwd) } : {}),
      envKeys: Object.keys(resolved.env).sort(),
    };
  }
  return { type: resolved.type, url: text(resolved.url) };
}

function portable(s: string, folder: string | undefined): string {
  if (!folder) return s;
  return s.split(folder).join(WORKSPACE_FOLDER_VARIABLE);
}

/** sha256 of the identity, stable under key order. */
export function identityHash(id: ServerIdentity): string {
  return createHash('sha256').update(canonicalJson(id)).digest('hex');
}

export function sameIdentity(a: ServerIdentity, b: ServerIdentity): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The command line as a person would type it (each argument quoted when needed), or the URL. */
export function commandLine(id: ServerIdentity): string {
  if (id.type !== 'stdio') return id.url;
  return [id.command, ...id.args].map(shellQuote).join(' ');
}

/** Lines that describe the identity, for prompts, diffs and the CLI. */
export function describeIdentity(id: ServerIdentity): string[] {
  if (id.type !== 'stdio') return [`${id.type === 'sse' ? 'SSE' : 'HTTP'} endpoint: ${id.url}`];
  return [
    `command: ${commandLine(id)}`,
    ...(id.cwd !== undefined ? [`working directory: ${id.cwd}`] : []),
    `environment variables set: ${id.envKeys.length ? id.envKeys.join(', ') : '(none)'}`,
  ];
}

/** Which parts differ between two identities ("command", "args", "cwd", "env keys", "url", "type"). */
export function identityChanges(before: ServerIdentity, after: ServerIdentity): string[] {
  if (before.type !== after.type) return ['type'];
  if (before.type !== 'stdio' || after.type !== 'stdio') return (before as { url: string }).url === (after as { url: string }).url ? [] : ['url'];
  const out: string[] = [];
  if (before.command !== after.command) out.push('command');
  if (canonicalJson(before.args) !== canonicalJson(after.args)) out.push('args');
  if (before.cwd !== after.cwd) out.push('cwd');
  if (canonicalJson(before.envKeys) !== canonicalJson(after.envKeys)) out.push('env keys');
  return out;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-.,/:=@%+]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
