/**
 * Shared plumbing for the benchmarks: the result-row type, the block rotation every comparison
 * runs in, raw-SDK clients for the fixture servers, server command lines, /proc readers, temp dirs.
 * Everything that touches McpHost or src/core lives in hostUnderTest.ts, not here.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixturePath, nodeEnv } from '../test/fixtures/fixtureServers';
import { useLinearReader } from './linearReadBuffer';
import { blockBootstrap, median, pooled, prng, shuffled, type Interval } from './stats';

export const ROOT = resolve(__dirname, '..');
export const BENCH_SERVERS_DIR = join(__dirname, 'servers');

export type Verdict = 'PASS' | 'FAIL' | 'inconclusive' | 'not judged' | 'info';

export interface Target {
  readonly op: '<=' | '>=';
  readonly value: number;
}

/** One line of the results table. */
export interface Row {
  readonly id: string;
  readonly name: string;
  /** The figure the target applies to (a ratio, or ms / MB for the absolute ones). */
  readonly value: number;
  readonly unit: string;
  /** 95 % block-bootstrap confidence interval of `value`. */
  readonly ci?: Interval;
  /** undefined: informational row. */
  readonly target?: Target;
  /**
   * 'timing' (default): judged from the interval, and only when the machine is quiet enough.
   * 'check': deterministic or functional (bundle bytes, processes left): judged from the value.
   * 'memory': a peak or growth of RSS, judged from the interval whatever the machine's CPU load.
   */
  readonly kind?: 'timing' | 'check' | 'memory';
  /** The same statistic for the A/A pair (raw B ÷ raw A): the noise floor of this comparison. */
  readonly aa?: { readonly value: number; readonly ci: Interval };
  /** The row could not be measured (e.g. the host failed the call): FAIL, with this text. */
  readonly error?: string;
  /** Both sides of the comparison and anything else worth reading. */
  readonly detail: string;
  /** Filled in by run.ts. */
  verdict?: Verdict;
}

export interface BenchResult {
  readonly rows: readonly Row[];
  /** Raw numbers for results.json. */
  readonly data: Record<string, unknown>;
}

// --- block rotation ------------------------------------------------------------------------------

/** Names of the three sides of every comparison: two identical raw-SDK clients (A/A) and the host. */
export const SIDES = ['rawA', 'rawB', 'host'] as const;
export type SideName = (typeof SIDES)[number];
export type Sides<T> = Record<SideName, () => Promise<T>>;
/** One block: every side's results, one per round. */
export type Block<T> = Record<SideName, T[]>;

export interface RotationOptions {
  readonly blocks: number;
  /** Rounds per block; in each round every side runs once, in a freshly shuffled order. Default 1. */
  readonly rounds?: number;
  /** Seed of the orders (same seed, same orders). */
  readonly seed: number;
  /** Awaited between two sides (e.g. a short pause so I/O settles). */
  readonly between?: () => Promise<void>;
  /** Called after each block, outside the measured parts (e.g. to sample memory). */
  readonly afterBlock?: (index: number) => void | Promise<void>;
}

/**
 * Runs `blocks` blocks of `rounds` rounds; in each round every side runs once, in an order shuffled
 * per round. The A/A pair and the target share every round, so whatever the machine does at that
 * moment hits all three; a block (the unit of the bootstrap) gathers its rounds.
 */
export async function rotate<T>(sides: Sides<T>, opts: RotationOptions): Promise<{ blocks: Block<T>[] }> {
  const rand = prng(opts.seed);
  const rounds = opts.rounds ?? 1;
  const blocks: Block<T>[] = [];
  for (let b = 0; b < opts.blocks; b++) {
    const block: Block<T> = { rawA: [], rawB: [], host: [] };
    for (let r = 0; r < rounds; r++) {
      for (const side of shuffled(SIDES, rand)) {
        block[side].push(await sides[side]());
        await opts.between?.();
      }
    }
    blocks.push(block);
    await opts.afterBlock?.(b);
  }
  return { blocks };
}

export interface Comparison {
  readonly value: number;
  readonly ci: Interval;
  readonly aa: { readonly value: number; readonly ci: Interval };
  /** The statistic of each side on its own (e.g. its median), over all blocks. */
  readonly host: number;
  readonly raw: number;
  readonly rawA: number;
  readonly rawB: number;
}

/**
 * host ÷ raw of a statistic (default: the median) of the pooled samples, with its block-bootstrap
 * interval; raw = both raw clients pooled. `pick` turns one side's rounds of a block into its
 * samples (e.g. the latencies, or one calls/s figure). The A/A figure is raw B ÷ raw A of the same statistic.
 */
export function compare<T>(blocks: readonly Block<T>[], pick: (rounds: readonly T[]) => readonly number[] | number, stat: (values: Float64Array) => number = median): Comparison {
  // Each block's samples per side, computed once (the bootstrap pools them thousands of times).
  const samples = blocks.map((b) => ({ rawA: Float64Array.from(asArray(pick(b.rawA))), rawB: Float64Array.from(asArray(pick(b.rawB))), host: Float64Array.from(asArray(pick(b.host))) }));
  type Samples = (typeof samples)[number];
  const of = (bs: readonly Samples[], ...sides: SideName[]) => stat(pooled(bs, (b) => sides.map((s) => b[s])));
  const ratio = (bs: readonly Samples[]) => of(bs, 'host') / of(bs, 'rawA', 'rawB');
  const aa = (bs: readonly Samples[]) => of(bs, 'rawB') / of(bs, 'rawA');
  return {
    value: ratio(samples),
    ci: blockBootstrap(samples, ratio),
    aa: { value: aa(samples), ci: blockBootstrap(samples, aa) },
    host: of(samples, 'host'),
    raw: of(samples, 'rawA', 'rawB'),
    rawA: of(samples, 'rawA'),
    rawB: of(samples, 'rawB'),
  };
}

/** A "host ÷ raw ≤ target" row of a comparison: its ratio (4 digits), interval and A/A pair. */
export function ratioRow(id: string, name: string, c: Comparison, target: number, detail: string): Row {
  return { id, name, value: Math.round(c.value * 1e4) / 1e4, unit: '×', ci: c.ci, aa: c.aa, target: { op: '<=', value: target }, detail };
}

function asArray(v: readonly number[] | number): readonly number[] {
  return typeof v === 'number' ? [v] : v;
}

// --- servers and raw clients ---------------------------------------------------------------------

/** Absolute path of a bench server (bench/servers/<name>.mjs) or else a test fixture server. */
export function serverScript(name: string): string {
  const bench = join(BENCH_SERVERS_DIR, `${name}.mjs`);
  return existsSync(bench) ? bench : fixturePath(name);
}

/**
 * `setsid`, when there is one. The host starts servers detached (a session of their own), and on a
 * Linux with scheduler autogroups a session is its own CPU-share group: on a loaded machine the
 * host's server would then get more CPU than a raw-SDK server in the benchmark's own session, which
 * flatters the host. Raw servers are started through setsid (it calls setsid() and execs node:
 * same process, no extra fork) so every server is scheduled alike.
 */
export const SETSID = process.platform === 'linux' ? ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p)) : undefined;

const TASKSET = process.platform === 'linux' ? ['/usr/bin/taskset', '/bin/taskset'].find((p) => existsSync(p)) : undefined;

/**
 * The CPU that the latency and throughput rows pin every server process to (the host's and the
 * raw clients' alike), or undefined. Where each server lands otherwise decides a lot on a small VM.
 * BENCH_PIN_SERVERS=<cpu> picks the CPU, BENCH_PIN_SERVERS=off disables it. Client processes and
 * the benchmark process itself are never pinned, except the sustained session's session processes
 * (see sessionCpu).
 */
export function pinnedCpu(): string | undefined {
  const env = process.env.BENCH_PIN_SERVERS;
  if (env === 'off' || !TASKSET) return undefined;
  if (env) return env;
  const n = cpus().length;
  return n >= 2 ? String(n - 1) : undefined;
}

/**
 * The CPU that the sustained session pins every session process to (the host's `mcp-host session`
 * and the raw SDK's alike): one that is not the servers' CPU, or undefined when servers are not
 * pinned. Left to the scheduler, a session sometimes lands on its server's CPU for a whole block,
 * which made blocks bimodal (host ÷ raw 0.87 in some, 0.97 in others, the same code) and the
 * interval wide. BENCH_PIN_SESSIONS=<cpu> picks the CPU, BENCH_PIN_SESSIONS=off disables it.
 */
export function sessionCpu(): string | undefined {
  const servers = pinnedCpu();
  const env = process.env.BENCH_PIN_SESSIONS;
  if (servers === undefined || env === 'off') return undefined;
  if (env) return env;
  return servers === '0' ? '1' : '0';
}

/** `command args…` as a [command, args] pair run on `cpu` (through taskset), or as it is when `cpu` is undefined. */
export function onCpu(cpu: string | undefined, command: string, args: readonly string[]): [string, string[]] {
  return cpu !== undefined && TASKSET ? [TASKSET, ['-c', cpu, command, ...args]] : [command, [...args]];
}

/** The command line of a server (bench/servers or test fixture), pinned to `pinnedCpu()` when `pin`. */
export function serverCommand(name: string, pin = false): string[] {
  const [command, args] = onCpu(pin ? pinnedCpu() : undefined, process.execPath, [serverScript(name)]);
  return [command, ...args];
}

export interface ServerSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A server as the host is configured with it: the same command line a raw client starts. */
export function serverSpec(name: string, server: string, env: Record<string, string> = {}, pin = false): ServerSpec {
  const [command, ...args] = serverCommand(server, pin);
  return { name, command, args, env: { ...nodeEnv(), ...env } };
}

export interface RawClient {
  readonly client: Client;
  readonly pid: number | null;
  close(): Promise<void>;
}

export interface RawOptions {
  readonly env?: Record<string, string>;
  readonly pin?: boolean;
  /** List tools after connecting, as the host does (also primes the SDK's output-schema cache). Default true. */
  readonly listTools?: boolean;
  /** Read messages with LinearReadBuffer, up to this many bytes (the SDK's ReadBuffer stops at 10 MiB). */
  readonly linearReaderMaxBytes?: number;
}

/**
 * The raw SDK baseline: `Client` over the SDK's own `StdioClientTransport` to an identical server
 * process (same command, same minimal environment, stderr piped and drained like the host does).
 */
export async function connectRaw(server: string, o: RawOptions = {}): Promise<RawClient> {
  const command = serverCommand(server, o.pin);
  const transport = new StdioClientTransport({
    command: SETSID ?? command[0],
    args: SETSID ? command : command.slice(1),
    env: { ...getDefaultEnvironment(), ...nodeEnv(), ...(o.env ?? {}) },
    stderr: 'pipe',
  });
  if (o.linearReaderMaxBytes !== undefined) useLinearReader(transport, o.linearReaderMaxBytes);
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-raw', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  if (o.listTools ?? true) await client.listTools();
  return { client, pid: transport.pid, close: () => client.close() };
}

// --- machine -------------------------------------------------------------------------------------

/** The 1-minute load average, rounded. */
export function load1(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** VmRSS and VmHWM (peak RSS) of a process, in bytes, from /proc/<pid>/status; undefined if unreadable. */
export function procMemory(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

export function makeTempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `mcp-host-bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Let pending I/O and timers settle between measured parts. */
export function settle(ms = 0): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function fmtMB(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** A difference with its sign: "+3 µs", "-1 µs" (fmtMs and fmtMB format a negative value by its size). */
export function fmtSigned(n: number, fmt: (n: number) => string): string {
  return n < 0 ? `-${fmt(-n)}` : `+${fmt(n)}`;
}

/** "1.023 [0.998, 1.051]" */
export function fmtCi(value: number, ci: Interval | undefined, digits = 3): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
  return ci ? `${f(value)} [${f(ci.lo)}, ${f(ci.hi)}]` : f(value);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
