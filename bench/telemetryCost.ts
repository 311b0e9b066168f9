/**
 * Telemetry cost: what the OpenTelemetry export (mcpHost.telemetry.otlpEndpoint) adds to a tool
 * call. Sequential no-op calls (`basic__noop`, auto-approved, in-process server over the SDK's
 * InMemoryTransport so the server is not the noise) through McpHost.call, on four hosts in one process:
 *
 *   off        no telemetry
 *   control    no telemetry either: its p50 / off is the noise floor of the comparison
 *   live       exporting to a collector on 127.0.0.1 that answers 200
 *   dead       exporting to a closed port on 127.0.0.1 (ECONNREFUSED: the exporter retries with backoff)
 *   blackhole  exporting to a port that accepts and never answers (every export times out)
 *
 * The event loop gets a turn before each call (outside the measured time). Blocks of calls rotate which side goes first; the export's background work (batches, retries,
 * timeouts) runs in the same event loop during every side's blocks, so what differs between sides
 * is the per-call cost on the call path. Standalone: `npx tsx bench/telemetryCost.ts`; as a module,
 * `telemetryCost(options)` returns rows for a table plus the raw numbers.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { McpHost } from '../src/core/host/mcpHost';
import { emptySettings } from '../src/core/settings/hostSettings';
import { TelemetryExport, type TelemetryStats } from '../src/core/telemetry/telemetryExport';
import { nullLogger } from '../src/core/util/logger';
import { basicServer, InMemoryServers } from '../test/fixtures/inMemoryServers';

export interface TelemetryCostOptions {
  readonly blocks: number;
  readonly blockSize: number;
  readonly warmup: number;
}

export const TELEMETRY_COST_DEFAULTS: TelemetryCostOptions = { blocks: 20, blockSize: 200, warmup: 300 };

export interface SideResult {
  readonly side: string;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly mean: number;
  /** p50 of this side / p50 of "off". */
  readonly ratio: number;
  readonly telemetry?: TelemetryStats;
}

export interface TelemetryCostResult {
  /** One row per side: [side, p50 µs, p90 µs, p99 µs, ratio to off, exported/failed/dropped]. */
  readonly rows: readonly (readonly string[])[];
  readonly data: { readonly options: TelemetryCostOptions; readonly sides: readonly SideResult[] };
}

type Side = { readonly name: string; readonly host: McpHost; readonly telemetry?: TelemetryExport };

export async function telemetryCost(opts: TelemetryCostOptions = TELEMETRY_COST_DEFAULTS): Promise<TelemetryCostResult> {
  const collector = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
  const blackhole = net.createServer(() => undefined); // accepts, never answers
  const sockets: net.Socket[] = [];
  blackhole.on('connection', (s) => sockets.push(s));
  await Promise.all([listen(collector), listen(blackhole)]);
  const deadPort = await closedPort();
  const endpoints: Record<string, string | undefined> = {
    off: undefined,
    // A second host without telemetry: its ratio to "off" is the harness's own noise.
    control: undefined,
    live: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    dead: `http://127.0.0.1:${deadPort}`,
    blackhole: `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`,
  };
  const sides: Side[] = [];
  try {
    for (const [name, endpoint] of Object.entries(endpoints)) sides.push(await makeSide(name, endpoint));
    // Between calls the event loop gets a turn (timers, sockets), as it does between a model's tool
    // calls in the editor; without it the export's timers could not run during the loop at all.
    const call = async (s: Side) => {
      await new Promise((r) => setImmediate(r));
      const t0 = performance.now();
      const r = await s.host.call({ name: 'basic__noop', args: {} });
      const dt = performance.now() - t0;
      if (r.outcome !== 'ok') throw new Error(`${s.name}: call ended ${r.outcome}`);
      return dt;
    };
    for (let i = 0; i < opts.warmup; i++) for (const s of sides) await call(s);
    const times: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
    for (let b = 0; b < opts.blocks; b++) {
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(b + k) % sides.length];
        for (let i = 0; i < opts.blockSize; i++) times[s.name].push(await call(s));
      }
    }
    const off = percentile(times.off, 50);
    const results: SideResult[] = sides.map((s) => ({
      side: s.name,
      p50: percentile(times[s.name], 50),
      p90: percentile(times[s.name], 90),
      p99: percentile(times[s.name], 99),
      mean: times[s.name].reduce((a, b) => a + b, 0) / times[s.name].length,
      ratio: percentile(times[s.name], 50) / off,
      ...(s.telemetry ? { telemetry: s.telemetry.stats() } : {}),
    }));
    const us = (ms: number) => (ms * 1000).toFixed(1);
    return {
      rows: [
        ['side', 'p50 µs', 'p90 µs', 'p99 µs', 'p50 / off', 'exported / failed / dropped'],
        ...results.map((r) => [r.side, us(r.p50), us(r.p90), us(r.p99), r.ratio.toFixed(3), r.telemetry ? `${r.telemetry.exported} / ${r.telemetry.failed} / ${r.telemetry.dropped}` : '-']),
      ],
      data: { options: opts, sides: results },
    };
  } finally {
    await Promise.all(sides.map(async (s) => Promise.all([s.host.close(), s.telemetry?.close(1000)])));
    for (const s of sockets) s.destroy();
    collector.closeAllConnections();
    await Promise.all([close(collector), close(blackhole)]);
  }
}

async function makeSide(name: string, endpoint: string | undefined): Promise<Side> {
  const servers = new InMemoryServers({ basic: () => basicServer() });
  const host = new McpHost({
    settings: { ...emptySettings(), servers: [servers.settings('basic')], autoApprove: ['basic/noop'] },
    secrets: { get: async () => undefined },
    confirmer: { confirm: async () => 'deny' },
    logger: nullLogger,
    transports: servers,
  });
  await host.start();
  if (!endpoint) return { name, host };
  const telemetry = new TelemetryExport({ logger: nullLogger, secrets: { get: async () => undefined }, env: {}, serviceVersion: 'bench', snapshot: () => host.snapshot() });
  telemetry.attach(host.onDidRecord);
  await telemetry.configure({ otlpEndpoint: endpoint, headers: {}, captureContent: false });
  return { name, host, telemetry };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function listen(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await listen(s);
  const port = (s.address() as AddressInfo).port;
  await close(s);
  return port;
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  telemetryCost(quick ? { blocks: 4, blockSize: 100, warmup: 100 } : TELEMETRY_COST_DEFAULTS)
    .then((r) => {
      for (const row of r.rows) process.stdout.write(row.map((c, i) => (i === 0 ? c.padEnd(10) : c.padStart(i === 5 ? 28 : 10))).join('  ') + '\n');
      // The dead and blackhole exporters keep retrying in the background for up to their timeout.
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 1;
    });
}
