/**
 * 2. Concurrency: 64 calls in flight at once (basic.mjs `wait {ms: 20}`), host vs raw SDK.
 * Each repetition keeps 64 calls in flight until `callsPerRep` calls have finished (64 workers, each
 * calling again as soon as its previous call returns); throughput = calls / wall time.
 * Phases of alternating pairs (which side goes first alternates too), so the two sides compared
 * always get the same share of the time:
 *   A (the target)  host vs raw SDK (JSONL audit as shipped, JsonlFileSink).
 *   B (attribution) the same host with no audit sink vs raw.
 * Both server processes are pinned to the same CPU (see pinnedCpu in common.ts).
 */
import { join } from 'node:path';
import { JsonlFileSink, type AuditSink } from '../src/core/audit/auditLog';
import { connectRaw, createHost, fixtureServer, hostSettings, makeTempDir, pinnedCpu, settle, type BenchResult } from './common';
import { median, round, summarize } from './stats';

export interface ConcurrencyOptions {
  readonly inFlight: number;
  readonly waitMs: number;
  readonly callsPerRep: number;
  /** Pairs in each phase. */
  readonly reps: number;
  readonly target: number;
}

export const CONCURRENCY_DEFAULTS: ConcurrencyOptions = { inFlight: 64, waitMs: 20, callsPerRep: 640, reps: 8, target: 0.9 };

type Audit = 'shipped' | 'none';

export async function concurrency(opts: ConcurrencyOptions = CONCURRENCY_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('concurrency');
  const auditPath = join(tmp.dir, 'audit.jsonl');
  const settings = hostSettings([fixtureServer('basic', 'basic', {}, true)], { autoApprove: ['basic/*'] });
  const host = createHost(settings, auditPath);
  const sinksFor: Record<Audit, AuditSink[]> = { shipped: [new JsonlFileSink(auditPath)], none: [] };
  let raw: Awaited<ReturnType<typeof connectRaw>> | undefined;
  try {
    await host.start();
    raw = await connectRaw('basic', {}, true);
    const client = raw.client;
    const args = { ms: opts.waitMs };
    let bad = 0;
    const hostCall = async () => {
      const r = await host.call({ name: 'basic__wait', args });
      if (r.outcome !== 'ok') bad++;
    };
    const rawCall = async () => {
      const r = await client.callTool({ name: 'wait', arguments: args });
      if (r.isError) bad++;
    };

    let maxInFlight = 0;
    /** One repetition: `inFlight` workers until `total` calls are done. Returns calls/s. */
    const rep = async (call: () => Promise<void>, total: number): Promise<number> => {
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
      return (total / (performance.now() - t0)) * 1000;
    };
    const hostRep = async (audit: Audit, total: number) => {
      host.audit.setSinks(sinksFor[audit]);
      try {
        return await rep(hostCall, total);
      } finally {
        host.audit.setSinks(sinksFor.shipped);
      }
    };
    const pairs = async (audit: Audit, n: number) => {
      const hostTp: number[] = [];
      const rawTp: number[] = [];
      for (let i = 0; i < n; i++) {
        for (const side of i % 2 === 0 ? ['host', 'raw'] : ['raw', 'host']) {
          if (side === 'host') hostTp.push(await hostRep(audit, opts.callsPerRep));
          else rawTp.push(await rep(rawCall, opts.callsPerRep));
          await settle(5);
        }
      }
      return { hostTp, rawTp, ratios: hostTp.map((h, i) => h / rawTp[i]), ratio: median(hostTp) / median(rawTp) };
    };

    // Warm-up: one short repetition of each.
    for (const audit of ['shipped', 'none'] as const) await hostRep(audit, opts.inFlight * 2);
    await rep(rawCall, opts.inFlight * 2);
    await settle(20);

    const a = await pairs('shipped', opts.reps);
    const b = await pairs('none', opts.reps);
    if (bad) throw new Error(`${bad} calls did not return ok`);
    if (maxInFlight !== opts.inFlight) throw new Error(`expected ${opts.inFlight} calls in flight, saw ${maxInFlight}`);

    const h = median(a.hostTp);
    const r = median(a.rawTp);
    const ideal = (opts.inFlight / opts.waitMs) * 1000;
    const pr = summarize(a.ratios);
    return {
      rows: [
        {
          id: 'concurrency.throughput',
          name: `Concurrency: ${opts.inFlight} in flight, wait ${opts.waitMs} ms, throughput (median of ${opts.reps} reps × ${opts.callsPerRep} calls)`,
          value: round(a.ratio, 3),
          unit: 'host/raw',
          target: `≥ ${opts.target}`,
          pass: a.ratio >= opts.target,
          detail:
            `host ${h.toFixed(0)} calls/s vs raw SDK ${r.toFixed(0)} calls/s (ideal ${ideal.toFixed(0)}); per-pair ratios ${pr.min.toFixed(3)}–${pr.max.toFixed(3)}; ` +
            `the same host with no audit sink: ${b.ratio.toFixed(3)}× raw (${median(b.hostTp).toFixed(0)} vs ${median(b.rawTp).toFixed(0)} calls/s)`,
        },
      ],
      data: {
        options: opts,
        pinnedCpu: pinnedCpu() ?? null,
        hostThroughput: a.hostTp.map((x) => round(x, 1)),
        rawThroughput: a.rawTp.map((x) => round(x, 1)),
        pairRatios: a.ratios.map((x) => round(x, 4)),
        medianRatio: round(a.ratio, 4),
        withoutAudit: { host: b.hostTp.map((x) => round(x, 1)), raw: b.rawTp.map((x) => round(x, 1)), ratio: round(b.ratio, 4) },
        idealThroughput: ideal,
      },
    };
  } finally {
    await Promise.all([host.dispose(), raw?.close()]);
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
