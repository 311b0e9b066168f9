/**
 * What the SDK itself costs per call: SDK v2's Client (`@modelcontextprotocol/client`, which the
 * host uses since issue 27) against SDK 1.x's Client (`@modelcontextprotocol/sdk`, which it used
 * before), each over its own StdioClientTransport to its own basic.mjs process (pinned like the
 * routing row), sequential `noop` calls rotated in shuffled rounds: raw 1.x A and B are the A/A pair,
 * v2 the third side. Info row: where the host's routing row against the old host (--baseline)
 * comes from. Profiled (--cpu-prof), SDK v2 checks every incoming message against zod schemas
 * (Protocol's onmessage: isJSONRPCResultResponse, then the result schema) and arms a timer per
 * request; the old host's own tool-call path (DirectToolCalls, removed by issue 27) skipped both.
 */
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { compare, connectRaw, fmtCi, fmtMs, fmtSigned, pinnedCpu, rotate, serverCommand, SETSID, type BenchResult, type RawClient } from './common';
import { round } from './stats';

export interface SdkCostOptions {
  readonly blocks: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly seed: number;
}

export const SDK_COST_DEFAULTS: SdkCostOptions = { blocks: 30, rounds: 200, warmup: 5000, seed: 12 };

/** SDK v2's Client over its own StdioClientTransport to a pinned basic.mjs (the legacy handshake, as the host with that server). */
async function connectV2(): Promise<Client> {
  const command = serverCommand('basic', true);
  const transport = new StdioClientTransport({
    command: SETSID ?? command[0],
    args: SETSID ? command : command.slice(1),
    env: { ...getDefaultEnvironment(), ...nodeEnv() },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-raw-v2', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

export async function sdkCost(opts: SdkCostOptions = SDK_COST_DEFAULTS): Promise<BenchResult> {
  const v1: RawClient[] = [];
  let v2: Client | undefined;
  try {
    v1.push(await connectRaw('basic', { pin: true }), await connectRaw('basic', { pin: true }));
    v2 = await connectV2();
    let bad = 0;
    const timed = (call: () => Promise<unknown>) => async () => {
      const t0 = performance.now();
      const r = (await call()) as { isError?: boolean };
      const dt = performance.now() - t0;
      if (r.isError) bad++;
      return dt;
    };
    const client = v2;
    const sides = {
      rawA: timed(() => v1[0].client.callTool({ name: 'noop', arguments: {} })),
      rawB: timed(() => v1[1].client.callTool({ name: 'noop', arguments: {} })),
      host: timed(() => client.callTool({ name: 'noop', arguments: {} })),
    };
    await rotate(sides, { blocks: Math.max(1, Math.ceil(opts.warmup / opts.rounds)), rounds: opts.rounds, seed: opts.seed + 1000 });
    const { blocks } = await rotate(sides, { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed });
    if (bad) throw new Error(`${bad} calls returned isError`);
    const c = compare(blocks, (t) => t);
    const pin = pinnedCpu();
    return {
      rows: [
        {
          id: 'sdk.v2OverV1',
          name: `SDK cost: raw SDK v2 client ÷ raw SDK 1.x client, p50 of sequential noop calls (${opts.blocks * opts.rounds} per side)`,
          value: round(c.value, 4),
          unit: '×',
          ci: c.ci,
          aa: c.aa,
          detail:
            `SDK v2 p50 ${fmtMs(c.host)} vs SDK 1.x ${fmtMs(c.raw)} (${fmtSigned(c.host - c.raw, fmtMs)}/call; 1.x A ${fmtMs(c.rawA)}, B ${fmtMs(c.rawB)}); A/A ${fmtCi(c.aa.value, c.aa.ci)}; ` +
            `${opts.blocks} blocks of ${opts.rounds} rounds after ${opts.warmup} warm-up calls per side; servers ${pin !== undefined ? `pinned to CPU ${pin}` : 'not pinned'}; ` +
            'no host on either side: what the move to SDK v2 costs any client per call',
        },
      ],
      data: { options: opts, p50: { v2: round(c.host, 5), v1: round(c.raw, 5), v1A: round(c.rawA, 5), v1B: round(c.rawB, 5) } },
    };
  } finally {
    await Promise.all([...v1.map((r) => r.close()), v2?.close()]);
  }
}

if (require.main === module) {
  sdkCost().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
