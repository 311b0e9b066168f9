/**
 * Sustained session: 20,000 sequential calls through `mcp-host session` (dist/cli.js, a real
 * process driven over stdin/stdout) against the raw SDK in a comparable loop: the same JSON-lines
 * session, same driver, same pipes, but the SDK's Client doing the call (bench/clients/rawSession.mjs).
 * Three long-lived session processes (raw A, raw B, host), pinned to one CPU (see sessionCpu), each
 * with its own basic.mjs server (pinned to the other CPU); a block is 500 rounds, each round one
 * call to every session, in an order shuffled per round; a side's calls/s in a block is its calls
 * over the time they took.
 * After each block, outside the timed calls, every session process runs a full GC (SIGUSR2 to the
 * preloaded bench/clients/gcOnSignal.cjs) and its VmRSS is read from /proc/<pid>/status.
 *
 * Rows:
 * - calls/s: median host ÷ median raw (A and B pooled) of the per-block calls/s; A/A raw B ÷ raw A.
 * - drift: the host's calls/s relative to raw in the same blocks (so a machine that gets busier later
 *   does not count as the host slowing down), last quarter of the run ÷ first quarter, read off the
 *   least-squares trend of its logarithm over all blocks: exp(slope × the blocks between the two
 *   quarters' middles). Comparing the medians of the first and last 10 blocks used a quarter of the
 *   data each and swung with single blocks (0.92 [0.90, 1.03] where the trend of the same blocks
 *   says 0.965 [0.928, 1.007]; bench/results.json of 60b2571). Interval: blocks resampled with
 *   their position. The A/A figure is the same for raw B relative to raw A.
 * - RSS growth: least-squares slope of the host session's RSS after GC, less V8's young generation
 *   (whose capacity V8 doubles once on its own, not a leak), over the calls made × the calls in
 *   the run; interval by resampling blocks. End − start is in the detail, with raw's.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseline, BASELINE_TARGET, yardstick } from './baseline';
import { compare, fmtCi, fmtMB, makeTempDir, onCpu, pinnedCpu, rotate, ROOT, sessionCpu, SETSID, serverCommand, settle, type BenchResult, type Block } from './common';
import { LineSession } from './lineSession';
import { blockBootstrap, median, round, slope } from './stats';
import { nodeEnv } from '../test/fixtures/fixtureServers';

export interface SustainedOptions {
  readonly totalCalls: number;
  readonly blocks: number;
  readonly warmup: number;
  readonly ratioTarget: number;
  readonly driftTarget: number;
  readonly rssTargetMB: number;
  readonly seed: number;
}

export const SUSTAINED_DEFAULTS: SustainedOptions = { totalCalls: 20_000, blocks: 40, warmup: 1000, ratioTarget: 0.9, driftTarget: 0.95, rssTargetMB: 10, seed: 3 };

interface Memory {
  /** VmRSS after a full GC, bytes. */
  readonly rss: number;
  /** V8's young generation after that GC, bytes. */
  readonly newSpace: number;
}

export const CLI = join(ROOT, 'dist', 'cli.js');

/**
 * The environment of every `mcp-host` process a benchmark starts: consent answers (MCP_HOST_CONFIG_DIR)
 * and credentials go under `configDir`, never to the user's ~/.config.
 */
export function cliEnv(configDir: string): NodeJS.ProcessEnv {
  return { ...process.env, ...nodeEnv(), MCP_HOST_CONFIG_DIR: configDir, MCP_HOST_CREDENTIALS_FILE: join(configDir, 'credentials.json') };
}

/**
 * A workspace as a team would have it after a first review: settings, and the lockfile `mcp-host lock`
 * wrote (mcpHost.pinning is "review", the default, so every listing is checked against it). Commands
 * then run with `--yes`: no terminal to ask for consent before a server's first start.
 */
export function reviewedWorkspace(dir: string, settings: Record<string, unknown>, env: NodeJS.ProcessEnv, cli = CLI): string {
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  execFileSync(process.execPath, [cli, 'lock', '--workspace', dir, '--yes'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return dir;
}

/** A reviewed workspace whose settings run one basic.mjs server with every tool auto-approved. */
export function basicWorkspace(dir: string, env: NodeJS.ProcessEnv, server = 'basic', pin = true, cli = CLI): string {
  const [command, ...args] = serverCommand(server, pin);
  return reviewedWorkspace(dir, { 'mcpHost.servers': { [server]: { command, args, env: nodeEnv() } }, 'mcpHost.autoApprove': [`${server}/*`] }, env, cli);
}

export async function sustainedSession(opts: SustainedOptions = SUSTAINED_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('session');
  const callsPerBlock = Math.round(opts.totalCalls / opts.blocks);
  const env = cliEnv(join(tmp.dir, 'config'));
  const workspace = basicWorkspace(join(tmp.dir, 'ws'), env);
  const rawSpec = () => {
    const cmd = serverCommand('basic', true);
    return JSON.stringify({ command: SETSID ?? cmd[0], args: SETSID ? cmd : cmd.slice(1), env: nodeEnv() });
  };
  // Every session process, host and raw alike, gets the GC-on-signal preload (see gcOnSignal.cjs).
  const pre = ['--expose-gc', '--require', join(__dirname, 'clients', 'gcOnSignal.cjs')];
  const cpu = sessionCpu();
  const session = (args: readonly string[], e = env) => new LineSession(...onCpu(cpu, process.execPath, [...pre, ...args]), e);
  // --baseline: the A/A pair is two old `mcp-host session`s, each with its own workspace reviewed by its own CLI (see baseline.ts).
  const old = baseline();
  const oldSession = (cli: string, ab: string) => {
    const oldEnv = cliEnv(join(tmp.dir, `config-old${ab}`));
    const ws = basicWorkspace(join(tmp.dir, `ws-old${ab}`), oldEnv, 'basic', true, cli);
    return session([cli, 'session', '--workspace', ws, '--yes', '--audit', join(tmp.dir, `audit-old${ab}.jsonl`)], oldEnv);
  };
  const sessions = {
    rawA: old ? oldSession(old.cli, 'A') : session([join(__dirname, 'clients', 'rawSession.mjs'), rawSpec()]),
    rawB: old ? oldSession(old.cli, 'B') : session([join(__dirname, 'clients', 'rawSession.mjs'), rawSpec()]),
    host: session([CLI, 'session', '--workspace', workspace, '--yes', '--audit', join(tmp.dir, 'audit.jsonl')]),
  };
  const raw = yardstick('raw SDK session');
  type SessionSide = keyof typeof sessions;
  const memory = async (): Promise<Record<SessionSide, Memory>> => {
    const out = {} as Record<SessionSide, Memory>;
    for (const side of ['rawA', 'rawB', 'host'] as const) {
      const m = await sessions[side].collect();
      if (!m) throw new Error(`the ${side} session did not answer the GC signal`);
      out[side] = m;
    }
    return out;
  };
  const toolName = old ? { rawA: 'basic__noop', rawB: 'basic__noop', host: 'basic__noop' } : { rawA: 'noop', rawB: 'noop', host: 'basic__noop' };
  try {
    for (const s of Object.values(sessions)) {
      const a = await s.request({ op: 'servers' });
      if (a.error) throw new Error(`session did not start: ${a.error}`);
    }
    let bad = '';
    /** One call through a session: its round-trip time in ms. */
    const call = (side: SessionSide) => async (): Promise<number> => {
      const t0 = performance.now();
      const a = await sessions[side].request({ op: 'call', name: toolName[side], args: {} });
      const ms = performance.now() - t0;
      if (a.outcome !== 'ok' && !bad) bad = `${side}: ${JSON.stringify(a).slice(0, 300)}`;
      return ms;
    };
    for (const side of ['rawA', 'rawB', 'host'] as const) for (let i = 0; i < opts.warmup; i++) await call(side)();
    await settle(50);
    const start = await memory();
    const mem: Record<SessionSide, Memory>[] = [];

    const sides = { rawA: call('rawA'), rawB: call('rawB'), host: call('host') };
    const { blocks } = await rotate(sides, {
      blocks: opts.blocks,
      rounds: callsPerBlock,
      seed: opts.seed,
      // Outside the timed calls: a full GC in each session process, then its RSS.
      afterBlock: async () => void mem.push(await memory()),
    });
    if (bad) throw new Error(`a call did not return ok: ${bad}`);

    // --- calls/s: a side's calls in a block over the time they took (the calls are sequential) ---
    const cps = (ms: readonly number[]) => (ms.length / ms.reduce((a, b) => a + b, 0)) * 1000;
    const c = compare(blocks, cps);

    // --- drift: last quarter ÷ first quarter of the host's calls/s relative to raw, from the trend over all blocks ---
    const q = Math.max(2, Math.floor(opts.blocks / 4));
    const first = blocks.slice(0, q);
    const last = blocks.slice(-q);
    const rel = (b: Block<number>) => cps(b.host) / ((cps(b.rawA) + cps(b.rawB)) / 2);
    const relAA = (b: Block<number>) => cps(b.rawB) / cps(b.rawA);
    const logPoints = (f: (b: Block<number>) => number) => blocks.map((b, i) => ({ x: i, y: Math.log(f(b)) }));
    /** exp(trend × the blocks between the middles of the first and the last quarter). */
    const drift = (ps: readonly { x: number; y: number }[]) =>
      Math.exp(
        slope(
          ps.map((p) => p.x),
          ps.map((p) => p.y),
        ) *
          (blocks.length - q),
      );
    const driftValue = drift(logPoints(rel));
    const driftCi = blockBootstrap(logPoints(rel), drift);
    const driftAA = { value: drift(logPoints(relAA)), ci: blockBootstrap(logPoints(relAA), drift) };
    const abs = (side: 'host' | 'rawA', g: readonly Block<number>[]) => median(g.map((b) => cps(b[side])));

    // --- RSS growth: slope over calls made × calls in the run, without the young generation's own growth ---
    const live = (m: Memory) => m.rss - m.newSpace;
    const points = mem.map((m, i) => ({ x: (i + 1) * callsPerBlock, m }));
    const growth = (side: SessionSide, f: (m: Memory) => number = live) => (ps: readonly (typeof points)[number][]) =>
      (slope(
        ps.map((p) => p.x),
        ps.map((p) => f(p.m[side])),
      ) *
        opts.totalCalls) /
      1e6;
    const rssValue = growth('host')(points);
    const rssCi = blockBootstrap(points, growth('host'));
    const end = mem[mem.length - 1];
    const delta = (side: SessionSide, f: (m: Memory) => number) => f(end[side]) - f(start[side]);
    const rssOf = (m: Memory) => m.rss;
    const newOf = (m: Memory) => m.newSpace;

    return {
      rows: [
        {
          id: 'session.callsPerSecond',
          name: `Sustained session, ${opts.blocks * callsPerBlock} sequential calls per side: mcp-host session ÷ ${raw}, calls/s`,
          value: round(c.value, 4),
          unit: '×',
          ci: c.ci,
          aa: c.aa,
          // Against the old host, a throughput: new ÷ old ≥ 1 ÷ 1.05.
          target: { op: '>=', value: old ? round(1 / BASELINE_TARGET, 4) : opts.ratioTarget },
          detail:
            `host ${c.host.toFixed(0)} calls/s vs ${raw} ${c.raw.toFixed(0)} (A ${c.rawA.toFixed(0)}, B ${c.rawB.toFixed(0)}), median of ${opts.blocks} blocks of ${callsPerBlock} rounds (one call per side per round, sides in a shuffled order) ` +
            `after ${opts.warmup} warm-up calls each; A/A ${fmtCi(c.aa.value, c.aa.ci)}; CLI audit file on; servers ${pinnedCpu() !== undefined ? `pinned to CPU ${pinnedCpu()}` : 'not pinned'}, ` +
            `session processes ${cpu !== undefined ? `pinned to CPU ${cpu}` : 'not pinned'}`,
        },
        {
          id: 'session.drift',
          name: `Sustained session: host calls/s in the last quarter ÷ first quarter (relative to ${raw} in the same blocks)`,
          value: round(driftValue, 4),
          unit: '×',
          ci: driftCi,
          aa: driftAA,
          target: { op: '>=', value: opts.driftTarget },
          detail:
            `least-squares trend of log(host ÷ raw calls/s) over all ${blocks.length} blocks, taken over the ${blocks.length - q} blocks between the middles of the first and the last quarter; ` +
            `medians of the first / last ${q} blocks: host ${abs('host', first).toFixed(0)} → ${abs('host', last).toFixed(0)} calls/s, raw A ${abs('rawA', first).toFixed(0)} → ${abs('rawA', last).toFixed(0)} calls/s; ` +
            `A/A (raw B relative to raw A) ${fmtCi(driftAA.value, driftAA.ci)}`,
        },
        {
          id: 'session.rss',
          kind: 'memory',
          name: `Sustained session: mcp-host session RSS growth over ${opts.totalCalls} calls (slope)`,
          value: round(rssValue, 2),
          unit: 'MB',
          ci: rssCi,
          target: { op: '<=', value: opts.rssTargetMB },
          detail:
            `least-squares slope of (VmRSS − V8 young generation) after a full GC at the end of each block, × ${opts.totalCalls} calls. ` +
            `End − start: host RSS ${fmtMB(delta('host', rssOf))} (${fmtMB(start.host.rss)} → ${fmtMB(end.host.rss)}; young generation ${fmtMB(delta('host', newOf))}), ` +
            `raw A RSS ${fmtMB(delta('rawA', rssOf))} (young ${fmtMB(delta('rawA', newOf))}), raw B RSS ${fmtMB(delta('rawB', rssOf))} (young ${fmtMB(delta('rawB', newOf))}); ` +
            `the same slope for raw A ${growth('rawA')(points).toFixed(1)} MB, raw B ${growth('rawB')(points).toFixed(1)} MB`,
        },
      ],
      data: {
        options: opts,
        callsPerBlock,
        memoryAtStart: start,
        blocks: blocks.map((b, i) => ({
          rawA: { cps: round(cps(b.rawA), 1), ...mem[i].rawA },
          rawB: { cps: round(cps(b.rawB), 1), ...mem[i].rawB },
          host: { cps: round(cps(b.host), 1), ...mem[i].host },
        })),
      },
    };
  } finally {
    await Promise.all(Object.values(sessions).map((s) => s.close()));
    tmp.remove();
  }
}

if (require.main === module) {
  sustainedSession().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
