/**
 * One-shot call on a server with 20,000 tools (bench/servers/manyTools.mjs, listed in pages of 500):
 * `mcp-host call many__tool_10000` (dist/cli.js, a fresh process; audit file on; the workspace's
 * lockfile written once by `mcp-host lock`, so the listed definitions are checked against it) against the raw
 * SDK doing the same job in a fresh process (bench/clients/rawOneShot.mjs: connect, one tools/call
 * by the server's own name, close). Each side's figure is the wall time from spawn until the
 * process has exited (its server stopped), and its peak RSS (bench/clients/peakRss.cjs, preloaded
 * into both). Raw A, raw B (A/A) and the host run once per block, in a shuffled order.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { baseline, BASELINE_TARGET, yardstick } from './baseline';
import { compare, fmtCi, fmtMB, fmtMs, fmtSigned, makeTempDir, rotate, SETSID, serverCommand, settle, type BenchResult } from './common';
import { round } from './stats';
import { CLI, cliEnv, reviewedWorkspace } from './sustainedSession';

export interface OneShotOptions {
  readonly tools: number;
  readonly pageSize: number;
  /** Index of the tool called. */
  readonly toolIndex: number;
  readonly blocks: number;
  readonly target: number;
  readonly seed: number;
}

export const ONE_SHOT_DEFAULTS: OneShotOptions = { tools: 20_000, pageSize: 500, toolIndex: 10_000, blocks: 30, target: 1.1, seed: 5 };

interface Run {
  readonly ms: number;
  readonly peakRss: number;
}

/** Runs a process to its end; resolves with its wall time and the peak RSS it reported. */
function runProcess(args: readonly string[], expectOut: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--require', join(__dirname, 'clients', 'peakRss.cjs'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - t0;
      const peak = /bench-peak-rss (\d+)/.exec(err);
      if (code !== 0 || !out.includes(expectOut) || !peak) {
        reject(new Error(`${args.slice(0, 2).join(' ')} … exited ${code}; stdout ${JSON.stringify(out.slice(0, 200))}; stderr ${err.trim().slice(-500)}`));
      } else {
        resolve({ ms, peakRss: Number(peak[1]) });
      }
    });
  });
}

export async function oneShotCall(opts: OneShotOptions = ONE_SHOT_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('oneshot');
  try {
    const env = { ...nodeEnv(), FIXTURE_TOOL_COUNT: String(opts.tools), FIXTURE_PAGE_SIZE: String(opts.pageSize) };
    const tool = `tool_${String(opts.toolIndex).padStart(Math.max(5, String(opts.tools - 1).length), '0')}`;
    const [command, ...args] = serverCommand('manyTools');
    const processEnv = cliEnv(join(tmp.dir, 'config'));
    // Reviewed once (`mcp-host lock`, untimed): each timed call checks the 20,000 listed definitions against the lockfile.
    const ws = reviewedWorkspace(
      join(tmp.dir, 'ws'),
      { 'mcpHost.servers': { many: { command, args, env } }, 'mcpHost.autoApprove': ['many/*'], 'mcpHost.audit.path': join(tmp.dir, 'audit.jsonl') },
      processEnv,
    );
    const rawSpec = JSON.stringify({ command: SETSID ?? command, args: SETSID ? [command, ...args] : args, env });
    const expect = `${tool} ok`;
    const host = () => runProcess([CLI, 'call', `many__${tool}`, '--workspace', ws, '--yes'], expect, processEnv);
    // --baseline: the A/A pair is the old `mcp-host call`, in a workspace and config of its own reviewed by its own CLI (see baseline.ts).
    const old = baseline();
    const oldCall = () => {
      const oldEnv = cliEnv(join(tmp.dir, 'config-old'));
      const oldWs = reviewedWorkspace(
        join(tmp.dir, 'ws-old'),
        { 'mcpHost.servers': { many: { command, args, env } }, 'mcpHost.autoApprove': ['many/*'], 'mcpHost.audit.path': join(tmp.dir, 'audit-old.jsonl') },
        oldEnv,
        old!.cli,
      );
      return () => runProcess([old!.cli, 'call', `many__${tool}`, '--workspace', oldWs, '--yes'], expect, oldEnv);
    };
    const raw = old ? oldCall() : () => runProcess([join(__dirname, 'clients', 'rawOneShot.mjs'), rawSpec, tool], expect, processEnv);
    const yard = yardstick('raw SDK connect + call');

    // Warm-up: file caches, one of each.
    await raw();
    await host();
    const { blocks } = await rotate({ rawA: raw, rawB: raw, host }, { blocks: opts.blocks, seed: opts.seed, between: () => settle(20) });
    const t = compare(blocks, (runs) => runs.map((r) => r.ms));
    const m = compare(blocks, (runs) => runs.map((r) => r.peakRss));
    return {
      rows: [
        {
          id: 'oneShot.time',
          name: `One-shot call on a ${opts.tools}-tool server: mcp-host call ÷ ${yard} (process wall time)`,
          value: round(t.value, 4),
          unit: '×',
          ci: t.ci,
          aa: t.aa,
          target: { op: '<=', value: old ? BASELINE_TARGET : opts.target },
          detail:
            `host ${fmtMs(t.host)} vs ${yard} ${fmtMs(t.raw)} (A ${fmtMs(t.rawA)}, B ${fmtMs(t.rawB)}), median of ${opts.blocks}, spawn to exit; ` +
            `A/A ${fmtCi(t.aa.value, t.aa.ci)}; tools listed in pages of ${opts.pageSize}, called ${tool}; ` +
            `peak RSS host ${fmtMB(m.host)} vs ${yard} ${fmtMB(m.raw)} (${fmtSigned(m.host - m.raw, fmtMB)})`,
        },
      ],
      data: {
        options: opts,
        runs: blocks.map((b) => ({
          rawA: b.rawA.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
          rawB: b.rawB.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
          host: b.host.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
        })),
      },
    };
  } finally {
    tmp.remove();
  }
}

if (require.main === module) {
  oneShotCall().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
