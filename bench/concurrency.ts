/**
 * Concurrency: 64 calls in flight at once to a 0 ms server (basic.mjs `noop`: a 20 ms wait would
 * hide the per-call cost), host vs raw SDK. One side's turn keeps 64 calls in flight until
 * `callsPerTurn` calls have finished (64 workers, each calling again as soon as its call returns).
 * A block is `rounds` rounds in which raw A, raw B (A/A) and the host each have one turn, in a
 * shuffled order; a side's figure for the block is its calls over its turns' wall time.
 * Statistic: median host calls/s ÷ median raw calls/s (raw A and B pooled), block-bootstrap
 * 95 % interval. Server processes pinned to one CPU as in the routing row; audit file on.
 * 60 blocks: with 30, two identical raw clients differed by up to ±7 % between blocks (A/A
 * [0.935, 1.071]), and the row's interval stayed that wide whatever the host's own figure.
 */
import { join } from 'node:path';
import { compare, connectRaw, fmtCi, makeTempDir, pinnedCpu, rotate, serverSpec, settle, type BenchResult, type RawClient } from './common';
import { createHostUnderTest } from './hostUnderTest';
import { round } from './stats';

export interface ConcurrencyOptions {
  readonly inFlight: number;
  readonly callsPerTurn: number;
  /** Rounds per block; in each round every side has one turn, sides in a shuffled order. */
  readonly rounds: number;
  readonly blocks: number;
  readonly target: number;
  readonly seed: number;
}

export const CONCURRENCY_DEFAULTS: ConcurrencyOptions = {
  inFlight: 64,
  callsPerTurn: Number(process.env.BENCH_CONC_TURN ?? 640),
  rounds: Number(process.env.BENCH_CONC_ROUNDS ?? 10),
  blocks: 60,
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
  try {
    await host.start();
    host.approveDefinitions();
    raws.push(await connectRaw('basic', { pin: true }), await connectRaw('basic', { pin: true }));
    let bad = 0;
    const hostCall = async () => {
      const r = await host.call('basic__noop', {});
      if (r.outcome !== 'ok') bad++;
    };
    const rawCall = (raw: RawClient) => async () => {
      const r = await raw.client.callTool({ name: 'noop', arguments: {} });
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
    const calls = { rawA: rawCall(raws[0]), rawB: rawCall(raws[1]), host: hostCall };
    for (const c of Object.values(calls)) await turn(c, opts.inFlight * 4)();
    await settle(20);

    const sides = { rawA: turn(calls.rawA, opts.callsPerTurn), rawB: turn(calls.rawB, opts.callsPerTurn), host: turn(calls.host, opts.callsPerTurn) };
    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed, between: () => settle(1) });
    if (bad) throw new Error(`${bad} calls did not return ok`);
    if (maxInFlight !== opts.inFlight) throw new Error(`expected ${opts.inFlight} calls in flight, saw ${maxInFlight}`);

    /** A side's calls/s in a block: its calls over the time its turns took. */
    const cps = (turns: readonly TurnResult[]) => (turns.reduce((n, t) => n + t.calls, 0) / turns.reduce((n, t) => n + t.ms, 0)) * 1000;
    const c = compare(blocks, cps);
    return {
      rows: [
        {
          id: 'concurrency.throughput',
          name: `${opts.inFlight} concurrent calls, 0 ms server: host ÷ raw SDK calls/s (${opts.blocks} blocks × ${opts.rounds} turns × ${opts.callsPerTurn} calls per side)`,
          value: round(c.value, 4),
          unit: '×',
          ci: c.ci,
          aa: c.aa,
          target: { op: '>=', value: opts.target },
          detail:
            `host ${c.host.toFixed(0)} calls/s vs raw SDK ${c.raw.toFixed(0)} calls/s (raw A ${c.rawA.toFixed(0)}, raw B ${c.rawB.toFixed(0)}); ` +
            `A/A ${fmtCi(c.aa.value, c.aa.ci)}; JSONL audit on; servers ${pinnedCpu() !== undefined ? `pinned to CPU ${pinnedCpu()}` : 'not pinned'}`,
        },
      ],
      data: {
        options: opts,
        pinnedCpu: pinnedCpu() ?? null,
        callsPerSecond: blocks.map((b) => ({ rawA: round(cps(b.rawA), 1), rawB: round(cps(b.rawB), 1), host: round(cps(b.host), 1) })),
      },
    };
  } finally {
    await Promise.all([host.close(), ...raws.map((r) => r.close())]);
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
