/**
 * 3. Parallel start: N stdio fixture servers that each hold `initialize` for FIXTURE_INIT_DELAY_MS,
 * time from creating the host until `start()` has resolved and `exposedTools()` has every tool,
 * against the same for a host with one such server. Alternating repetitions; median of each.
 * For context the same is measured with raw SDK clients (N clients connecting + listing in parallel
 * vs one), which shows what the machine itself costs for starting N Node processes at once.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { connectRaw, createHost, fixtureServer, fmtMs, hostSettings, settle, type BenchResult } from './common';
import { median, round } from './stats';

export interface ParallelStartOptions {
  readonly servers: number;
  readonly initDelayMs: number;
  readonly reps: number;
  readonly target: number;
}

export const PARALLEL_START_DEFAULTS: ParallelStartOptions = { servers: 10, initDelayMs: 300, reps: 3, target: 1.5 };

/**
 * CPU time (user+sys, ms) of this process's children that have exited and been reaped, from
 * /proc/self/stat cutime+cstime (clock ticks, USER_HZ = 100 on Linux). Undefined elsewhere.
 */
export function reapedChildrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Tools basic.mjs lists. */
const BASIC_TOOLS = 9;

export async function timeHostStart(n: number, initDelayMs: number): Promise<number> {
  const env = { FIXTURE_INIT_DELAY_MS: String(initDelayMs) };
  const servers = Array.from({ length: n }, (_, i) => fixtureServer(`s${i}`, 'basic', env));
  const t0 = performance.now();
  const host = createHost(hostSettings(servers), undefined);
  try {
    await host.start();
    const exposed = host.exposedTools().length;
    const ms = performance.now() - t0;
    if (exposed !== n * BASIC_TOOLS) throw new Error(`expected ${n * BASIC_TOOLS} tools after start(), host exposes ${exposed}`);
    return ms;
  } finally {
    await host.dispose();
  }
}

async function timeRawStart(n: number, initDelayMs: number): Promise<number> {
  const env = { FIXTURE_INIT_DELAY_MS: String(initDelayMs) };
  const t0 = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: n }, () => connectRaw('basic', env)));
  const ms = performance.now() - t0;
  await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return ms;
}

export async function parallelStart(opts: ParallelStartOptions = PARALLEL_START_DEFAULTS): Promise<BenchResult> {
  // Warm-up: the first spawn pays for cold file caches.
  await timeHostStart(1, 0);
  await timeRawStart(1, 0);

  // CPU one fixture server costs to start, initialize, list and exit (measured on 10 host starts).
  const cpuBefore = reapedChildrenCpuMs();
  await timeHostStart(opts.servers, 0);
  const cpuAfter = reapedChildrenCpuMs();
  const serverCpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / opts.servers : undefined;
  const cores = cpus().length;

  const hostOne: number[] = [];
  const hostN: number[] = [];
  const rawOne: number[] = [];
  const rawN: number[] = [];
  for (let i = 0; i < opts.reps; i++) {
    const steps: [number[], () => Promise<number>][] = [
      [hostOne, () => timeHostStart(1, opts.initDelayMs)],
      [hostN, () => timeHostStart(opts.servers, opts.initDelayMs)],
      [rawOne, () => timeRawStart(1, opts.initDelayMs)],
      [rawN, () => timeRawStart(opts.servers, opts.initDelayMs)],
    ];
    if (i % 2 === 1) steps.reverse();
    for (const [into, run] of steps) {
      into.push(await run());
      await settle(50);
    }
  }
  const h1 = median(hostOne);
  const hn = median(hostN);
  const r1 = median(rawOne);
  const rn = median(rawN);
  const ratio = hn / h1;
  const rawRatio = rn / r1;
  return {
    rows: [
      {
        id: 'parallelStart.ratio',
        name: `Parallel start: ${opts.servers} stdio servers (initialize held ${opts.initDelayMs} ms) until all tools are exposed, vs 1 server`,
        value: round(ratio, 3),
        unit: '× one',
        target: `≤ ${opts.target}`,
        pass: ratio <= opts.target,
        detail:
          `host: ${opts.servers} servers ${fmtMs(hn)} vs 1 server ${fmtMs(h1)} (median of ${opts.reps}); a serial start would be ≥ ${fmtMs(opts.servers * h1)}` +
          (serverCpuMs !== undefined
            ? `; each fixture process needs ${fmtMs(serverCpuMs)} CPU, so ${opts.servers} on ${cores} cores need ≥ ${fmtMs((opts.servers * serverCpuMs) / cores)} of CPU alone (floor ≈ ${(((opts.servers * serverCpuMs) / cores + opts.initDelayMs) / h1).toFixed(2)}× one)`
            : ''),
      },
      {
        id: 'parallelStart.hostVsRaw',
        name: `Parallel start, host vs raw SDK for ${opts.servers} servers`,
        value: round(hn / rn, 3),
        unit: 'host/raw',
        target: 'report',
        detail: `host ${fmtMs(hn)} vs raw SDK ${fmtMs(rn)} (same servers, same run)`,
      },
      {
        id: 'parallelStart.raw',
        name: `Parallel start, raw SDK baseline (${opts.servers} Client+StdioClientTransport connect+listTools vs 1)`,
        value: round(rawRatio, 3),
        unit: '× one',
        target: 'report',
        detail: `raw: ${opts.servers} ${fmtMs(rn)} vs 1 ${fmtMs(r1)}; host/raw for ${opts.servers}: ${(hn / rn).toFixed(3)}, for 1: ${(h1 / r1).toFixed(3)}`,
      },
    ],
    data: {
      options: opts,
      hostOneMs: hostOne.map((x) => round(x, 1)),
      hostManyMs: hostN.map((x) => round(x, 1)),
      rawOneMs: rawOne.map((x) => round(x, 1)),
      rawManyMs: rawN.map((x) => round(x, 1)),
      ratio: round(ratio, 4),
      fixtureServerCpuMs: serverCpuMs,
      cores,
      rawRatio: round(rawRatio, 4),
    },
  };
}

if (require.main === module) {
  parallelStart().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
