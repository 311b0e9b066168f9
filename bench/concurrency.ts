/**
 * Concurrency: 64 calls in flight at once to a 0 ms server (basic.mjs `noop`: a 20 ms wait would
 * hide the per-call cost), host vs raw SDK. One side's turn keeps 64 calls in flight until
 * `callsPerTurn` calls have finished (64 workers, each calling again as soon as its call returns).
 * A block is `rounds` rounds in which raw A, raw B (A/A) and the host each have one turn, in a
 * shuffled order; a side's figure for the block is its calls over its turns' wall time.
 * Statistic: median host calls/s ÷ median raw calls/s (raw A and B pooled), block-bootstrap
 * 95 % interval. Server processes pinned to one CPU as in the routing row; audit file on.
 * 60 blocks of 20 turns: with 30 blocks of 10, two identical raw clients differed by up to ±7 %
 * (A/A [0.935, 1.071]), and the row's interval stayed that wide whatever the host's own figure.
 *
 * A second rotation (info) puts a raw SDK client that asks for progress (`onprogress`: a
 * `progressToken` in every request's `_meta`, as the host sends on every call so that progress can
 * be shown and extend a call's timeout) against the plain raw pair. With a 0 ms server that alone
 * costs the server (parsing `_meta`) and the SDK's client enough to show: 0.875–0.92 × in one-off
 * runs. The host pays it too; the raw yardstick of the target row does not.
 *
 * A third rotation (info) is the like-for-like comparison: the host against a pair of raw SDK
 * clients that both ask for progress, so all three send the same request (a `progressToken` in
 * `_meta`) and the ratio is what the host itself costs per call, with its own A/A pair.
 */
import { join } from 'node:path';
import { compare, connectRaw, fmtCi, makeTempDir, pinnedCpu, rotate, serverSpec, settle, type BenchResult, type Block, type RawClient } from './common';
import { baseline, BASELINE_TARGET, startOldPair, yardstick } from './baseline';
import { createHostUnderTest, type HostUnderTest } from './hostUnderTest';
import { round } from './stats';

export interface ConcurrencyOptions {
  readonly inFlight: number;
  readonly callsPerTurn: number;
  /** Rounds per block; in each round every side has one turn, sides in a shuffled order. */
  readonly rounds: number;
  readonly blocks: number;
  /** Blocks of the second rotation (raw asking for progress ÷ plain raw); 0 skips it. */
  readonly progressBlocks: number;
  /** Blocks of the third rotation (host ÷ a raw pair that asks for progress too); 0 skips it. */
  readonly sameRequestBlocks: number;
  readonly target: number;
  readonly seed: number;
}

export const CONCURRENCY_DEFAULTS: ConcurrencyOptions = {
  inFlight: 64,
  callsPerTurn: Number(process.env.BENCH_CONC_TURN ?? 640),
  rounds: Number(process.env.BENCH_CONC_ROUNDS ?? 20),
  blocks: 60,
  progressBlocks: 30,
  sameRequestBlocks: 30,
  target: 0.9,
  seed: 2,
};

interface TurnResult {
  readonly calls: number;
  readonly ms: number;
}

export async function concurrency(opts: ConcurrencyOptions = CONCURRENCY_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('concurrency');
  const host = createHostUnderTest([serverSpec('basic', 'basic', {}, true)], { autoApprove: ['basic/*'], auditPath: join(tmp.dir, 'audit.jsonl') });
  const raws: RawClient[] = [];
  // --baseline: the A/A pair is two old hosts and the raw-SDK rotations are left out (see baseline.ts).
  const old = baseline();
  const oldHosts: HostUnderTest[] = [];
  try {
    await host.start();
    host.approveDefinitions();
    if (old) {
      await startOldPair(old, [serverSpec('basic', 'basic', {}, true)], (ab) => ({ autoApprove: ['basic/*'], auditPath: join(tmp.dir, `audit-old${ab}.jsonl`) }), oldHosts);
    } else {
      // Plain raw A and B; raw with progress C and D (C is the second rotation's "host").
      for (let i = 0; i < 4; i++) raws.push(await connectRaw('basic', { pin: true }));
    }
    let bad = 0;
    const hostCall = (h: HostUnderTest) => async () => {
      const r = await h.call('basic__noop', {});
      if (r.outcome !== 'ok') bad++;
    };
    const rawCall = (raw: RawClient) => async () => {
      const r = await raw.client.callTool({ name: 'noop', arguments: {} });
      if (r.isError) bad++;
    };
    /** The raw SDK asking for progress: a progressToken in `_meta`, as the host's every call carries. */
    const rawProgressCall = (raw: RawClient) => async () => {
      const r = await raw.client.callTool({ name: 'noop', arguments: {} }, undefined, { onprogress: () => undefined });
      if (r.isError) bad++;
    };

    let maxInFlight = 0;
    /** One turn: `inFlight` workers until `total` calls are done. */
    const turn = (call: () => Promise<void>, total: number) => async (): Promise<TurnResult> => {
      let started = 0;
      let inFlight = 0;
      const worker = async () => {
        while (started < total) {
          started++;
          inFlight++;
          if (inFlight > maxInFlight) maxInFlight = inFlight;
          await call();
          inFlight--;
        }
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: opts.inFlight }, worker));
      return { calls: total, ms: performance.now() - t0 };
    };
    const calls = old ? { rawA: hostCall(oldHosts[0]), rawB: hostCall(oldHosts[1]), host: hostCall(host) } : { rawA: rawCall(raws[0]), rawB: rawCall(raws[1]), host: hostCall(host) };
    for (const c of Object.values(calls)) await turn(c, opts.inFlight * 4)();
    await settle(20);

    const sides = { rawA: turn(calls.rawA, opts.callsPerTurn), rawB: turn(calls.rawB, opts.callsPerTurn), host: turn(calls.host, opts.callsPerTurn) };
    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed, between: () => settle(1) });
    // The same plain raw pair against a third raw client that asks for progress ("host" in the rotation).
    let progress: { blocks: Block<TurnResult>[] } | undefined;
    if (opts.progressBlocks > 0 && !old) {
      const rawProgress = rawProgressCall(raws[2]);
      await turn(rawProgress, opts.inFlight * 4)();
      progress = await rotate({ ...sides, host: turn(rawProgress, opts.callsPerTurn) }, { blocks: opts.progressBlocks, rounds: opts.rounds, seed: opts.seed + 1, between: () => settle(1) });
    }
    // The host against two raw clients that ask for progress: the same request on all three sides.
    let sameRequest: { blocks: Block<TurnResult>[] } | undefined;
    if (opts.sameRequestBlocks > 0 && !old) {
      const progressA = rawProgressCall(raws[2]);
      const progressB = rawProgressCall(raws[3]);
      for (const c of [progressA, progressB]) await turn(c, opts.inFlight * 4)();
      const progressSides = { rawA: turn(progressA, opts.callsPerTurn), rawB: turn(progressB, opts.callsPerTurn), host: sides.host };
      sameRequest = await rotate(progressSides, { blocks: opts.sameRequestBlocks, rounds: opts.rounds, seed: opts.seed + 2, between: () => settle(1) });
    }
    if (bad) throw new Error(`${bad} calls did not return ok`);
    if (maxInFlight !== opts.inFlight) throw new Error(`expected ${opts.inFlight} calls in flight, saw ${maxInFlight}`);

    /** A side's calls/s in a block: its calls over the time its turns took. */
    const cps = (turns: readonly TurnResult[]) => (turns.reduce((n, t) => n + t.calls, 0) / turns.reduce((n, t) => n + t.ms, 0)) * 1000;
    const c = compare(blocks, cps);
    const p = progress ? compare(progress.blocks, cps) : undefined;
    const same = sameRequest ? compare(sameRequest.blocks, cps) : undefined;
    const raw = yardstick();
    return {
      rows: [
        {
          id: 'concurrency.throughput',
          name: `${opts.inFlight} concurrent calls, 0 ms server: host ÷ ${raw} calls/s (${opts.blocks} blocks × ${opts.rounds} turns × ${opts.callsPerTurn} calls per side)`,
          value: round(c.value, 4),
          unit: '×',
          ci: c.ci,
          aa: c.aa,
          // Against the old host: its calls/s at most 1.05 × the new one's (a throughput, so the bound is on new ÷ old ≥ 1 ÷ 1.05).
          target: { op: '>=', value: old ? round(1 / BASELINE_TARGET, 4) : opts.target },
          detail:
            `host ${c.host.toFixed(0)} calls/s vs ${raw} ${c.raw.toFixed(0)} calls/s (A ${c.rawA.toFixed(0)}, B ${c.rawB.toFixed(0)}); ` +
            `A/A ${fmtCi(c.aa.value, c.aa.ci)}; JSONL audit on; servers ${pinnedCpu() !== undefined ? `pinned to CPU ${pinnedCpu()}` : 'not pinned'}` +
            (old ? '' : `; every host call carries a progressToken, the raw SDK's do not (see the next two rows)`),
        },
        ...(p
          ? [
              {
                id: 'concurrency.progressToken',
                name: `${opts.inFlight} concurrent calls, 0 ms server: raw SDK asking for progress (a progressToken, as every host call) ÷ raw SDK calls/s (${opts.progressBlocks} blocks)`,
                value: round(p.value, 4),
                unit: '×',
                ci: p.ci,
                aa: p.aa,
                detail:
                  `raw SDK with onprogress ${p.host.toFixed(0)} calls/s vs without ${p.raw.toFixed(0)} calls/s; A/A ${fmtCi(p.aa.value, p.aa.ci)}; ` +
                  `the cost of asking for progress with a server that answers at once (its parsing of _meta, the SDK client's progress handler)`,
              },
            ]
          : []),
        ...(same
          ? [
              {
                id: 'concurrency.sameRequest',
                name: `${opts.inFlight} concurrent calls, 0 ms server: host ÷ raw SDK asking for progress, the same request on every side (${opts.sameRequestBlocks} blocks)`,
                value: round(same.value, 4),
                unit: '×',
                ci: same.ci,
                aa: same.aa,
                detail:
                  `host ${same.host.toFixed(0)} calls/s vs raw SDK with onprogress ${same.raw.toFixed(0)} calls/s (raw A ${same.rawA.toFixed(0)}, raw B ${same.rawB.toFixed(0)}); ` +
                  `A/A ${fmtCi(same.aa.value, same.aa.ci)}; what the host's routing, policy and audit cost per call when every side sends a progressToken`,
              },
            ]
          : []),
      ],
      data: {
        options: opts,
        pinnedCpu: pinnedCpu() ?? null,
        callsPerSecond: blocks.map((b) => ({ rawA: round(cps(b.rawA), 1), rawB: round(cps(b.rawB), 1), host: round(cps(b.host), 1) })),
        progressCallsPerSecond: progress?.blocks.map((b) => ({ rawA: round(cps(b.rawA), 1), rawB: round(cps(b.rawB), 1), rawProgress: round(cps(b.host), 1) })) ?? null,
        sameRequestCallsPerSecond: sameRequest?.blocks.map((b) => ({ rawProgressA: round(cps(b.rawA), 1), rawProgressB: round(cps(b.rawB), 1), host: round(cps(b.host), 1) })) ?? null,
      },
    };
  } finally {
    await Promise.all([host.close(), ...oldHosts.map((h) => h.close()), ...raws.map((r) => r.close())]);
    tmp.remove();
  }
}

if (require.main === module) {
  concurrency().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
