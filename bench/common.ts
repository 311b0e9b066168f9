/**
 * Shared plumbing for the benchmarks: host and raw-SDK clients for the fixture servers, temp dirs,
 * and the result-row type every benchmark returns to run.ts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixedConfirmer } from '../src/core/calls/confirmer';
import { McpHost } from '../src/core/host/mcpHost';
import { envSecretResolver } from '../src/core/settings/resolveServerSettings';
import { DEFAULTS, emptySettings, type HostSettings, type StdioServerSettings } from '../src/core/settings/hostSettings';
import { fixturePath, nodeEnv } from '../test/fixtures/fixtureServers';

/** One line of the results table. */
export interface Row {
  readonly id: string;
  readonly name: string;
  /** The figure the target applies to (a ratio, or ms / bytes for the absolute ones). */
  readonly value: number;
  readonly unit: string;
  /** Human form of the target, e.g. "≤ 1.05". */
  readonly target: string;
  /** undefined: informational row (no target). */
  readonly pass?: boolean;
  /** Both sides of the comparison and anything else worth reading. */
  readonly detail: string;
}

export interface BenchResult {
  readonly rows: readonly Row[];
  /** Raw numbers for results.json. */
  readonly data: Record<string, unknown>;
}

/** Settings for one stdio fixture server, started the way the host starts any configured server. */
export function fixtureServer(name: string, fixture: string, env: Record<string, string> = {}, pin = false): StdioServerSettings {
  const [command, ...args] = serverCommand(fixture, pin);
  return {
    name,
    type: 'stdio',
    enabled: true,
    command,
    args,
    env: { ...nodeEnv(), ...env },
    connectTimeoutMs: DEFAULTS.connectTimeoutMs,
  };
}

export function hostSettings(servers: readonly StdioServerSettings[], extra: Partial<HostSettings> = {}): HostSettings {
  return { ...emptySettings(), servers, ...extra };
}

/**
 * A host as the CLI/extension builds one: every tool auto-approved (no confirmation prompt),
 * audit to a real JSONL file. A confirmation request would be a bug in the bench, so it denies.
 */
export function createHost(settings: HostSettings, auditPath: string | undefined): McpHost {
  return new McpHost({
    settings,
    secrets: envSecretResolver({}),
    confirmer: fixedConfirmer('deny'),
    auditPathOverride: auditPath,
    env: {},
  });
}

export interface RawClient {
  readonly client: Client;
  close(): Promise<void>;
}

/**
 * `setsid`, when there is one. The host starts servers detached (a session of their own), and on a
 * Linux with scheduler autogroups a session is its own CPU-share group: on a loaded machine the
 * host's server would then get more CPU than a raw-SDK server in the benchmark's own session, which
 * flatters the host. The raw baseline's server is started through setsid (it calls setsid() and
 * execs node: same process, no extra fork) so both servers are scheduled alike.
 */
const SETSID = process.platform === 'linux' ? ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p)) : undefined;

const TASKSET = process.platform === 'linux' ? ['/usr/bin/taskset', '/bin/taskset'].find((p) => existsSync(p)) : undefined;

/**
 * The CPU that latency benchmarks pin their server processes to (the host's and the raw SDK's alike),
 * or undefined. Where each server lands otherwise decides a lot on a small VM: two identical
 * transports measured 0.6× to 2.0× of each other from run to run, unpinned, on 2 noisy cores;
 * pinned, 0.91–0.97×. BENCH_PIN_SERVERS=<cpu> picks the CPU, BENCH_PIN_SERVERS=off disables it.
 * The benchmark process itself is never pinned.
 */
export function pinnedCpu(): string | undefined {
  const env = process.env.BENCH_PIN_SERVERS;
  if (env === 'off' || !TASKSET) return undefined;
  if (env) return env;
  const n = cpus().length;
  return n >= 2 ? String(n - 1) : undefined;
}

/** The command line of a fixture server, pinned to `pinnedCpu()` when `pin` is set. */
export function serverCommand(fixture: string, pin = false): string[] {
  const base = [process.execPath, fixturePath(fixture)];
  const cpu = pin ? pinnedCpu() : undefined;
  return cpu !== undefined ? [TASKSET!, '-c', cpu, ...base] : base;
}

/**
 * The raw SDK baseline: `Client` over the SDK's own `StdioClientTransport` to an identical server
 * process (same command, same minimal environment, stderr piped and drained like the host does).
 */
export async function connectRaw(fixture: string, env: Record<string, string> = {}, pin = false): Promise<RawClient> {
  const command = serverCommand(fixture, pin);
  const transport = new StdioClientTransport({
    command: SETSID ?? command[0],
    args: SETSID ? command : command.slice(1),
    env: { ...getDefaultEnvironment(), ...nodeEnv(), ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-raw', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  // The host lists tools on connect (which also primes the SDK's output-schema cache); do the same.
  await client.listTools();
  return { client, close: () => client.close() };
}

export function makeTempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `mcp-host-bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Let pending I/O and timers settle between measured blocks. */
export function settle(ms = 0): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}
