/**
 * Routing overhead: sequential no-op calls through the host (lookup, role check, argument
 * validation, policy = autoApprove, tools/call, result conversion, JSONL audit) against the raw SDK
 * (`Client.callTool` over `StdioClientTransport`), each to its own identical basic.mjs process.
 *
 * Three sides share every block: raw A, raw B (the A/A pair: same code, two processes) and the
 * host. A block is `rounds` rounds; in each round every side makes `callsPerTurn` calls (default
 * one), the sides in an order shuffled per round, so all three see the machine in the same state. Statistic: host
 * p50 ÷ raw p50 (both raw clients pooled), with a block-bootstrap 95 % interval; the A/A row is raw
 * B ÷ raw A of the same statistic. p99 likewise (reported). All server processes are pinned to the
 * same CPU (common.ts pinnedCpu). The audit file is configured when the host is built.
 *
 * The warm-up is rotated the same way, `warmup` calls per side, and its first `coldCalls` are
 * reported on their own (info): the host's per-call code runs once per host call and V8 optimises
 * it only after ~2,500–3,000 calls, while the SDK code of the raw side runs for raw A and raw B
 * alike and warms in half the calls. Measured per block with a 500-call warm-up: host ÷ raw
 * 1.05–1.17 for the first ~11 blocks, then 0.94–1.02 (with V8's --interrupt-budget=16000 the early
 * blocks fall to ~1.0: it is the JIT, not a clock). The target row is the steady state.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, connectRaw, fmtCi, fmtMs, fmtSigned, makeTempDir, pinnedCpu, rotate, serverSpec, settle, type BenchResult, type Block, type RawClient } from './common';
import { baseline, BASELINE_TARGET, startOldPair, yardstick } from './baseline';
import { createHostUnderTest, type HostUnderTest } from './hostUnderTest';
import { percentile, round } from './stats';

export interface RoutingOptions {
  readonly blocks: number;
  /** Rounds per block: in each round every side makes `callsPerTurn` calls, sides in a shuffled order. */
  readonly rounds: number;
  readonly callsPerTurn: number;
  /** Warm-up calls per side (rotated like the blocks, in rounds of `rounds`). */
  readonly warmup: number;
  /** The first calls of the warm-up reported on their own (info row). */
  readonly coldCalls: number;
  readonly target: number;
  readonly seed: number;
}

export const ROUTING_DEFAULTS: RoutingOptions = {
  blocks: Number(process.env.BENCH_ROUTING_BLOCKS ?? 40),
  rounds: Number(process.env.BENCH_ROUTING_ROUNDS ?? 200),
  callsPerTurn: Number(process.env.BENCH_ROUTING_TURN ?? 1),
  warmup: Number(process.env.BENCH_ROUTING_WARMUP ?? 5000),
  coldCalls: 2000,
  target: 1.03,
  seed: 1,
};

export async function routingOverhead(opts: RoutingOptions = ROUTING_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('routing');
  const auditPath = join(tmp.dir, 'audit.jsonl');
  const host = createHostUnderTest([serverSpec('basic', 'basic', {}, true)], { autoApprove: ['basic/*'], auditPath });
  const raws: RawClient[] = [];
  // --baseline: the A/A pair is two old hosts (each its own server and audit file), see baseline.ts.
  const old = baseline();
  const oldHosts: HostUnderTest[] = [];
  try {
    await host.start();
    host.approveDefinitions();
    if (old) {
      await startOldPair(old, [serverSpec('basic', 'basic', {}, true)], (ab) => ({ autoApprove: ['basic/*'], auditPath: join(tmp.dir, `audit-old${ab}.jsonl`) }), oldHosts);
    } else {
      raws.push(await connectRaw('basic', { pin: true }), await connectRaw('basic', { pin: true }));
    }
    const name = 'basic__noop';
    if (!host.toolNames().includes(name)) throw new Error(`host has no tool ${name}: ${host.toolNames().join(', ')}`);

    let notOk = 0;
    const hostCall = (h: HostUnderTest) => async () => {
      const t0 = performance.now();
      const r = await h.call(name, {});
      const dt = performance.now() - t0;
      if (r.outcome !== 'ok' || r.confirmedBy !== 'policy') notOk++;
      return dt;
    };
    const rawCall = (raw: RawClient) => async () => {
      const t0 = performance.now();
      const r = await raw.client.callTool({ name: 'noop', arguments: {} });
      const dt = performance.now() - t0;
      if (r.isError) notOk++;
      return dt;
    };
    const series = (call: () => Promise<number>) => async () => {
      const out: number[] = [];
      for (let i = 0; i < opts.callsPerTurn; i++) out.push(await call());
      return out;
    };
    const sides = old
      ? { rawA: series(hostCall(oldHosts[0])), rawB: series(hostCall(oldHosts[1])), host: series(hostCall(host)) }
      : { rawA: series(rawCall(raws[0])), rawB: series(rawCall(raws[1])), host: series(hostCall(host)) };
    const warm = await rotate(sides, { blocks: Math.max(1, Math.ceil(opts.warmup / (opts.rounds * opts.callsPerTurn))), rounds: opts.rounds, seed: opts.seed + 1000 });
    const warmupCalls = warm.blocks.length * opts.rounds * opts.callsPerTurn;
    const coldBlocks = warm.blocks.slice(0, Math.max(1, Math.round(opts.coldCalls / (opts.rounds * opts.callsPerTurn))));
    const coldCalls = coldBlocks.length * opts.rounds * opts.callsPerTurn;
    await settle(20);

    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed });
    if (notOk) throw new Error(`${notOk} calls did not return ok`);
    // The last call's record is written at the end of the turn it returned in (JsonlFileSink).
    await new Promise((r) => setImmediate(r));
    // Call records only: the review of the definitions (approveDefinitions) is a record too.
    const auditLines = readFileSync(auditPath, 'utf8').split('\n').filter((l) => l && (JSON.parse(l) as { kind?: string }).kind === 'call').length;
    const perSide = opts.blocks * opts.rounds * opts.callsPerTurn;
    const expectedLines = warmupCalls + perSide;
    if (auditLines !== expectedLines) throw new Error(`audit has ${auditLines} lines, expected ${expectedLines}`);

    const p50 = compare(blocks, (turns) => turns.flat());
    const p99 = compare(blocks, (turns) => turns.flat(), (v) => percentile(v, 99));
    const cold = compare(coldBlocks, (turns) => turns.flat());
    const pin = pinnedCpu();
    const raw = yardstick();
    return {
      rows: [
        {
          id: 'routing.p50',
          name: `Routing p50, host ÷ ${raw} (${perSide} sequential noop calls per side in ${opts.blocks} blocks)`,
          value: round(p50.value, 4),
          unit: '×',
          ci: p50.ci,
          aa: p50.aa,
          target: { op: '<=', value: old ? BASELINE_TARGET : opts.target },
          detail:
            `host p50 ${fmtMs(p50.host)} vs ${raw} ${fmtMs(p50.raw)} (${fmtSigned(p50.host - p50.raw, fmtMs)}/call; A ${fmtMs(p50.rawA)}, B ${fmtMs(p50.rawB)}); ` +
            `A/A ${fmtCi(p50.aa.value, p50.aa.ci)}; each block ${opts.rounds} rounds of ${opts.callsPerTurn} call(s) per side in a shuffled order, after ${warmupCalls} warm-up calls per side rotated alike; JSONL audit on; servers ${pin !== undefined ? `pinned to CPU ${pin}` : 'not pinned'}`,
        },
        {
          id: 'routing.p99',
          name: `Routing p99, host ÷ ${raw}`,
          value: round(p99.value, 4),
          unit: '×',
          ci: p99.ci,
          aa: p99.aa,
          detail: `host p99 ${fmtMs(p99.host)} vs ${raw} ${fmtMs(p99.raw)}; A/A ${fmtCi(p99.aa.value, p99.aa.ci)}`,
        },
        {
          id: 'routing.coldP50',
          name: `Routing p50 in the first ${coldCalls} calls per side after start (warm-up), host ÷ ${raw}`,
          value: round(cold.value, 4),
          unit: '×',
          ci: cold.ci,
          aa: cold.aa,
          detail:
            `host p50 ${fmtMs(cold.host)} vs ${raw} ${fmtMs(cold.raw)}; A/A ${fmtCi(cold.aa.value, cold.aa.ci)}; ` +
            `before V8 has optimised the host's per-call code (raw A and raw B run the same SDK code, so it warms in half the calls); the target row follows ${warmupCalls} warm-up calls per side`,
        },
      ],
      data: {
        options: opts,
        pinnedCpu: pin ?? null,
        auditLines,
        warmupCalls,
        coldBlockP50Ms: blockP50s(coldBlocks),
        p50: { host: round(p50.host, 5), raw: round(p50.raw, 5), rawA: round(p50.rawA, 5), rawB: round(p50.rawB, 5) },
        p99: { host: round(p99.host, 5), raw: round(p99.raw, 5), rawA: round(p99.rawA, 5), rawB: round(p99.rawB, 5) },
        blockP50Ms: blockP50s(blocks),
      },
    };
  } finally {
    await Promise.all([host.close(), ...oldHosts.map((h) => h.close()), ...raws.map((r) => r.close())]);
    tmp.remove();
  }
}

/** Each block's p50 per side (ms), as kept in results.json. */
function blockP50s(blocks: readonly Block<number[]>[]) {
  return blocks.map((b) => ({ rawA: round(percentile(b.rawA.flat(), 50), 4), rawB: round(percentile(b.rawB.flat(), 50), 4), host: round(percentile(b.host.flat(), 50), 4) }));
}

if (require.main === module) {
  routingOverhead().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
