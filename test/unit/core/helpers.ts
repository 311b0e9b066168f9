/**
 * Shared plumbing for the core tests: settings builders for the real fixture and reference servers,
 * a per-test environment (temp dir, FIXTURE_LOG files, hosts and HTTP fixtures that are always
 * disposed, and a check that no child process outlives a test), a recording logger and confirmer.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerView, ToolView } from '../../../src/core/host/hostSnapshot';
import { McpHost, type McpHostOptions, type ServerStateEvent } from '../../../src/core/host/mcpHost';
import type { InMemoryServers } from '../../fixtures/inMemoryServers';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '../../../src/core/calls/confirmer';
import type { ConnectionState } from '../../../src/core/mcp/connectionState';
import type { BackoffPolicy } from '../../../src/core/mcp/restartBackoff';
import {
  emptySettings,
  type HostSettings,
  type RemoteServerSettings,
  type RoleSettings,
  type StdioServerSettings,
} from '../../../src/core/settings/hostSettings';
import type { SecretResolver } from '../../../src/core/settings/resolveServerSettings';
import type { ToolsChangedEvent } from '../../../src/core/tools/toolRegistry';
import type { Logger } from '../../../src/core/util/logger';
import {
  descendantPidsOf,
  fixturePath,
  nodeEnv,
  readFixtureLog,
  startHttpFixture,
  type HttpFixture,
} from '../../fixtures/fixtureServers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const MODEL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const LONG_TOOL = 'a_very_long_tool_name_used_to_test_prefixing_and_truncation_by_the_host_80_chars';
/** Restarts in tens of milliseconds instead of seconds. */
export const FAST_BACKOFF: BackoffPolicy = { initialDelayMs: 50, maxDelayMs: 400, maxFailures: 3 };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The end of this turn of the event loop: the audit file has the records of the calls that returned in it. */
export const endOfTurn = () => new Promise<void>((r) => setImmediate(r));

/** The records of a JSONL file (an audit file), one per non-empty line. */
export function readAudit(file: string): Any[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Polls `cond` (for things only observable by polling: files, /proc). */
export async function waitFor(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(15);
  }
}

/**
 * Settings for a test host. Pinning is off unless a test asks for it: these suites test naming,
 * routing, policy and the connection, not the lockfile (test/unit/core/pinning does), and the
 * product's default ("review") would quarantine every tool of a workspace without a lockfile.
 */
export function settings(partial: Partial<HostSettings> = {}): HostSettings {
  return { ...emptySettings(), pinning: 'off', ...partial };
}

export function role(name: string, partial: Partial<RoleSettings> = {}): RoleSettings {
  return { name, tools: ['*/*'], exclude: [], autoApprove: [], confirm: [], ...partial };
}

/** A reference server (or an MCP Apps example server, pinned as a devDependency) from node_modules, run with this Node. */
export function referenceServer(
  name: string,
  pkg: 'server-everything' | 'server-filesystem' | 'server-memory' | 'server-pdf' | 'server-basic-vanillajs' | 'server-system-monitor',
  args: string[] = [],
  env: Record<string, string> = {},
): StdioServerSettings {
  const script = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
  return { name, type: 'stdio', enabled: true, command: process.execPath, args: [script, ...args], env: { ...nodeEnv(), ...env }, connectTimeoutMs: 10_000 };
}

export interface LogLine {
  readonly level: keyof Logger;
  readonly message: string;
}

/** Keeps every log line; can wait for one. */
export class RecordingLogger implements Logger {
  readonly lines: LogLine[] = [];
  private waiters: { re: RegExp; resolve: () => void }[] = [];

  private add(level: keyof Logger, message: string): void {
    this.lines.push({ level, message });
    for (const w of [...this.waiters]) {
      if (w.re.test(message)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    if (process.env.CORE_TEST_LOG) console.log(`[${level}] ${message}`);
  }
  trace(m: string) {
    this.add('trace', m);
  }
  debug(m: string) {
    this.add('debug', m);
  }
  info(m: string) {
    this.add('info', m);
  }
  warn(m: string) {
    this.add('warn', m);
  }
  error(m: string) {
    this.add('error', m);
  }

  text(): string {
    return this.lines.map((l) => `[${l.level}] ${l.message}`).join('\n');
  }

  matching(re: RegExp, level?: keyof Logger): LogLine[] {
    return this.lines.filter((l) => re.test(l.message) && (!level || l.level === level));
  }

  /** Resolves once a line matching `re` has been logged (now or earlier). */
  waitForLine(re: RegExp, timeoutMs = 5000): Promise<void> {
    if (this.lines.some((l) => re.test(l.message))) return Promise.resolve();
    return withTimeout(new Promise<void>((resolve) => this.waiters.push({ re, resolve })), timeoutMs, `log line ${re}`);
  }
}

/**
 * A Confirmer whose answer is scripted; records every request and how many were open at once.
 */
export class RecordingConfirmer implements Confirmer {
  readonly requests: ConfirmationRequest[] = [];
  open = 0;
  maxOpen = 0;

  constructor(public answer: (req: ConfirmationRequest) => ConfirmationAnswer | Promise<ConfirmationAnswer> = () => 'once') {}

  async confirm(req: ConfirmationRequest): Promise<ConfirmationAnswer> {
    this.requests.push(req);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    try {
      return await this.answer(req);
    } finally {
      this.open--;
    }
  }

  asked(): string[] {
    return this.requests.map((r) => r.name);
  }
}

export function mapSecrets(values: Record<string, string>): SecretResolver {
  return { get: async (name) => values[name] };
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Resolves with the next state of `server` that satisfies `pred` (or the current one if it already does). */
export function waitForState(
  host: McpHost,
  server: string,
  pred: (s: ConnectionState) => boolean,
  timeoutMs = 8000,
): Promise<ConnectionState> {
  const current = host.snapshot().server(server)?.state;
  if (current && pred(current)) return Promise.resolve(current);
  let d: { dispose(): void } | undefined;
  return withTimeout(
    new Promise<ConnectionState>((resolve) => {
      d = host.onDidChangeServerState((e: ServerStateEvent) => {
        if (e.server === server && pred(e.state)) resolve(e.state);
      });
    }),
    timeoutMs,
    `state of ${server} (now ${JSON.stringify(host.snapshot().server(server)?.state)})`,
  ).finally(() => d?.dispose());
}

/** Resolves with the next tool-list change event of `server`. */
export function nextToolsChanged(host: McpHost, server: string, timeoutMs = 5000): Promise<ToolsChangedEvent> {
  let d: { dispose(): void } | undefined;
  return withTimeout(
    new Promise<ToolsChangedEvent>((resolve) => {
      d = host.onDidChangeToolList((e) => {
        if (e.server === server) resolve(e);
      });
    }),
    timeoutMs,
    `tools of ${server} to change`,
  ).finally(() => d?.dispose());
}

/**
 * One test's world. Call `useTestEnv()` inside a `describe`: each test gets a fresh temp dir; hosts
 * and HTTP fixtures created through it are disposed after the test, and the test fails if a child
 * process is still alive afterwards.
 */
export class TestEnv {
  dir!: string;
  private readonly hosts: McpHost[] = [];
  private readonly httpFixtures: HttpFixture[] = [];
  private readonly logs = new Map<string, string>();
  private baseline: number[] = [];
  private counter = 0;

  setUp(): void {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-core-'));
    this.baseline = descendantPidsOf(process.pid);
  }

  async tearDown(): Promise<void> {
    const hosts = this.hosts.splice(0);
    const http = this.httpFixtures.splice(0);
    this.logs.clear();
    await Promise.allSettled(hosts.map((h) => h.close()));
    await Promise.allSettled(http.map((f) => f.close()));
    let leftover: number[] = [];
    try {
      await waitFor(
        'every server process to exit',
        () => (leftover = descendantPidsOf(process.pid).filter((p) => !this.baseline.includes(p))).length === 0,
        3000,
      );
    } finally {
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
    assert.deepEqual(leftover, [], 'no child process is left after the test');
  }

  /** A fresh file path in the temp dir. */
  file(name: string): string {
    return path.join(this.dir, `${++this.counter}-${name}`);
  }

  /** The FIXTURE_LOG path used for the server `name` (set by `stdio`). */
  logOf(name: string): string {
    const p = this.logs.get(name);
    if (!p) throw new Error(`no FIXTURE_LOG for ${name}`);
    return p;
  }

  /** The events the fixture `name` logged so far. */
  events(name: string): Any[] {
    return readFixtureLog(this.logOf(name));
  }

  /** Settings for a stdio fixture server, with its own FIXTURE_LOG. */
  stdio(
    name: string,
    fixture: string,
    opts: { env?: Record<string, string>; connectTimeoutMs?: number; timeoutMs?: number; enabled?: boolean } = {},
  ): StdioServerSettings {
    const log = this.file(`${name}.jsonl`);
    this.logs.set(name, log);
    return {
      name,
      type: 'stdio',
      enabled: opts.enabled ?? true,
      command: process.execPath,
      args: [fixturePath(fixture)],
      env: { ...nodeEnv(), FIXTURE_LOG: log, ...opts.env },
      connectTimeoutMs: opts.connectTimeoutMs ?? 8000,
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    };
  }

  remote(name: string, url: string, type: 'http' | 'sse' = 'http', headers: Record<string, string> = {}): RemoteServerSettings {
    return { name, type, url, headers, enabled: true, connectTimeoutMs: 8000 };
  }

  /** An HTTP fixture (http.mjs, or `script` with `args`) closed after the hosts at tear-down. */
  async http(env: Record<string, string> = {}, fixture: { script?: string; args?: string[] } = {}): Promise<HttpFixture> {
    const f = await startHttpFixture({ env, ...fixture });
    this.httpFixtures.push(f);
    return f;
  }

  /** A host that is disposed after the test. Defaults: allow-once confirmer, fast backoff, recording logger. */
  host(opts: Partial<McpHostOptions> & { settings: HostSettings }): McpHost & { log: RecordingLogger } {
    const logger = (opts.logger as RecordingLogger | undefined) ?? new RecordingLogger();
    const host = new McpHost({
      secrets: mapSecrets({}),
      confirmer: new RecordingConfirmer(),
      backoff: FAST_BACKOFF,
      ...opts,
      logger,
    }) as McpHost & { log: RecordingLogger };
    host.log = logger;
    this.hosts.push(host);
    return host;
  }

  /** Create and start a host. */
  async started(opts: Partial<McpHostOptions> & { settings: HostSettings }): Promise<McpHost & { log: RecordingLogger }> {
    const h = this.host(opts);
    await h.start();
    return h;
  }
}

/** A fresh TestEnv for every test of the enclosing `describe`. */
export function useTestEnv(): TestEnv {
  const env = new TestEnv();
  beforeEach(() => env.setUp());
  afterEach(async () => env.tearDown());
  return env;
}

/**
 * One TestEnv (and whatever it starts in `before`) shared by the tests of the enclosing `describe`,
 * for read-only tests that do not need a server of their own. Cleaned up in `after`.
 */
export function useSharedTestEnv(): TestEnv {
  const env = new TestEnv();
  before(() => env.setUp());
  after(async () => env.tearDown());
  return env;
}

/** A tool loaded under an exposed name (`name`), as the registry holds it. */
export type LoadedTool = ToolView & { readonly name: string };

/** Every tool loaded under an exposed name (visible to the role or not), server by server. */
export function loaded(host: McpHost): LoadedTool[] {
  const snapshot = host.snapshot();
  return snapshot.servers
    .flatMap((s) => snapshot.tools(s.name))
    .filter((t) => t.exposedName !== undefined)
    .map((t) => ({ ...t, name: t.exposedName! }));
}

/** exposed name → "server/tool" for every loaded tool. */
export function mapping(host: McpHost): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of loaded(host)) out[t.name] = `${t.server}/${t.tool.name}`;
  return out;
}

/** A server as the snapshot shows it (fails the test when it is not configured). */
export function serverView(host: McpHost, server: string): ServerView {
  const s = host.snapshot().server(server);
  assert.ok(s, `server ${server} is configured`);
  return s;
}

/** The tools a server lists now, each name once. */
export function listedTools(host: McpHost, server: string): Tool[] {
  return host.snapshot().tools(server).map((t) => t.tool);
}

export function stateKind(host: McpHost, server: string): string | undefined {
  return host.snapshot().server(server)?.state.kind;
}

/** A TestEnv host whose servers run in this process (see test/fixtures/inMemoryServers.ts). */
export function memoryHostOptions(servers: InMemoryServers): Pick<McpHostOptions, 'transports'> {
  return { transports: servers };
}
