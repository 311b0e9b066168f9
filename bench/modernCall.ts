/**
 * Calls to a 2026-07-28 server: sequential `echo` calls through the host against SDK v2's own Client
 * (`versionNegotiation: auto`, `StdioClientTransport`), each side to its own process of the same
 * fixture, test/fixtures/servers/modern/server.mjs (SDK v2's server). Rotated like the routing row
 * (raw A, raw B and the host in every round, shuffled), statistic host p50 ÷ raw p50 with its
 * block-bootstrap interval.
 *
 * The fixture runs with FIXTURE_LEGACY=serve (it also accepts the 2025 `initialize` handshake), so a
 * host that only speaks 2025-11-25 still connects; the row says which revision each side negotiated,
 * read from each server's own FIXTURE_LOG (an `initialize` there means the 2025 era). It is judged
 * only when both sides spoke 2026-07-28; otherwise it is an info row that says why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { compare, fmtCi, fmtMs, fmtSigned, makeTempDir, pinnedCpu, rotate, serverCommand, serverSpec, SETSID, settle, type BenchResult } from './common';
import { createHostUnderTest } from './hostUnderTest';
import { round } from './stats';

export interface ModernCallOptions {
  readonly blocks: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly target: number;
  readonly seed: number;
}

export const MODERN_CALL_DEFAULTS: ModernCallOptions = {
  blocks: Number(process.env.BENCH_MODERN_BLOCKS ?? 20),
  rounds: Number(process.env.BENCH_MODERN_ROUNDS ?? 100),
  // As the routing row: V8 optimises the host's per-call code only after ~2,500–3,000 calls (the raw
  // pair shares its SDK code and warms in half the calls); with 2000 the blocks measured that warm-up.
  warmup: Number(process.env.BENCH_MODERN_WARMUP ?? 5000),
  target: 1.05,
  seed: 7,
};

const SERVER = 'modern/server';
const MODERN = '2026-07-28';

/** The revision a fixture process negotiated, from its FIXTURE_LOG: the 2025 era logs its `initialize`. */
function negotiated(logFile: string): string {
  let lines: { event?: string; protocolVersion?: string }[];
  try {
    lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return 'unknown (no fixture log)';
  }
  if (!lines.some((l) => l.event === 'handled')) return 'unknown (no call reached the server)';
  const init = lines.find((l) => l.event === 'initialize');
  return init ? String(init.protocolVersion) : MODERN;
}

/** SDK v2's Client negotiating `auto` with its own stdio transport, to a pinned fixture process. */
async function connectModernRaw(env: Record<string, string>) {
  const command = serverCommand(SERVER, true);
  const transport = new StdioClientTransport({
    command: SETSID ?? command[0],
    args: SETSID ? command : command.slice(1),
    env: { ...getDefaultEnvironment(), ...nodeEnv(), ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-raw-v2', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  await client.listTools();
  return client;
}

export async function modernCall(opts: ModernCallOptions = MODERN_CALL_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('modern');
  const log = (side: string) => join(tmp.dir, `${side}.jsonl`);
  const env = (side: string) => ({ FIXTURE_LEGACY: 'serve', FIXTURE_LOG: log(side) });
  const host = createHostUnderTest([serverSpec('modern', SERVER, env('host'), true)]);
  const raws: Client[] = [];
  try {
    await host.start();
    host.approveDefinitions();
    raws.push(await connectModernRaw(env('rawA')), await connectModernRaw(env('rawB')));
    const name = 'modern__echo';
    if (!host.toolNames().includes(name)) throw new Error(`host has no tool ${name}: ${host.toolNames().join(', ')}`);

    let notOk = 0;
    const args = { text: 'bench' };
    const hostCall = async () => {
      const t0 = performance.now();
      const r = await host.call(name, args);
      const dt = performance.now() - t0;
      if (r.outcome !== 'ok') notOk++;
      return dt;
    };
    const rawCall = (client: Client) => async () => {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'echo', arguments: args });
      const dt = performance.now() - t0;
      if (r.isError) notOk++;
      return dt;
    };
    const sides = { rawA: rawCall(raws[0]), rawB: rawCall(raws[1]), host: hostCall };
    await rotate(sides, { blocks: Math.max(1, Math.ceil(opts.warmup / opts.rounds)), rounds: opts.rounds, seed: opts.seed + 1000 });
    await settle(20);
    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed });
    if (notOk) throw new Error(`${notOk} calls did not return ok`);

    const eras = { host: negotiated(log('host')), rawA: negotiated(log('rawA')), rawB: negotiated(log('rawB')) };
    const comparable = eras.host === MODERN && eras.rawA === MODERN && eras.rawB === MODERN;
    const p50 = compare(blocks, (calls) => calls);
    const perSide = opts.blocks * opts.rounds;
    const pin = pinnedCpu();
    return {
      rows: [
        {
          id: 'modern.p50',
          name: comparable
            ? `Calls to a ${MODERN} server, p50 host ÷ raw SDK v2 client (${perSide} sequential echo calls per side)`
            : `Calls to a ${MODERN} server, p50 host ÷ raw SDK v2 client — not comparable: the host negotiated ${eras.host}`,
          value: round(p50.value, 4),
          unit: '×',
          ci: p50.ci,
          aa: p50.aa,
          ...(comparable ? { target: { op: '<=' as const, value: opts.target } } : {}),
          detail:
            `negotiated: host ${eras.host}, raw A ${eras.rawA}, raw B ${eras.rawB}; ` +
            `host p50 ${fmtMs(p50.host)} vs raw SDK v2 ${fmtMs(p50.raw)} (${fmtSigned(p50.host - p50.raw, fmtMs)}/call); A/A ${fmtCi(p50.aa.value, p50.aa.ci)}; ` +
            `${opts.blocks} blocks of ${opts.rounds} rounds after ${opts.warmup} warm-up calls per side; servers ${pin !== undefined ? `pinned to CPU ${pin}` : 'not pinned'}` +
            (comparable ? '' : '; judged once the host speaks the modern revision'),
        },
      ],
      data: { options: opts, eras, pinnedCpu: pin ?? null, p50: { host: round(p50.host, 5), raw: round(p50.raw, 5), rawA: round(p50.rawA, 5), rawB: round(p50.rawB, 5) } },
    };
  } finally {
    await Promise.all([host.close(), ...raws.map((c) => c.close())]);
    tmp.remove();
  }
}

if (require.main === module) {
  modernCall().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
