/**
 * Helpers for the CLI tests: run `mcp-host` from source, drive a session over JSON lines, and
 * write throw-away workspaces whose settings point at the MCP fixture servers.
 *
 * The CLI runs from a bundle of src/cli/main.ts that esbuild makes once per test run in a temp
 * directory (no `npm run build` needed, dist/ is never touched): a bundled start takes ~0.3 s where
 * `node --import tsx src/cli/main.ts` takes 1-4 s, which made the suite too slow on a busy machine.
 * MCP_HOST_CLI_TEST_TSX=1 runs the sources through tsx instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { allowWorkspaceServers, testConfigDir } from '../../fixtures/cliConsent';
import { fixturePath, nodeEnv } from '../../fixtures/fixtureServers';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(REPO_ROOT, 'src', 'cli', 'main.ts');
/** Absolute, so the CLI can run with any cwd. */
const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

let bundle: string | undefined;

/** node arguments that start the CLI. */
function cliEntry(): string[] {
  if (process.env.MCP_HOST_CLI_TEST_TSX === '1') return ['--import', TSX_LOADER, MAIN];
  if (!bundle) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-bundle-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, 'cli.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    esbuild.buildSync({
      entryPoints: [MAIN],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: 'inline',
      logLevel: 'warning',
      // jsonc-parser's "main" is a UMD build whose internal requires esbuild cannot follow
      // ("Cannot find module './impl/format'" at run time); its "module" build bundles fine.
      mainFields: ['module', 'main'],
      // As esbuild.js does: loaded from node_modules (NODE_PATH below) when check counts tokens.
      external: ['gpt-tokenizer'],
    });
    bundle = outfile;
  }
  return ['--enable-source-maps', bundle];
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is always a pipe: never a terminal). startCli leaves stdin open without it. */
  readonly input?: string;
  readonly timeoutMs?: number;
  /** false: do not allow the workspace's servers beforehand (consent tests). */
  readonly consent?: boolean;
}

/** Every CLI run gets a credentials file of its own unless a test names one: never the user's. */
function isolatedCredentials(): Record<string, string> {
  return { MCP_HOST_CREDENTIALS_FILE: path.join(tempDir('mcp-host-cred-'), 'credentials.json') };
}

/** How a test starts the CLI: for spawn, or for an MCP client's stdio transport (`serve`). */
export function cliCommand(args: readonly string[], opts: RunOptions = {}): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  const cwd = opts.cwd ?? REPO_ROOT;
  const env = { ...process.env, ...nodeEnv(), NODE_PATH: path.join(REPO_ROOT, 'node_modules'), ...isolatedCredentials(), ...opts.env };
  // The workspace's servers are allowed beforehand (in a test config folder), unless the test is about consent.
  const consent = opts.consent === false ? { MCP_HOST_CONFIG_DIR: testConfigDir() } : allowWorkspaceServers(args, cwd, env);
  return { command: process.execPath, args: [...cliEntry(), ...args], cwd, env: Object.fromEntries(Object.entries({ ...env, ...consent }).filter((e): e is [string, string] => e[1] !== undefined)) };
}

function spawnCli(args: readonly string[], opts: RunOptions): ChildProcess {
  const c = cliCommand(args, opts);
  return spawn(c.command, c.args, { cwd: c.cwd, env: c.env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Start the CLI; `result` settles when it exits (killed with SIGKILL after `timeoutMs`). */
export function startCli(args: readonly string[], opts: RunOptions = {}): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawnCli(args, opts);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const result = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-host ${args.join(' ')} did not exit within ${timeoutMs} ms\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, result };
}

/** Run the CLI to completion (stdin: `input`, or empty). */
export function runCli(args: readonly string[], opts: RunOptions = {}): Promise<CliResult> {
  return startCli(args, { ...opts, input: opts.input ?? '' }).result;
}

/**
 * Run the CLI on a pseudo-terminal (util-linux `script`), so stdin, stdout and stderr are all
 * terminals as for a person: when `prompt` appears in what the terminal shows, `answer` is typed.
 * `output`: stdout and stderr together, as the terminal showed them (carriage returns removed).
 */
export function runCliOnTerminal(args: readonly string[], prompt: RegExp, answer: string, opts: RunOptions = {}): Promise<{ code: number | null; output: string }> {
  const cwd = opts.cwd ?? REPO_ROOT;
  const env = { ...process.env, ...nodeEnv(), NODE_PATH: path.join(REPO_ROOT, 'node_modules'), ...isolatedCredentials(), ...opts.env };
  const consent = allowWorkspaceServers(args, cwd, env);
  const command = [process.execPath, ...cliEntry(), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env: { ...env, ...consent }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = false;
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    if (!answered && prompt.test(output)) {
      answered = true;
      child.stdin!.write(answer + '\r');
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-host ${args.join(' ')} on a terminal did not exit within ${timeoutMs} ms\n${output}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(/\r/g, '') });
    });
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A running `mcp-host session`: send requests, wait for answers and events. */
export class CliSession {
  readonly child: ChildProcess;
  /** Every stdout line so far, parsed. */
  readonly lines: Json[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private rest = '';
  private waiters: (() => void)[] = [];

  constructor(args: readonly string[], opts: RunOptions = {}) {
    this.child = spawnCli(['session', ...args], opts);
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => this.onData(d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(request: unknown): void {
    this.child.stdin!.write((typeof request === 'string' ? request : JSON.stringify(request)) + '\n');
  }

  /** Close stdin (end of the session). */
  end(): void {
    this.child.stdin!.end();
  }

  /** The first line (already received or still to come) matching `predicate`. */
  async waitFor(what: string, predicate: (line: Json) => boolean, timeoutMs = 15_000): Promise<Json> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(predicate);
      if (found) return found;
      const left = end - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}\n--- stdout ---\n${this.lines.map((l) => JSON.stringify(l)).join('\n')}\n--- stderr ---\n${this.stderr}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  answer(id: unknown, timeoutMs?: number): Promise<Json> {
    return this.waitFor(`the answer to request ${JSON.stringify(id)}`, (l) => 'id' in l && l.id === id, timeoutMs);
  }

  /** Index of a line in arrival order. */
  indexOf(line: Json): number {
    return this.lines.indexOf(line);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onData(d: string): void {
    const parts = (this.rest + d).split('\n');
    this.rest = parts.pop() ?? '';
    for (const p of parts) {
      if (!p.trim()) continue;
      try {
        this.lines.push(JSON.parse(p));
      } catch {
        this.lines.push({ unparsable: p });
      }
    }
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

const tempDirs: string[] = [];

/** A fresh temporary directory, removed by {@link removeTempDirs}. */
export function tempDir(prefix = 'mcp-host-cli-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** The sessions a suite starts: each killed after its test, and the suite's temporary folders removed at its end. */
export function trackSessions(): CliSession[] {
  const sessions: CliSession[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) s.kill();
  });
  after(removeTempDirs);
  return sessions;
}

export function removeTempDirs(): void {
  for (const d of tempDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/**
 * A workspace folder whose .vscode/settings.json is `settings` (an object, or raw text). An object
 * without "mcpHost.pinning" gets "off": the command tests are not about the lockfile, and the
 * default ("review") would quarantine every tool of a workspace without one.
 */
export function makeWorkspace(settings: Record<string, unknown> | string): string {
  const dir = tempDir('mcp-host-ws-');
  fs.mkdirSync(path.join(dir, '.vscode'));
  const all = typeof settings === 'string' || 'mcpHost.pinning' in settings ? settings : { ...settings, 'mcpHost.pinning': 'off' };
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), typeof all === 'string' ? all : JSON.stringify(all, null, 2));
  return dir;
}

/** The published `@modelcontextprotocol/server-filesystem` (from node_modules), run with `node FILESYSTEM_SERVER DIR`. */
export const FILESYSTEM_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** Settings of one stdio fixture server (`node test/fixtures/servers/<name>.mjs`). */
export function fixtureServer(name: string, env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [fixturePath(name)], env: { ...nodeEnv(), ...env } };
}

/** Parse stdout as exactly one JSON document (proves stdout carries nothing else). */
export function parseJson(result: CliResult): Json {
  try {
    return JSON.parse(result.stdout);
  } catch (e) {
    throw new Error(`stdout is not one JSON document: ${(e as Error).message}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`, { cause: e });
  }
}

export function describeRun(r: CliResult): string {
  return `exit ${r.code} (signal ${r.signal})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}
