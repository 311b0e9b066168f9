/**
 * 1. Routing overhead: sequential no-op calls through McpHost.call (lookup, role check, argument
 * validation, policy = autoApprove, tools/call, result conversion, JSONL audit) against the raw SDK
 * Client.callTool over its own StdioClientTransport to an identical basic.mjs process.
 *
 * Phases, each interleaved in blocks that alternate which side goes first, after a warm-up:
 *   A (the target)   host vs raw SDK.
 *   B (attribution)  on the host's own server process only: its transport alone
 *                    (ServerConnection.callTool), its router with no audit sink, and the full call
 *                    as shipped (JSONL audit through JsonlFileSink).
 *   C (control)      the host's bare transport vs raw: two equivalent paths, so ≈ 1 unless the
 *                    harness itself is biased.
 * Both server processes are pinned to the same CPU (see pinnedCpu in common.ts).
 * A comparison only ever pairs two sides that get the same share of calls: a server process that
 * sits idle while another one is busy answers more slowly, which would bias the ratio.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlFileSink, type AuditSink } from '../src/core/audit/auditLog';
import { connectRaw, createHost, fixtureServer, fmtMs, hostSettings, makeTempDir, pinnedCpu, settle, type BenchResult } from './common';
import { round, summarize, type Summary } from './stats';

export interface RoutingOptions {
  readonly blocks: number;
  readonly blockSize: number;
  readonly warmup: number;
  /** Blocks of phases B and C. */
  readonly extraBlocks: number;
  readonly target: number;
}

export const ROUTING_DEFAULTS: RoutingOptions = { blocks: 20, blockSize: 100, warmup: 300, extraBlocks: 10, target: 1.05 };

type Call = () => Promise<number>;

/** Runs `blocks` blocks of `size` calls of every side, rotating which side goes first. */
async function interleave(sides: Record<string, Call>, blocks: number, size: number): Promise<{ times: Record<string, number[]>; blockP50: Record<string, number>[] }> {
  const names = Object.keys(sides);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const blockP50: Record<string, number>[] = [];
  for (let b = 0; b < blocks; b++) {
    const order = names.map((_, i) => names[(i + b) % names.length]);
    const p50: Record<string, number> = {};
    for (const name of order) {
      const block: number[] = [];
      for (let i = 0; i < size; i++) block.push(await sides[name]());
      times[name].push(...block);
      p50[name] = summarize(block).p50;
    }
    blockP50.push(p50);
  }
  return { times, blockP50 };
}

export async function routingOverhead(opts: RoutingOptions = ROUTING_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('routing');
  const auditPath = join(tmp.dir, 'audit.jsonl');
  const settings = hostSettings([fixtureServer('basic', 'basic', {}, true)], { autoApprove: ['basic/*'] });
  const host = createHost(settings, auditPath);
  let raw: Awaited<ReturnType<typeof connectRaw>> | undefined;
  try {
    await host.start();
    raw = await connectRaw('basic', {}, true);
    const name = 'basic__noop';
    if (!host.registry.lookup(name)) throw new Error(`host has no tool ${name}: ${host.registry.entries().map((e) => e.name).join(', ')}`);

    let notOk = 0;
    // The host's audit sinks per side: as shipped (the file sink it builds for its audit path) or none.
    const shippedSinks: AuditSink[] = [new JsonlFileSink(auditPath)];
    const sinksFor = { shipped: shippedSinks, none: [] as AuditSink[] };
    const call = (audit: keyof typeof sinksFor): Call => async () => {
      host.audit.setSinks(sinksFor[audit]);
      const t0 = performance.now();
      const r = await host.call({ name, args: {} });
      const dt = performance.now() - t0;
      if (r.outcome !== 'ok' || r.confirmedBy !== 'policy') notOk++;
      return dt;
    };
    const client = raw.client;
    const rawCall: Call = async () => {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'noop', arguments: {} });
      const dt = performance.now() - t0;
      if (r.isError) notOk++;
      return dt;
    };
    const connection = host.connection('basic')!;
    const transportCall: Call = async () => {
      const t0 = performance.now();
      const r = await connection.callTool('noop', {}, { timeoutMs: settings.timeoutMs });
      const dt = performance.now() - t0;
      if (r.isError) notOk++;
      return dt;
    };

    const sides = { host: call('shipped'), raw: rawCall, noAudit: call('none'), transport: transportCall };
    for (const f of Object.values(sides)) for (let i = 0; i < opts.warmup; i++) await f();
    await settle(20);

    // A: the target.
    const a = await interleave({ host: sides.host, raw: rawCall }, opts.blocks, opts.blockSize);
    // B: attribution on the host's own server process.
    const b = await interleave({ transport: transportCall, noAudit: sides.noAudit, host: sides.host }, opts.extraBlocks, opts.blockSize);
    // C: control. The host's bare transport against raw, set up alike: ≈ 1 unless the harness is biased.
    const c = await interleave({ transport: transportCall, raw: rawCall }, opts.extraBlocks, opts.blockSize);
    host.audit.setSinks(shippedSinks);
    if (notOk) throw new Error(`${notOk} calls did not return ok`);

    const auditLines = readFileSync(auditPath, 'utf8').split('\n').filter(Boolean).length;
    const expectedLines = opts.warmup + (opts.blocks + opts.extraBlocks) * opts.blockSize;
    if (auditLines !== expectedLines) throw new Error(`audit has ${auditLines} lines, expected ${expectedLines}`);

    const h = summarize(a.times.host);
    const r = summarize(a.times.raw);
    const ratio = h.p50 / r.p50;
    const p99Ratio = h.p99 / r.p99;
    const br = summarize(a.blockP50.map((x) => x.host / x.raw));
    const ct = summarize(b.times.transport);
    const cn = summarize(b.times.noAudit);
    const ch = summarize(b.times.host);
    const ctlTransport = summarize(c.times.transport);
    const ctlRaw = summarize(c.times.raw);
    return {
      rows: [
        {
          id: 'routing.p50',
          name: `Routing overhead, p50 per call (${a.times.host.length} sequential noop calls each side)`,
          value: round(ratio, 3),
          unit: '× raw',
          target: `≤ ${opts.target}`,
          pass: ratio <= opts.target,
          detail: `host p50 ${fmtMs(h.p50)} vs raw SDK p50 ${fmtMs(r.p50)} (+${fmtMs(h.p50 - r.p50)}/call); per-block p50 ratios ${br.min.toFixed(3)}–${br.max.toFixed(3)}, median ${br.p50.toFixed(3)}`,
        },
        {
          id: 'routing.p99',
          name: 'Routing overhead, p99 per call',
          value: round(p99Ratio, 3),
          unit: '× raw',
          target: 'report',
          detail: `host p99 ${fmtMs(h.p99)} vs raw SDK p99 ${fmtMs(r.p99)}`,
        },
        {
          id: 'routing.breakdown',
          name: 'Routing cost by layer, p50 per call on the host’s own server process',
          value: round((ch.p50 - cn.p50) * 1000, 1),
          unit: 'µs/call for the audit',
          target: 'report',
          detail:
            `transport alone (ServerConnection.callTool) ${fmtMs(ct.p50)}; + router without audit (lookup, role, validation, policy, conversion) ` +
            `${fmtMs(cn.p50)} (+${fmtMs(cn.p50 - ct.p50)}); + JSONL audit as shipped (JsonlFileSink: one synchronous O_APPEND write per record) ` +
            `${fmtMs(ch.p50)} (+${fmtMs(ch.p50 - cn.p50)})`,
        },
        {
          id: 'routing.control',
          name: 'Harness control: the host’s bare transport (ServerConnection.callTool) vs raw SDK, p50',
          value: round(ctlTransport.p50 / ctlRaw.p50, 3),
          unit: '× raw',
          target: 'report (≈ 1)',
          detail: `${fmtMs(ctlTransport.p50)} vs ${fmtMs(ctlRaw.p50)}: how far two equivalent paths differ in this run${pinnedCpu() !== undefined ? ` (both servers pinned to CPU ${pinnedCpu()})` : ' (servers not pinned)'}`,
        },
      ],
      data: {
        options: opts,
        host: roundSummary(h),
        raw: roundSummary(r),
        p50Ratio: round(ratio, 4),
        p99Ratio: round(p99Ratio, 4),
        blockP50Ratios: a.blockP50.map((x) => round(x.host / x.raw, 4)),
        attribution: { transport: roundSummary(ct), routerWithoutAudit: roundSummary(cn), full: roundSummary(ch) },
        control: { transport: roundSummary(ctlTransport), raw: roundSummary(ctlRaw) },
        pinnedCpu: pinnedCpu() ?? null,
        auditLines,
      },
    };
  } finally {
    await Promise.all([host.dispose(), raw?.close()]);
    tmp.remove();
  }
}

export function roundSummary(s: Summary): Record<string, number> {
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === 'n' ? v : round(v, 4)]));
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
