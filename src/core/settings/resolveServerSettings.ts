import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { OAuthSettings } from './oauthSettings';
import { parseEnv } from 'node:util';
import type { ServerSettings } from './hostSettings';
import { checkHttpUrl } from './checkHttpUrl';
import { settingPath, type PathSegment } from './settingPath';
import { redactSecrets } from './redactSecrets';

/**
 * Resolves `${workspaceFolder}`, `${env:NAME}` and `${secret:NAME}` in one server's settings,
 * right before it starts. A problem fails only that server. No secret value ever reaches an
 * error text: the caller gets the values back (`secretValues`) to redact its own logs.
 */

export interface SecretResolver {
  get(name: string): Promise<string | undefined>;
}

export interface VariableContext {
  workspaceFolder?: string;
  env: Record<string, string | undefined>;
  secrets: SecretResolver;
}

export const SECRET_ENV_PREFIX = 'MCP_HOST_SECRET_';

/**
 * Secrets from environment variables: `${secret:NAME}` reads `MCP_HOST_SECRET_NAME`; when that is
 * unset, the name upper-cased with other characters as `_` (`github-token` → `MCP_HOST_SECRET_GITHUB_TOKEN`).
 * An empty value counts as unset.
 */
export function envSecretResolver(env: Record<string, string | undefined>): SecretResolver {
  return {
    async get(name: string) {
      const exact = env[`${SECRET_ENV_PREFIX}${name}`];
      if (exact) return exact;
      const normalized = env[`${SECRET_ENV_PREFIX}${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`];
      return normalized || undefined;
    },
  };
}

/** A server's settings ready to start, and what people may see of them. */
export interface ResolvedSettings {
  readonly ok: true;
  /** Every variable resolved: what the server is started with. */
  readonly server: ServerSettings;
  readonly secretValues: string[];
  /**
   * The server as people see it and files keep it: `command`, `args`, `cwd` and `url` with each
   * `${env:NAME}` as written (other variables resolved; the rest of the settings as in `server`).
   */
  readonly shown: ServerSettings;
  /** The values of the `${env:NAME}` kept in `shown`, by name: never shown or written, only hashed with a per-user key. */
  readonly shownVariables: Readonly<Record<string, string>>;
}

export type ResolvedServer = ResolvedSettings | { ok: false; error: string; setting?: string };

const VARIABLE = /\$\{([^{}$]*)\}/g;
const SECRET_REF = /\$\{\s*secret:/;
const VARIABLE_HELP = 'use ${workspaceFolder}, ${env:NAME} or ${secret:NAME}';

interface Failure {
  readonly message: string;
  readonly setting: string;
}

class Interpolator {
  readonly failures: Failure[] = [];
  readonly secretValues: string[] = [];
  /** Values of the `${env:NAME}` that {@link interpolateShown} kept as written. */
  readonly shownVariables: Record<string, string> = {};
  private readonly secretCache = new Map<string, Promise<string | undefined>>();

  constructor(private readonly ctx: VariableContext) {}

  async interpolate(value: string, segments: readonly PathSegment[]): Promise<string> {
    return (await this.interpolateShown(value, segments, false)).value;
  }

  /** The value resolved, and as shown: each `${env:NAME}` kept as written (its value noted in `shownVariables` when `note`). */
  async interpolateShown(value: string, segments: readonly PathSegment[], note = true): Promise<{ value: string; shown: string }> {
    const setting = settingPath(segments);
    const matches = [...value.matchAll(VARIABLE)];
    if (matches.length === 0) return { value, shown: value };
    const replacements: string[] = [];
    const shown: string[] = [];
    for (const m of matches) {
      const resolved = await this.resolveVariable(m[1], m[0], setting);
      replacements.push(resolved);
      const env = envVariableName(m[1]);
      if (env === undefined) shown.push(resolved);
      else {
        shown.push(`\${env:${env}}`);
        if (note) this.shownVariables[env] = resolved;
      }
    }
    let i = 0;
    let j = 0;
    return { value: value.replace(VARIABLE, () => replacements[i++]), shown: value.replace(VARIABLE, () => shown[j++]) };
  }

  private fail(message: string, setting: string): string {
    this.failures.push({ message: `${message} (${setting})`, setting });
    return '';
  }

  private async resolveVariable(body: string, whole: string, setting: string): Promise<string> {
    const expr = body.trim();
    if (expr === 'workspaceFolder') {
      if (this.ctx.workspaceFolder === undefined || this.ctx.workspaceFolder === '') {
        return this.fail('${workspaceFolder} is used but no workspace folder is open', setting);
      }
      return this.ctx.workspaceFolder;
    }
    const colon = expr.indexOf(':');
    const kind = colon >= 0 ? expr.slice(0, colon).trim() : '';
    const name = colon >= 0 ? expr.slice(colon + 1).trim() : '';
    if (kind === 'env' && name) {
      const v = this.ctx.env[name];
      if (v === undefined) return this.fail(`environment variable "${name}" is not set`, setting);
      return v;
    }
    if (kind === 'secret' && name) {
      let pending = this.secretCache.get(name);
      if (!pending) {
        pending = this.ctx.secrets.get(name);
        this.secretCache.set(name, pending);
      }
      let v: string | undefined;
      try {
        v = await pending;
      } catch (e) {
        return this.fail(`secret "${name}" could not be read: ${(e as Error)?.message ?? String(e)}`, setting);
      }
      if (v === undefined || v === '') return this.fail(`secret "${name}" is not set`, setting);
      if (!this.secretValues.includes(v)) this.secretValues.push(v);
      return v;
    }
    if ((kind === 'env' || kind === 'secret') && !name) {
      return this.fail(`variable "${whole}" needs a name, like \${${kind}:NAME}`, setting);
    }
    return this.fail(`unknown variable "${whole}"; ${VARIABLE_HELP}`, setting);
  }
}

/** NAME of a `${env:NAME}` body, else undefined. */
function envVariableName(body: string): string | undefined {
  const m = /^\s*env\s*:\s*(.*?)\s*$/.exec(body);
  return m && m[1] ? m[1] : undefined;
}

async function resolveRecord(
  record: Readonly<Record<string, string>>,
  base: readonly PathSegment[],
  interp: Interpolator,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) out[k] = await interp.interpolate(v, [...base, k]);
  return out;
}

/** The strings of a server's `oauth` settings; a client secret or private key is redacted wherever it appears, even when written literally. */
async function resolveOAuth(o: OAuthSettings, base: readonly PathSegment[], interp: Interpolator): Promise<OAuthSettings> {
  const one = async (key: 'clientId' | 'clientSecret' | 'clientMetadataUrl' | 'privateKey') =>
    o[key] === undefined ? {} : { [key]: await interp.interpolate(o[key], [...base, key]) };
  const resolved: OAuthSettings = {
    ...o,
    ...(await one('clientId')),
    ...(await one('clientSecret')),
    ...(await one('clientMetadataUrl')),
    ...(await one('privateKey')),
  };
  for (const secret of [resolved.clientSecret, resolved.privateKey]) if (secret && !interp.secretValues.includes(secret)) interp.secretValues.push(secret);
  return resolved;
}

/** `envFile`: a dotenv file (Node's own parser), relative to the workspace folder; its values are never shown. */
async function readEnvFile(
  value: string,
  segments: readonly PathSegment[],
  interp: Interpolator,
  ctx: VariableContext,
  extra: Failure[],
): Promise<Record<string, string>> {
  const setting = settingPath(segments);
  let file = await interp.interpolate(value, segments);
  if (!path.isAbsolute(file)) {
    if (!ctx.workspaceFolder) {
      extra.push({ message: `a relative envFile needs an open workspace folder to resolve against (${setting})`, setting });
      return {};
    }
    file = path.resolve(ctx.workspaceFolder, file);
  }
  try {
    return parseEnv(await readFile(file, 'utf8')) as Record<string, string>;
  } catch (e) {
    extra.push({ message: `envFile ${JSON.stringify(file)} cannot be read: ${(e as Error).message} (${setting})`, setting });
    return {};
  }
}

/** `roots`: each folder with its variables resolved, a relative one against the workspace folder. */
async function resolveRoots(
  roots: readonly string[],
  base: readonly PathSegment[],
  interp: Interpolator,
  ctx: VariableContext,
  extra: Failure[],
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < roots.length; i++) {
    const folder = await interp.interpolate(roots[i], [...base, i]);
    if (path.isAbsolute(folder)) out.push(path.normalize(folder));
    else if (ctx.workspaceFolder) out.push(path.resolve(ctx.workspaceFolder, folder));
    else {
      const setting = settingPath([...base, i]);
      extra.push({ message: `a relative root needs an open workspace folder to resolve against (${setting})`, setting });
    }
  }
  return out;
}

/**
 * Resolves the variables of a few strings (the telemetry headers, …) like a server's, each under
 * its own setting path; no secret value ever reaches the error text.
 */
export async function resolveStrings(
  values: Readonly<Record<string, string>>,
  base: readonly PathSegment[],
  ctx: VariableContext,
): Promise<{ ok: true; values: Record<string, string>; secretValues: string[] } | { ok: false; error: string }> {
  const interp = new Interpolator(ctx);
  const out = await resolveRecord(values, base, interp);
  if (interp.failures.length) return { ok: false, error: redactSecrets(interp.failures.map((f) => f.message).join('; '), interp.secretValues) };
  return { ok: true, values: out, secretValues: [...interp.secretValues] };
}

export async function resolveServerSettings(server: ServerSettings, ctx: VariableContext): Promise<ResolvedServer> {
  const interp = new Interpolator(ctx);
  const base: PathSegment[] = ['servers', server.name];
  let resolved: ServerSettings;
  let shown: ServerSettings;
  const extra: Failure[] = [];

  if (server.type === 'stdio') {
    const command = await interp.interpolateShown(server.command, [...base, 'command']);
    const args: { value: string; shown: string }[] = [];
    for (let i = 0; i < server.args.length; i++) args.push(await interp.interpolateShown(server.args[i], [...base, 'args', i]));
    const env = await resolveRecord(server.env, [...base, 'env'], interp);
    let cwd: { value: string; shown: string } | undefined;
    if (server.cwd !== undefined) {
      cwd = await interp.interpolateShown(server.cwd, [...base, 'cwd']);
      if (!path.isAbsolute(cwd.value)) {
        if (ctx.workspaceFolder) {
          const value = path.resolve(ctx.workspaceFolder, cwd.value);
          cwd = { value, shown: cwd.shown === cwd.value ? value : path.join(ctx.workspaceFolder, cwd.shown) };
        }
        else {
          const setting = settingPath([...base, 'cwd']);
          extra.push({ message: `a relative cwd needs an open workspace folder to resolve against (${setting})`, setting });
        }
      }
    }
    const fromFile = server.envFile !== undefined ? await readEnvFile(server.envFile, [...base, 'envFile'], interp, ctx, extra) : {};
    resolved = { ...server, command: command.value, args: args.map((a) => a.value), env: { ...fromFile, ...env }, ...(cwd !== undefined ? { cwd: cwd.value } : {}) };
    shown = { ...resolved, command: command.shown, args: args.map((a) => a.shown), ...(cwd !== undefined ? { cwd: cwd.shown } : {}) };
  } else {
    const urlSegments = [...base, 'url'];
    const { value: url, shown: shownUrl } = await interp.interpolateShown(server.url, urlSegments);
    const headers = await resolveRecord(server.headers, [...base, 'headers'], interp);
    if (!interp.failures.some((f) => f.setting === settingPath(urlSegments))) {
      const reason = checkHttpUrl(url);
      if (reason) {
        const setting = settingPath(urlSegments);
        // Shown with its `${env:}` as written, and only when it cannot carry a secret.
        const got = SECRET_REF.test(server.url) ? '' : `, got ${JSON.stringify(shownUrl)}`;
        extra.push({ message: `${reason} after substituting variables${got} (${setting})`, setting });
      }
    }
    const oauth = server.oauth ? await resolveOAuth(server.oauth, [...base, 'oauth'], interp) : undefined;
    resolved = { ...server, url, headers, ...(oauth ? { oauth } : {}) };
    shown = { ...resolved, url: shownUrl };
  }

  if (server.roots) resolved = { ...resolved, roots: await resolveRoots(server.roots, [...base, 'roots'], interp, ctx, extra) };

  const failures = [...interp.failures, ...extra];
  if (failures.length) {
    const error = redactSecrets(failures.map((f) => f.message).join('; '), interp.secretValues);
    return { ok: false, error, setting: failures[0].setting };
  }
  return { ok: true, server: resolved, secretValues: [...interp.secretValues], shown, shownVariables: { ...interp.shownVariables } };
}
