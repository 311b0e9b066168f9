/**
 * One call through the gateway (issue 29): an upstream SDK v2 client → `mcp-host serve --stdio`
 * (dist/cli.js: the host's router, policy and audit) → basic.mjs `noop` (a 0 ms tool), against
 * the same client calling an identical basic.mjs directly (raw A and raw B, the A/A pair). Every
 * side is connected once, before the blocks; each round makes `calls` sequential calls per side,
 * in a shuffled order. The figure is the p50 of the per-call latencies, gateway ÷ direct.
 *
 * A second row puts the gateway against the floor of any second hop: a bare SDK stdio proxy
 * (bench/servers/sdkProxy.mjs, two of them for the A/A pair) in front of the same server. The
 * first row is the figure; the second is what the host adds on top of the hop itself.
 * Every server-side process (the gateway, the proxies, every basic.mjs) is started in a session
 * of its own (SETSID), so that on a Linux with scheduler autogroups all get the same CPU share.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { compare, fmtCi, fmtMs, makeTempDir, ratioRow, rotate, serverScript, SETSID, serverCommand, settle, type BenchResult } from './common';
import { basicWorkspace, CLI, cliEnv } from './sustainedSession';

export interface GatewayCallOptions {
  readonly blocks: number;
  readonly rounds: number;
  /** Sequential calls per side and round. */
  readonly calls: number;
  readonly warmup: number;
  readonly target: number;
  readonly seed: number;
}

export const GATEWAY_CALL_DEFAULTS: GatewayCallOptions = { blocks: 20, rounds: 3, calls: 50, warmup: 300, target: 1.25, seed: 29 };

/** What the host may add on top of the hop itself (gateway ÷ bare SDK proxy, p50). */
const OVER_PROXY_TARGET = 1.1;

interface Side {
  readonly client: Client;
  readonly tool: string;
}

async function connect(command: string, args: readonly string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench-upstream', version: '0.0.0' });
  const transport = new StdioClientTransport({ command, args: [...args], env: { ...getDefaultEnvironment(), ...env }, stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined);
  await client.connect(transport);
  return client;
}

async function timedCalls(side: Side, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await side.client.callTool({ name: side.tool, arguments: {} });
    out.push(performance.now() - t0);
    if (r.isError) throw new Error(`${side.tool} failed: ${JSON.stringify(r.content)}`);
  }
  return out;
}

export async function gatewayCall(opts: GatewayCallOptions = GATEWAY_CALL_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('gateway');
  const clients: Client[] = [];
  try {
    const env = cliEnv(join(tmp.dir, 'config'));
    const ws = basicWorkspace(join(tmp.dir, 'ws'), env, 'basic', false);
    const stringEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    // Started as an agent starts it, but in a session of its own like every server here.
    const detached = (command: string, args: readonly string[]) => (SETSID ? ([SETSID, [command, ...args]] as const) : ([command, args] as const));
    const gateway = await connect(...detached(process.execPath, [CLI, 'serve', '--stdio', '--workspace', ws, '--allow-servers']), stringEnv);
    clients.push(gateway);
    const [command, ...args] = serverCommand('basic');
    const server = detached(command, args);
    const direct = () => connect(server[0], server[1], nodeEnv());
    const proxy = () => connect(...detached(process.execPath, [serverScript('sdkProxy'), server[0], ...server[1]]), nodeEnv());
    const [rawA, rawB, proxyA, proxyB] = [await direct(), await direct(), await proxy(), await proxy()];
    clients.push(rawA, rawB, proxyA, proxyB);
    const tool = (await gateway.listTools()).tools.map((t) => t.name).find((n) => n.endsWith('noop'));
    if (!tool) throw new Error('the gateway does not offer basic/noop');
    const side = (client: Client, name = 'noop'): Side => ({ client, tool: name });
    const sides = { rawA: side(rawA), rawB: side(rawB), proxyA: side(proxyA), proxyB: side(proxyB), host: side(gateway, tool) };
    for (const s of Object.values(sides)) await timedCalls(s, opts.warmup);
    const run = (a: Side, b: Side) =>
      rotate(
        { rawA: () => timedCalls(a, opts.calls), rawB: () => timedCalls(b, opts.calls), host: () => timedCalls(sides.host, opts.calls) },
        { blocks: opts.blocks, rounds: opts.rounds, seed: opts.seed, between: () => settle(0) },
      );
    const t = compare((await run(sides.rawA, sides.rawB)).blocks, (rounds) => rounds.flat());
    const p = compare((await run(sides.proxyA, sides.proxyB)).blocks, (rounds) => rounds.flat());
    const shape = `${opts.blocks} blocks × ${opts.rounds} rounds × ${opts.calls} calls`;
    return {
      rows: [
        ratioRow(
          'gateway.call',
          'One call through the gateway (SDK client → mcp-host serve --stdio → 0 ms tool) ÷ the same client calling the server directly, p50',
          t,
          opts.target,
          `gateway ${fmtMs(t.host)} vs direct ${fmtMs(t.raw)} (raw A ${fmtMs(t.rawA)}, raw B ${fmtMs(t.rawB)}) p50 per call, ${shape}; A/A ${fmtCi(t.aa.value, t.aa.ci)}`,
        ),
        ratioRow(
          'gateway.overProxy',
          'The same call through the gateway ÷ through a bare SDK stdio proxy (the second hop alone: no router, policy or audit), p50',
          p,
          OVER_PROXY_TARGET,
          `gateway ${fmtMs(p.host)} vs SDK proxy ${fmtMs(p.raw)} (proxy A ${fmtMs(p.rawA)}, proxy B ${fmtMs(p.rawB)}) p50 per call, ${shape}; A/A ${fmtCi(p.aa.value, p.aa.ci)}`,
        ),
      ],
      data: { options: opts, medians: { host: t.host, rawA: t.rawA, rawB: t.rawB, proxyA: p.rawA, proxyB: p.rawB, hostVsProxy: p.host } },
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    tmp.remove();
  }
}

