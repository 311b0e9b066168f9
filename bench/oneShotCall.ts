/**
 * One-shot call on a server with 20,000 tools (bench/servers/manyTools.mjs, listed in pages of 500):
 * `mcp-host call many__tool_10000` (dist/cli.js, a fresh process; audit file on; the workspace's
 * lockfile written once by `mcp-host lock`, so the listed definitions are checked against it) against the raw
 * SDK doing the same job in a fresh process (bench/clients/rawOneShot.mjs: connect, one tools/call
 * by the server's own name, close). Each side's figure is the wall time from spawn until the
 * process has exited (its server stopped), and its peak RSS (bench/clients/peakRss.cjs, preloaded
 * into both). Raw A, raw B (A/A) and the host run once per block, in a shuffled order.
 *
 * Two rows, one per protocol era. The 2025-11-25 server gives no freshness, so every call lists the
 * server up to the page naming its tool (the pin check needs the server's current definition) while
 * the yardstick lists nothing. The 2026-07-28 server (FIXTURE_MODERN) says its discover result and
 * tools/list may be used again: a call keeps the whole list (ToolListStore) and the verdict, and
 * the calls after it within the ttl send neither server/discover nor tools/list — the yardstick, an
 * SDK v2 client negotiating `auto` with no memory between processes, probes with server/discover.
 * Under --baseline the old host speaks only 2025-11-25: the modern row is left out.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { baseline, BASELINE_TARGET, yardstick } from './baseline';
import { compare, fmtCi, fmtMB, fmtMs, fmtSigned, makeTempDir, rotate, SETSID, serverCommand, settle, type BenchResult, type Row } from './common';
import { round } from './stats';
import { MAX_CACHE_TTL_MS } from '../src/core/mcp/responseCache';
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

type Era = 'legacy' | 'modern';

/** Raw A, raw B and the host once per block, shuffled, after one untimed yardstick run (file caches). */
async function measure(raw: () => Promise<Run>, host: () => Promise<Run>, opts: OneShotOptions) {
  await raw();
  const { blocks } = await rotate({ rawA: raw, rawB: raw, host }, { blocks: opts.blocks, seed: opts.seed, between: () => settle(20) });
  return { blocks, t: compare(blocks, (runs) => runs.map((r) => r.ms)), m: compare(blocks, (runs) => runs.map((r) => r.peakRss)) };
}

export async function oneShotCall(opts: OneShotOptions = ONE_SHOT_DEFAULTS): Promise<BenchResult> {
  const old = baseline();
  const rows: Row[] = [];
  const data: Record<string, unknown> = { options: opts };
  for (const era of ['legacy', 'modern'] as const) {
    // --baseline: the old host speaks only 2025-11-25, so the modern row has nothing to compare with.
    if (era === 'modern' && old) continue;
    const tmp = makeTempDir(`oneshot-${era}`);
    try {
      const r = await oneEra(era, opts, tmp.dir, old);
      rows.push(...r.rows);
      data[era] = r.data;
    } finally {
      tmp.remove();
    }
  }
  return { rows, data };
}

async function oneEra(era: Era, opts: OneShotOptions, dir: string, old: ReturnType<typeof baseline>) {
  // The modern server's lists may be used again for 10 minutes (the host's cap), so that every timed
  // call of the row is within the ttl: the row prices a call that may skip discovery.
  const serverEnv = era === 'modern' ? { FIXTURE_MODERN: '1', FIXTURE_TTL_MS: String(MAX_CACHE_TTL_MS) } : {};
  const env = { ...nodeEnv(), FIXTURE_TOOL_COUNT: String(opts.tools), FIXTURE_PAGE_SIZE: String(opts.pageSize), ...serverEnv };
  const tool = `tool_${String(opts.toolIndex).padStart(Math.max(5, String(opts.tools - 1).length), '0')}`;
  const [command, ...args] = serverCommand('manyTools');
  const processEnv = cliEnv(join(dir, 'config'));
  // Reviewed once (`mcp-host lock`, untimed): each timed call checks the called tool's definition against the lockfile.
  const ws = reviewedWorkspace(
    join(dir, 'ws'),
    { 'mcpHost.servers': { many: { command, args, env } }, 'mcpHost.autoApprove': ['many/*'], 'mcpHost.audit.path': join(dir, 'audit.jsonl') },
    processEnv,
  );
  const rawSpec = JSON.stringify({ command: SETSID ?? command, args: SETSID ? [command, ...args] : args, env });
  const expect = `${tool} ok`;
  const host = () => runProcess([CLI, 'call', `many__${tool}`, '--workspace', ws, '--yes'], expect, processEnv);
  // --baseline: the A/A pair is the old `mcp-host call`, in a workspace and config of its own reviewed by its own CLI (see baseline.ts).
  const oldCall = () => {
    const oldEnv = cliEnv(join(dir, 'config-old'));
    const oldWs = reviewedWorkspace(
      join(dir, 'ws-old'),
      { 'mcpHost.servers': { many: { command, args, env } }, 'mcpHost.autoApprove': ['many/*'], 'mcpHost.audit.path': join(dir, 'audit-old.jsonl') },
      oldEnv,
      old!.cli,
    );
    return () => runProcess([old!.cli, 'call', `many__${tool}`, '--workspace', oldWs, '--yes'], expect, oldEnv);
  };
  const rawArgs = [join(__dirname, 'clients', 'rawOneShot.mjs'), rawSpec, tool, ...(era === 'modern' ? ['auto'] : [])];
  const raw = old ? oldCall() : () => runProcess(rawArgs, expect, processEnv);
  const yard = era === 'modern' ? 'raw SDK v2 (versionNegotiation auto) connect + call' : yardstick('raw SDK connect + call');
  // `lock` listed the server whole; for the modern server it kept the list, as a call would.
  const first = await host();
  const { blocks, t, m } = await measure(raw, host, opts);
  // 2025-11-25 (info): the same call against a raw client that also lists up to the tool's page, as
  // the host must to check the tool's definition: what the host adds over listing itself.
  const listing = era === 'legacy' && !old ? await measure(() => runProcess([...rawArgs, 'list'], expect, processEnv), host, { ...opts, blocks: Math.ceil(opts.blocks / 2) }) : undefined;
  const server = era === 'modern' ? `${opts.tools}-tool 2026-07-28 server (its tools/list and server/discover may be used again: ttlMs ${MAX_CACHE_TTL_MS / 60_000} min)` : `${opts.tools}-tool server`;
  const row = {
    id: era === 'modern' ? 'oneShot.modern.time' : 'oneShot.time',
    name: `One-shot call on a ${server}: mcp-host call ÷ ${yard} (process wall time)`,
    value: round(t.value, 4),
    unit: '×',
    ci: t.ci,
    aa: t.aa,
    target: { op: '<=' as const, value: old ? BASELINE_TARGET : opts.target },
    detail:
      `host ${fmtMs(t.host)} vs ${yard} ${fmtMs(t.raw)} (A ${fmtMs(t.rawA)}, B ${fmtMs(t.rawB)}), median of ${opts.blocks}, spawn to exit; ` +
      `A/A ${fmtCi(t.aa.value, t.aa.ci)}; ` +
      (era === 'modern'
        ? `every timed host call used the list a call before it kept (no server/discover, no tools/list); `
        : `tools listed in pages of ${opts.pageSize} up to the one naming ${tool}; `) +
      `called ${tool}; peak RSS host ${fmtMB(m.host)} vs ${yard} ${fmtMB(m.raw)} (${fmtSigned(m.host - m.raw, fmtMB)})`,
  };
  const rows: Row[] = [row];
  if (listing) {
    const l = listing.t;
    rows.push({
      id: 'oneShot.listing.time',
      name: `One-shot call on a ${server}: mcp-host call ÷ raw SDK connect + tools/list up to the tool's page + call (process wall time)`,
      value: round(l.value, 4),
      unit: '×',
      ci: l.ci,
      aa: l.aa,
      detail: `host ${fmtMs(l.host)} vs raw SDK listing first ${fmtMs(l.raw)} (A ${fmtMs(l.rawA)}, B ${fmtMs(l.rawB)}), median of ${listing.blocks.length}: the listing the pin check needs, priced on both sides`,
    });
  }
  return {
    rows,
    data: {
      first: { ms: round(first.ms, 1), peakRss: first.peakRss },
      runs: blocks.map((b) => ({
        rawA: b.rawA.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
        rawB: b.rawB.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
        host: b.host.map((r) => ({ ms: round(r.ms, 1), peakRss: r.peakRss })),
      })),
    },
  };
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
