import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';

/** Where compiled code is kept: MCP_HOST_CACHE_DIR, else $XDG_CACHE_HOME/mcp-host (absolute only), else ~/.cache/mcp-host; undefined when MCP_HOST_COMPILE_CACHE=0. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MCP_HOST_COMPILE_CACHE === '0') return undefined;
  if (env.MCP_HOST_CACHE_DIR) return join(env.MCP_HOST_CACHE_DIR, 'v8');
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(xdg, 'mcp-host', 'v8');
}

/**
 * Run the CommonJS bundle `file` (the CLI) the way `require` would, through V8's code cache: the
 * code V8 compiled while a command ran (`command`: call, check…) is kept in `cacheDir` at exit and
 * handed back to V8 on the next start of that command, so a short command does not parse and
 * compile a 1.8 MB bundle again each time (~100 ms of a one-shot call on a small machine). A cache
 * belongs to one bundle file (its path, size, mtime and inode), Node version and architecture;
 * V8 refuses data that does not fit and the bundle is then compiled as without a cache. Caches of
 * earlier builds of the same file are deleted when a new one is written. Best effort throughout:
 * no folder, no cache.
 */
export function runWithCompileCache(file: string, command: string, cacheDir: string | undefined): void {
  const source = readFileSync(file, 'utf8');
  const cache = cacheDir === undefined ? undefined : cacheFileOf(file, command, cacheDir);
  let cachedData: Buffer | undefined;
  try {
    if (cache) cachedData = readFileSync(cache.path);
  } catch {
    // first run of this command with this build
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapper, { filename: file, cachedData });
  if (cache && (!cachedData || script.cachedDataRejected)) process.once('exit', () => keep(cache, script));
  const module = { exports: {}, id: file, filename: file, loaded: false };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
}

interface CacheFile {
  readonly dir: string;
  readonly path: string;
  /** Names of this bundle file's caches start so (any build). */
  readonly prefix: string;
}

function cacheFileOf(file: string, command: string, dir: string): CacheFile | undefined {
  try {
    const s = statSync(file);
    const hash = (...parts: unknown[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
    const prefix = `${hash(file)}-`;
    const name = `${prefix}${hash(process.version, process.arch, s.size, s.mtimeMs, s.ino)}-${command.replace(/[^a-z]/g, '') || 'none'}`;
    return { dir, path: join(dir, name), prefix };
  } catch {
    return undefined;
  }
}

function keep(cache: CacheFile, script: Script): void {
  try {
    mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
    const current = basename(cache.path).split('-').slice(0, 2).join('-');
    for (const old of readdirSync(cache.dir)) if (old.startsWith(cache.prefix) && !old.startsWith(current)) rmSync(join(cache.dir, old), { force: true });
    const tmp = `${cache.path}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, cache.path);
  } catch {
    // Only an optimisation: the next start compiles again.
  }
}
