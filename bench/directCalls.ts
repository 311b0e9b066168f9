/**
 * What DirectRequests earns: sequential noop calls to a 2025-era stdio server through the host as
 * shipped (a `tools/call` past the SDK's request path) against two hosts that send every request
 * through the SDK (`directRequests: false`: the plain path it is held to in
 * test/unit/core/mcp/directRequests.test.ts), each host with its own process of the same fixture.
 * Rotated like the routing row; statistic: p50 direct ÷ p50 SDK path, with its block-bootstrap
 * interval, the two SDK-path hosts as the A/A pair. The target: the hand-written path must save at
 * least 5 % of a call to be worth keeping.
 */
import { join } from 'node:path';
import { compare, fmtCi, fmtMs, fmtSigned, makeTempDir, pinnedCpu, rotate, serverSpec, settle, type BenchResult } from './common';
import { createHostUnderTest, type HostUnderTest } from './hostUnderTest';
import { round } from './stats';

export interface DirectCallsOptions {
  readonly blocks: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly target: number;
  readonly seed: number;
}

export const DIRECT_CALLS_DEFAULTS: DirectCallsOptions = {
  blocks: Number(process.env.BENCH_DIRECT_BLOCKS ?? 30),
  rounds: Number(process.env.BENCH_DIRECT_ROUNDS ?? 200),
  // As the routing row: the hosts' per-call code is optimised only after a few thousand calls.
  warmup: Number(process.env.BENCH_DIRECT_WARMUP ?? 5000),
  target: 0.95,
  seed: 11,
};

export async function directCalls(opts: DirectCallsOptions = DIRECT_CALLS_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('direct');
  const host = (side: string, directRequests: boolean) =>
    createHostUnderTest([serverSpec('basic', 'basic', {}, true)], { autoApprove: ['basic/*'], auditPath: join(tmp.dir, `audit-${side}.jsonl`), directRequests });
  const hosts: HostUnderTest[] = [host('direct', true), host('sdkA', false), host('sdkB', false)];
  try {
    for (const h of hosts) {
      await h.start();
      h.approveDefinitions();
    }
    const name = 'basic__noop';
    let notOk = 0;
    const call = (h: HostUnderTest) => async () => {
      const t0 = performance.now();
      const r = await h.call(name, {});
      const dt = performance.now() - t0;
      if (r.outcome !== 'ok') notOk++;
      return dt;
    };
    const sides = { host: call(hosts[0]), rawA: call(hosts[1]), rawB: call(hosts[2]) };
    await rotate(sides, { blocks: Math.max(1, Math.ceil(opts.warmup / opts.rounds)), rounds: opts.rounds, seed: opts.seed + 1000 });
    await settle(20);
    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed });
    if (notOk) throw new Error(`${notOk} calls did not return ok`);
    const p50 = compare(blocks, (calls) => calls);
    const perSide = opts.blocks * opts.rounds;
    const pin = pinnedCpu();
    return {
      rows: [
        {
          id: 'direct.p50',
          name: `2025-era stdio calls, p50: host as shipped (DirectRequests) ÷ host with the SDK's request path (${perSide} sequential noop calls per side)`,
          value: round(p50.value, 4),
          unit: '×',
          ci: p50.ci,
          aa: p50.aa,
          target: { op: '<=' as const, value: opts.target },
          detail:
            `direct p50 ${fmtMs(p50.host)} vs SDK path ${fmtMs(p50.raw)} (${fmtSigned(p50.host - p50.raw, fmtMs)}/call; A ${fmtMs(p50.rawA)}, B ${fmtMs(p50.rawB)}); A/A ${fmtCi(p50.aa.value, p50.aa.ci)}; ` +
            `${opts.blocks} blocks of ${opts.rounds} rounds after ${opts.warmup} warm-up calls per side; JSONL audit on; servers ${pin !== undefined ? `pinned to CPU ${pin}` : 'not pinned'}`,
        },
      ],
      data: { options: opts, pinnedCpu: pin ?? null, p50: { direct: round(p50.host, 5), sdk: round(p50.raw, 5), sdkA: round(p50.rawA, 5), sdkB: round(p50.rawB, 5) } },
    };
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
    tmp.remove();
  }
}
