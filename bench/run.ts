/**
 * `npm run bench`: the host's cost next to the raw MCP SDK, every row of issue 10's targets measured
 * in one run, then figures without a target (tool budget, telemetry cost). Runs every benchmark (or
 * those named: `node --require ./bench/register.cjs bench/run.ts routing large`), prints a table, and after a full run
 * writes bench/results.json and bench/RESULTS.md.
 * `--quick` (`npm run bench -- --quick`): every benchmark with a few blocks, to see that it runs;
 * its timing rows are not judged and the results files are left as they were.
 *
 * Every comparison rotates an A/A pair (two identical raw-SDK clients, each with its own identical
 * server process) and the host inside the same blocks, in an order shuffled per block (fixed seeds);
 * its figure comes with a block-bootstrap 95 % interval, and the A/A interval shows the noise floor.
 * Verdicts: PASS / FAIL only when the interval clears the target, else "inconclusive" (with the
 * 1-minute load). When the 1-minute load at start is above 1.5 no timing row is judged ("not judged");
 * rows that are not timings (bundle bytes, servers waited for, processes left, a call that failed
 * outright) are judged anyway.
 * `--baseline <dir>` (bench/baseline.ts): the rows that compare the host with the raw SDK compare it
 * with the old host built in <dir> instead (new ÷ old, the A/A pair two old hosts; target: upper
 * bound ≤ 1.05), in the same blocks; such a run writes bench/results-baseline.json and its own
 * section of bench/RESULTS.md (between the baseline markers), leaving the rest as it was.
 * Exit code: 1 if a row FAILs, 2 if a row is inconclusive or not judged, 0 when every judged row PASSes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_SERVERS_DIR, descendantPidsOf } from '../test/fixtures/fixtureServers';
import { baseline, BASELINE_ENV, BASELINE_TARGET, type Baseline } from './baseline';
import { BENCH_SERVERS_DIR, errorText, fmtCi, load1, ROOT, type BenchResult, type Row, type Verdict } from './common';
import { CONCURRENCY_DEFAULTS, concurrency } from './concurrency';
import { DIRECT_CALLS_DEFAULTS, directCalls } from './directCalls';
import { GATEWAY_CALL_DEFAULTS, gatewayCall } from './gatewayCall';
import { JSON_CALL_MEMORY_DEFAULTS, jsonCallMemory } from './jsonCallMemory';
import { LARGE_DEFAULTS, largeResult } from './largeResult';
import { MODERN_CALL_DEFAULTS, modernCall } from './modernCall';
import { ONE_SHOT_DEFAULTS, oneShotCall } from './oneShotCall';
import { KEPT_LIST_DEFAULTS, keptList } from './keptList';
import { PACKAGE_DEFAULTS, packageCost } from './packageCost';
import { PARALLEL_START_DEFAULTS, parallelStart } from './parallelStart';
import { REGISTRY_DEFAULTS, registryScale } from './registryScale';
import { ROUTING_DEFAULTS, routingOverhead } from './routingOverhead';
import { round } from './stats';
import { SDK_COST_DEFAULTS, sdkCost } from './sdkCost';
import { SUSTAINED_DEFAULTS, sustainedSession } from './sustainedSession';
import { TELEMETRY_COST_DEFAULTS, telemetryBench } from './telemetryCost';
import { measureToolBudget } from './toolBudget';

/** Above this 1-minute load average at start, no timing row is judged. */
export const MAX_LOAD = 1.5;

interface Bench {
  readonly key: string;
  readonly title: string;
  /** `quick`: a few blocks, enough to see that it runs, far too few for a verdict. */
  run(quick: boolean): Promise<BenchResult>;
}

const BENCHES: readonly Bench[] = [
  { key: 'routing', title: 'Routing overhead', run: (q) => routingOverhead(q ? { ...ROUTING_DEFAULTS, blocks: 4, rounds: 50, warmup: 100, coldCalls: 50 } : ROUTING_DEFAULTS) },
  { key: 'direct', title: 'Calls past the SDK (DirectRequests)', run: (q) => directCalls(q ? { ...DIRECT_CALLS_DEFAULTS, blocks: 3, rounds: 50, warmup: 100 } : DIRECT_CALLS_DEFAULTS) },
  { key: 'sdk', title: 'SDK cost (no target)', run: (q) => sdkCost(q ? { ...SDK_COST_DEFAULTS, blocks: 3, rounds: 50, warmup: 100 } : SDK_COST_DEFAULTS) },
  { key: 'session', title: 'Sustained session', run: (q) => sustainedSession(q ? { ...SUSTAINED_DEFAULTS, totalCalls: 1200, blocks: 4, warmup: 100 } : SUSTAINED_DEFAULTS) },
  { key: 'concurrency', title: 'Concurrency', run: (q) => concurrency(q ? { ...CONCURRENCY_DEFAULTS, blocks: 3, rounds: 2, progressBlocks: 2, sameRequestBlocks: 2 } : CONCURRENCY_DEFAULTS) },
  { key: 'large', title: 'Large results', run: (q) => largeResult(q ? { ...LARGE_DEFAULTS, blocks: 2, rounds: 1 } : LARGE_DEFAULTS) },
  { key: 'modern', title: 'Calls to a 2026-07-28 server', run: (q) => modernCall(q ? { ...MODERN_CALL_DEFAULTS, blocks: 3, rounds: 20, warmup: 40 } : MODERN_CALL_DEFAULTS) },
  { key: 'jsoncall', title: 'call --json memory', run: (q) => jsonCallMemory(q ? { ...JSON_CALL_MEMORY_DEFAULTS, blocks: 2 } : JSON_CALL_MEMORY_DEFAULTS) },
  { key: 'oneshot', title: 'One-shot call', run: (q) => oneShotCall(q ? { ...ONE_SHOT_DEFAULTS, blocks: 2 } : ONE_SHOT_DEFAULTS) },
  { key: 'kept', title: 'Kept tool list lookup', run: (q) => keptList(q ? { ...KEPT_LIST_DEFAULTS, blocks: 2, rounds: 2 } : KEPT_LIST_DEFAULTS) },
  { key: 'registry', title: 'Registry scale', run: (q) => registryScale(q ? { ...REGISTRY_DEFAULTS, fullRuns: 4, refreshRuns: 10 } : REGISTRY_DEFAULTS) },
  { key: 'package', title: 'Package', run: (q) => packageCost(q ? { ...PACKAGE_DEFAULTS, reps: 2 } : PACKAGE_DEFAULTS) },
  { key: 'gateway', title: 'Gateway call', run: (q) => gatewayCall(q ? { ...GATEWAY_CALL_DEFAULTS, blocks: 3, rounds: 1, warmup: 50 } : GATEWAY_CALL_DEFAULTS) },
  { key: 'toolbudget', title: 'Tool budget (no target)', run: async () => toolBudgetBench() },
  { key: 'telemetry', title: 'Telemetry cost (no target)', run: (q) => telemetryBench(q ? { blocks: 4, blockSize: 100, warmup: 100 } : TELEMETRY_COST_DEFAULTS) },
  // Last: it starts and stops some 900 server processes, and the load they leave (the 1-minute load
  // went 2 → 12) slowed the rows measured after it by a third (the registry's JSON.stringify baseline too).
  { key: 'parallel', title: 'Parallel start', run: (q) => parallelStart(q ? { ...PARALLEL_START_DEFAULTS, blocks: 2 } : PARALLEL_START_DEFAULTS) },
];

/** The tool budget's figures as rows (tokens per request; the time to pick the tools is in the detail). */
async function toolBudgetBench(): Promise<BenchResult> {
  const r = await measureToolBudget();
  return { rows: r.rows.map((row) => ({ ...row, name: `Tool budget, ${row.name}` })), data: r.data };
}

interface Section {
  readonly key: string;
  readonly title: string;
  readonly seconds: number;
  readonly load1AtStart: number;
  readonly load1AtEnd: number;
  readonly rows: readonly Row[];
  readonly data?: Record<string, unknown>;
  readonly error?: string;
  /** The run it comes from (--baseline runs keep sections of earlier runs; see mergeBaselineSections). */
  readonly run?: { readonly date: string; readonly gitCommit: string; readonly judged: boolean };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function machine() {
  const c = cpus();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    cores: c.length,
    cpu: c[0]?.model?.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    gitCommit: `${git(['rev-parse', '--short=12', 'HEAD']) || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`,
    gitBranch: git(['rev-parse', '--abbrev-ref', 'HEAD']),
    loadAverageAtStart: loadavg().map((x) => round(x, 2)),
  };
}

function judge(row: Row, judging: boolean): Verdict {
  if (row.error) return 'FAIL';
  const t = row.target;
  if (!t) return 'info';
  if (row.kind === 'check') return (t.op === '<=' ? row.value <= t.value : row.value >= t.value) ? 'PASS' : 'FAIL';
  if (!judging && row.kind !== 'memory') return 'not judged';
  const lo = row.ci?.lo ?? NaN;
  const hi = row.ci?.hi ?? NaN;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'inconclusive';
  if (t.op === '<=') return hi <= t.value ? 'PASS' : lo > t.value ? 'FAIL' : 'inconclusive';
  return lo >= t.value ? 'PASS' : hi < t.value ? 'FAIL' : 'inconclusive';
}

function verdictText(row: Row, section: Section): string {
  const v = row.verdict ?? 'info';
  return v === 'inconclusive' ? `inconclusive (load ${section.load1AtStart})` : v;
}

const digits = (row: Row) => (row.unit === '×' ? 3 : row.unit === 'ms' ? 2 : row.unit === 'MB' ? 2 : 0);

function fmtValue(row: Row): string {
  if (!Number.isFinite(row.value)) return '—';
  const v = fmtCi(row.value, row.ci, digits(row));
  return row.unit === '×' ? `${v} ×` : `${v} ${row.unit}`.trimEnd();
}

function fmtAa(row: Row): string {
  return row.aa ? fmtCi(row.aa.value, row.aa.ci, 3) : '';
}

function fmtTarget(row: Row): string {
  if (!row.target) return 'report';
  return `${row.target.op === '<=' ? '≤' : '≥'} ${row.target.value}${row.unit === '×' || !row.unit ? '' : ` ${row.unit}`}`;
}

function tableRows(sections: readonly Section[]): string[][] {
  return sections.flatMap((s) => s.rows.map((r) => [r.name, fmtValue(r), fmtAa(r), fmtTarget(r), verdictText(r, s)]));
}

const HEAD = ['row', 'value [95 % CI]', 'A/A [95 % CI]', 'target', 'verdict'];

function table(sections: readonly Section[]): string {
  const body = tableRows(sections);
  const width = HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i])).join('  ').trimEnd();
  return [line(HEAD), width.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

type Machine = ReturnType<typeof machine>;

/** The "How it is measured" bullets of RESULTS.md. */
export function howItIsMeasured(): string[] {
  return [
    '- **Three sides in every block.** Each comparison has two identical raw-SDK clients (raw A and raw B, each talking to its own identical server process: the A/A pair) and the host (its own identical server process). A block is made of rounds; in each round every side runs once, in an order shuffled per round with a fixed seed, so whatever the machine does at that moment hits all three. Routing: 200 rounds of one call per block; sustained session: 500 rounds of one call; concurrency: 20 rounds of one 640-call turn; large results, one-shot call, parallel start: one round per block.',
    '- **Warm before timing, and the cold phase shown.** Routing warms every side with 5,000 calls, rotated in rounds like the blocks, and reports the first 2,000 of them as their own row (info). The host’s per-call code runs once per host call, and V8 optimises it only after ~2,500–3,000 calls, while the raw side’s SDK code runs for raw A and raw B alike and warms in half the calls: with a 500-call warm-up the first ~11 blocks read host ÷ raw 1.05–1.17 and the rest 0.94–1.02 (with `--interrupt-budget=16000` the early blocks fall to ~1.0, so it is the JIT, not a clock). The target row is the steady state.',
    '- **What the host asks for, priced.** Every host call carries a `progressToken` (progress is shown and extends a call’s timeout); a plain raw SDK call does not. With a server that answers at once that alone shows, so the concurrency row has two more rotations (info): the same plain raw pair against a raw SDK client that asks for progress (`onprogress`), and the host against a pair of raw SDK clients that both ask for progress (the same request on every side, with its own A/A).',
    '- **Statistic and interval.** A row’s value is host ÷ raw of the row’s statistic (the median unless said otherwise) over all blocks, raw A and B pooled. The 95 % interval is a block bootstrap: 2,000 resamples of whole blocks with replacement, fixed seed, 2.5th and 97.5th percentiles. The A/A column is raw B ÷ raw A of the same statistic with its interval: how far two identical clients differ in this run (the noise floor).',
    `- **Verdicts.** PASS or FAIL only when the whole interval is on one side of the target; otherwise “inconclusive”, with the 1-minute load at the start of that benchmark. When the 1-minute load at start is above ${MAX_LOAD}, timing rows are “not judged”. Rows that are not timings (bundle bytes, servers activate() waited for, processes left behind, a call that failed outright; memory rows, from their interval) are judged regardless of load. \`npm run bench -- --quick\` runs every benchmark with a few blocks to show that it runs: its timing rows are never judged and it leaves this file and results.json as they were.`,
    '- **The code as shipped.** The in-process sides (routing, concurrency, registry, telemetry, the large-result runners) load the TypeScript through `bench/register.cjs`: esbuild’s transform as esbuild.js builds dist/, without tsx’s `keepNames` wrappers (a `__name()` call per closure created, which the shipped bundles never make). The CLI rows run dist/cli.js itself.',
    '- **No setup in the measured loop.** Hosts are built with their audit file (JSONL) configured; nothing is reconfigured while timing. Routing, concurrency and the sustained session pin every server process (host’s and raw’s) to the same CPU (`BENCH_PIN_SERVERS=off` disables it) and start raw servers through `setsid`, as the host starts its servers detached. The sustained session also pins every session process (host’s and raw’s) to the other CPU (`BENCH_PIN_SESSIONS=off` disables it): left to the scheduler, a session sometimes sat on its server’s CPU for a whole block, and the blocks split into two groups (host ÷ raw about 0.87 in some, 0.97 in others).',
    '- **The host as a team runs it.** `mcpHost.pinning` is “review” (the default), so a host offers only reviewed tool definitions and checks every listing against the lockfile. The review happens before any timing: in-process hosts (bench/hostUnderTest.ts, the one file that uses McpHost) approve what their servers list (`definitions.lockAll`, as `mcp-host lock`); parallel start reads a lockfile reviewed once beforehand; the CLI rows run in a workspace `mcp-host lock` reviewed, with `--yes` as the consent before a server’s first start (`MCP_HOST_CONFIG_DIR` in a temp dir).',
    '- **Sustained session.** `mcp-host session` (dist/cli.js) against `bench/clients/rawSession.mjs`, the same JSON-lines loop with the SDK’s Client doing the call, both driven over stdin/stdout by the same code. After each block every session process runs a full GC (SIGUSR2 to the preloaded `bench/clients/gcOnSignal.cjs`, outside the timed calls) and its VmRSS is read from /proc; the RSS row is the least-squares slope of (VmRSS − V8 young generation) over the calls, because V8 doubles or halves the young generation (±17 MB) on its own. The drift row is the host’s calls/s relative to raw in the same blocks, last quarter ÷ first quarter, read off the least-squares trend of its logarithm over all blocks (exp(slope × the blocks between the middles of the two quarters)); the interval resamples blocks with their position.',
    '- **Large results.** The server (bench/servers/largeText.mjs) writes each answer from prepared buffers, so its own cost is small and linear. Each side runs in a process of its own (bench/clients/largeResultRunner.ts) so its peak RSS is its own (GC, then /proc/self/clear_refs 5 resets VmHWM before each call) and a host that dies on a large message does not stop the benchmark. Each of the 15 blocks is a fresh set of runner processes (and servers), warmed up, making 2 calls of each size per side, and the interval resamples these blocks: a process’s heap settles into one of a few layouts for 50 MB messages (±10 % in time and peak RSS for every call it makes), so one process per side measured its draw (new ÷ old 0.92 in one run, 1.09 in the next). The SDK’s ReadBuffer stops at 10 MiB (`maxBufferSize`, a documented StdioClientTransport option, raises it) and is quadratic (50 MB took 31 s in one measurement on this machine), so the raw side keeps the SDK’s Client and StdioClientTransport but reads with `bench/linearReadBuffer.ts` (same contract, one join per message).',
    '- **Calls past the SDK.** The host as shipped sends a 2025-era `tools/call` on its own stdio transport (src/core/mcp/directRequests.ts); the `direct` row rotates it with two hosts built with `directRequests: false` (every request through the SDK’s `Client.request`, the A/A pair), same fixture, same audit, servers pinned like routing: what the hand-written path saves, which it must to be kept (≤ 0.95).',
    '- **One-shot call.** `mcp-host call` in a fresh process against `bench/clients/rawOneShot.mjs` (connect, one tools/call, close) in a fresh process, spawn to exit, on `bench/servers/manyTools.mjs` (20,000 tools in pages of 500). On the 2025-11-25 server the host lists up to the page naming its tool (the pin check needs the server’s current definition) and the yardstick lists nothing; an info row prices the same listing on both sides (the raw client then lists with the SDK’s listTools). On the 2026-07-28 server (`FIXTURE_MODERN=1`: its server/discover and tools/list say they may be used again for 10 minutes) every timed host call reads its tool from the list an earlier call kept and sends neither; the yardstick is SDK v2 negotiating `auto`, which has no memory between processes. Under `--baseline` the old host cannot speak to that server, so the row is left out. **Kept tool list**: the lookup a one-shot call does in a kept list (the lines of one name) against the plain read that parses every line, in-process, on 20,000 realistic tools (35 MB).',
    '- **Registry and package.** Absolute targets; each run of the registry is a block of the bootstrap; printed next to a baseline from the same run. The registry row composes ToolRegistry, the role’s PolicySet and the model definitions as McpHost does (issue 10 defines it below the host). activate() runs in fresh Node processes against a vscode stand-in (bench/vscodeShim.ts) whose consent dialog answers “Allow All” at once (one question for the 10 new servers, as issue 26 asks it).',
    '- **Figures without a target.** Tool budget (bench/toolBudget.ts): tokens (o200k_base) of the tool definitions one request of a 400-tool role carries, without and with `maxTools` / `maxToolTokens`. Telemetry cost (bench/telemetryCost.ts): McpHost.call p50 with the OpenTelemetry export to a live, a refused and a never-answering collector ÷ without telemetry, in-process server, blocks rotating the sides, block-bootstrap interval; its A/A column is a second host without telemetry.',
  ];
}

const esc = (t: string) => t.replace(/\|/g, '\\|');

/** The results table in markdown. */
function markdownTable(sections: readonly Section[]): string[] {
  return [`| ${HEAD.join(' | ')} |`, `| ${HEAD.map(() => '---').join(' | ')} |`, ...tableRows(sections).map((cells) => `| ${cells.map(esc).join(' | ')} |`)];
}

/** Each section's heading (at `level`) and its rows with their details. */
function markdownDetails(sections: readonly Section[], level: string): string[] {
  const out: string[] = [];
  for (const s of sections) {
    out.push('', `${level} ${s.title} (${s.seconds.toFixed(1)} s, 1-minute load ${s.load1AtStart} → ${s.load1AtEnd})`);
    if (s.error) out.push('', `Error: ${esc(s.error)}`);
    for (const r of s.rows) {
      out.push('', `- **${esc(r.name)}**: ${esc(fmtValue(r))} (${verdictText(r, s)}).${r.error ? ` Error: ${esc(r.error)}.` : ''} ${esc(r.detail)}`);
    }
  }
  return out;
}

function markdown(m: Machine, judging: boolean, sections: readonly Section[], totalSeconds: number, loadAtEnd: number[], counts: string): string {
  const out: string[] = [];
  out.push('# MCP Host benchmarks: the host next to the raw SDK');
  out.push('');
  out.push('Generated by `npm run bench` (bench/run.ts) from a real run; every number is in `bench/results.json`.');
  out.push('');
  out.push(`- Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}`);
  out.push(`- Date: ${m.date}; git commit ${m.gitCommit} (${m.gitBranch})`);
  out.push(`- Load average at start / end (1, 5, 15 min): ${m.loadAverageAtStart.join(', ')} / ${loadAtEnd.join(', ')}`);
  out.push(
    judging
      ? `- Judged: the 1-minute load at start (${m.loadAverageAtStart[0]}) is at most ${MAX_LOAD}.`
      : `- **Not judged**: the 1-minute load at start (${m.loadAverageAtStart[0]}) is above ${MAX_LOAD}; timing rows are measured and printed but get no verdict.`,
  );
  out.push(`- Whole run: ${totalSeconds.toFixed(0)} s; ${counts}`);
  out.push('');
  out.push(...markdownTable(sections));
  out.push('');
  out.push('## How it is measured');
  out.push('');
  out.push(...howItIsMeasured());
  out.push('');
  out.push('## Details');
  out.push(...markdownDetails(sections, '###'));
  out.push('');
  return out.join('\n');
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Server, session and runner processes still running below this process (esbuild's service is not one). */
function leftoverProcesses(): { pid: number; cmd: string }[] {
  const marks = [FIXTURE_SERVERS_DIR, BENCH_SERVERS_DIR, join(__dirname, 'clients'), join(ROOT, 'dist', 'cli.js')];
  return descendantPidsOf(process.pid)
    .map((pid) => ({ pid, cmd: commandLine(pid) }))
    .filter((p) => marks.some((m) => p.cmd.includes(m)));
}

const BASELINE_START = '<!-- bench --baseline: generated by bench/run.ts, replaced by the next such run -->';
const BASELINE_END = '<!-- /bench --baseline -->';

/**
 * A --baseline run's sections merged into the previous such run's (bench/results-baseline.json, same
 * old commit): a benchmark run now replaces its earlier section, the others stay with their own
 * run's date, commit and load, so one row can be measured again without running all of them.
 */
function mergeBaselineSections(file: string, b: Baseline, now: readonly Section[]): Section[] {
  let previous: Section[] = [];
  try {
    const old = JSON.parse(readFileSync(file, 'utf8')) as { baseline?: { commit?: string }; machine?: Machine; judged?: boolean; sections?: Section[] };
    if (old.baseline?.commit === b.commit && Array.isArray(old.sections)) {
      const run = { date: old.machine?.date ?? 'unknown', gitCommit: old.machine?.gitCommit ?? 'unknown', judged: old.judged ?? false };
      previous = old.sections.map((s) => ({ run, ...s }));
    }
  } catch {
    // no earlier run (or not readable): this run's sections only
  }
  const keys = [...BENCHES.map((x) => x.key), 'cleanup'];
  const pick = (key: string) => now.find((s) => s.key === key) ?? previous.find((s) => s.key === key);
  return keys.flatMap((key) => pick(key) ?? []);
}

/** The section of RESULTS.md --baseline runs write (the rest of the file is the last full run's). */
function baselineSection(b: Baseline, sections: readonly Section[]): string {
  const rows = sections.flatMap((s) => s.rows);
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const out: string[] = [BASELINE_START, '', `## Side by side with the old host (${b.commit})`, ''];
  out.push(`Generated by \`npm run bench -- --baseline DIR [sections]\` (bench/baseline.ts); every number is in \`bench/results-baseline.json\`.`);
  out.push('');
  out.push(
    `Rows named "host ÷ old host" rotate the new host with two old hosts (${b.commit}: its own src/, its SDK, its dist/cli.js) in the same blocks: value new ÷ old, A/A old B ÷ old A; ` +
      `target: the upper bound at most ${BASELINE_TARGET} (for calls/s, the lower bound of new ÷ old at least 1 ÷ ${BASELINE_TARGET}). ` +
      'Rows the old code cannot have (a 2026-07-28 server, the gateway) and parallel start stay against the raw SDK; the rest of each benchmark as described above. ' +
      `A timing row gets a verdict only when the 1-minute load at the start of its run was at most ${MAX_LOAD}; otherwise read its interval next to the A/A one.`,
  );
  out.push('');
  for (const s of sections) {
    if (s.key === 'cleanup' || !s.run) continue;
    out.push(`- ${s.title}: run ${s.run.date}, commit ${s.run.gitCommit}, 1-minute load ${s.load1AtStart} → ${s.load1AtEnd}, ${s.seconds.toFixed(0)} s${s.run.judged ? '' : ' (not judged: load)'}`);
  }
  out.push(`- ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('inconclusive')} inconclusive, ${count('not judged')} not judged`);
  out.push('');
  out.push(...markdownTable(sections));
  out.push('');
  out.push('### Details');
  out.push(...markdownDetails(sections, '####'));
  out.push('', BASELINE_END);
  return out.join('\n');
}

/** RESULTS.md with its --baseline section replaced by `section` (appended when it has none). */
function withBaselineSection(results: string, section: string): string {
  const start = results.indexOf(BASELINE_START);
  const end = results.indexOf(BASELINE_END);
  if (start !== -1 && end > start) return results.slice(0, start) + section + results.slice(end + BASELINE_END.length);
  return `${results.trimEnd()}\n\n${section}\n`;
}

/** `--baseline <dir>` or `--baseline=<dir>`: the directory, and the arguments without it. */
function baselineArg(argv: readonly string[]): { dir?: string; rest: string[] } {
  const rest: string[] = [];
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--baseline') {
      dir = argv[++i];
      if (!dir) throw new Error('--baseline needs a directory (a built checkout of the old code)');
    } else if (a.startsWith('--baseline=')) dir = a.slice('--baseline='.length);
    else rest.push(a);
  }
  return { dir, rest };
}

async function main(): Promise<void> {
  const args = baselineArg(process.argv.slice(2));
  if (args.dir) process.env[BASELINE_ENV] = args.dir;
  const base = baseline();
  const quick = args.rest.includes('--quick');
  const wanted = args.rest.filter((a) => !a.startsWith('-'));
  const selected = wanted.length ? BENCHES.filter((b) => wanted.some((w) => b.key.startsWith(w))) : BENCHES;
  if (selected.length === 0) throw new Error(`no benchmark matches ${wanted.join(', ')}; known: ${BENCHES.map((b) => b.key).join(', ')}`);

  const m = machine();
  const judging = !quick && m.loadAverageAtStart[0] <= MAX_LOAD;
  console.log(`MCP Host benchmarks — ${m.cores} cores (${m.cpu}), Node ${m.node}, ${m.date}, commit ${m.gitCommit}`);
  console.log(`1-minute load at start: ${m.loadAverageAtStart[0]} (5 / 15 min: ${m.loadAverageAtStart[1]} / ${m.loadAverageAtStart[2]})`);
  if (base) console.log(`Side by side with the old host ${base.commit} (${base.dir}): rows against the raw SDK compare with it instead.`);
  if (quick) console.log('Quick run (--quick): a few blocks per benchmark; every timing row is measured but NOT JUDGED.');
  else if (!judging) console.log(`Above ${MAX_LOAD}: every timing row is measured but NOT JUDGED.`);
  const started = performance.now();
  const sections: Section[] = [];
  for (const b of selected) {
    process.stdout.write(`\n${b.title} … `);
    const t0 = performance.now();
    const loadStart = load1();
    let section: Section;
    try {
      const r = await b.run(quick);
      section = { key: b.key, title: b.title, seconds: (performance.now() - t0) / 1000, load1AtStart: loadStart, load1AtEnd: load1(), rows: r.rows, data: r.data };
    } catch (e) {
      const message = errorText(e);
      section = {
        key: b.key,
        title: b.title,
        seconds: (performance.now() - t0) / 1000,
        load1AtStart: loadStart,
        load1AtEnd: load1(),
        error: message,
        rows: [{ id: `${b.key}.error`, name: `${b.title}: the benchmark could not run`, value: NaN, unit: '', error: message, detail: '' }],
      };
    }
    for (const row of section.rows) row.verdict = judge(row, judging);
    sections.push(section);
    process.stdout.write(`${section.seconds.toFixed(1)} s (1-min load ${section.load1AtStart} → ${section.load1AtEnd})\n`);
    for (const row of section.rows) {
      console.log(`  ${verdictText(row, section)}: ${row.name}: ${fmtValue(row)}${row.aa ? `, A/A ${fmtAa(row)}` : ''} (target ${fmtTarget(row)})`);
      if (row.error) console.log(`       error: ${row.error}`);
      if (row.detail) console.log(`       ${row.detail}`);
    }
  }

  // Every host closed, every client and session ended: no process of ours may outlive its benchmark.
  let left = leftoverProcesses();
  for (let i = 0; i < 60 && left.length; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = leftoverProcesses();
  }
  const cleanup: Row = {
    id: 'cleanup.processes',
    name: 'Server, session and runner processes left after all benchmarks',
    value: left.length,
    unit: '',
    kind: 'check',
    target: { op: '<=', value: 0 },
    detail: left.length ? `still running: ${left.map((p) => `${p.pid} ${p.cmd}`).join('; ')}` : 'every process ended',
  };
  cleanup.verdict = judge(cleanup, judging);
  sections.push({ key: 'cleanup', title: 'Cleanup', seconds: 0, load1AtStart: load1(), load1AtEnd: load1(), rows: [cleanup] });

  const totalSeconds = (performance.now() - started) / 1000;
  const loadAtEnd = loadavg().map((x) => round(x, 2));
  const rows = sections.flatMap((s) => s.rows);
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const counts = `${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('inconclusive')} inconclusive, ${count('not judged')} not judged`;
  console.log(`\n${table(sections)}\n`);
  console.log(`${counts} (${totalSeconds.toFixed(0)} s; 1-minute load at start ${m.loadAverageAtStart[0]}, at end ${loadAtEnd[0]})`);

  if (base && !quick) {
    const dir = __dirname;
    const file = join(dir, 'results-baseline.json');
    const run = { date: m.date, gitCommit: m.gitCommit, judged: judging };
    const merged = mergeBaselineSections(
      file,
      base,
      sections.map((s) => ({ ...s, run })),
    );
    // Earlier sections judged again by today's rules, each with its own run's load verdict.
    for (const s of merged) for (const row of s.rows) row.verdict = judge(row, s.run?.judged ?? judging);
    writeFileSync(file, JSON.stringify({ baseline: { dir: base.dir, commit: base.commit }, machine: { ...m, loadAverageAtEnd: loadAtEnd }, maxLoad: MAX_LOAD, sections: merged }, null, 2) + '\n');
    const results = join(dir, 'RESULTS.md');
    writeFileSync(results, withBaselineSection(existsSync(results) ? readFileSync(results, 'utf8') : '', baselineSection(base, merged)));
    console.log('Wrote bench/results-baseline.json and the --baseline section of bench/RESULTS.md.');
  } else if (selected.length === BENCHES.length && !quick) {
    const dir = __dirname;
    writeFileSync(
      join(dir, 'results.json'),
      JSON.stringify({ machine: { ...m, loadAverageAtEnd: loadAtEnd }, judged: judging, maxLoad: MAX_LOAD, totalSeconds: round(totalSeconds, 1), sections }, null, 2) + '\n',
    );
    // The last --baseline run's section stays (it has its own run and date).
    const results = join(dir, 'RESULTS.md');
    const before = existsSync(results) ? readFileSync(results, 'utf8') : '';
    const start = before.indexOf(BASELINE_START);
    const end = before.indexOf(BASELINE_END);
    const kept = start !== -1 && end > start ? before.slice(start, end + BASELINE_END.length) : undefined;
    const fresh = markdown(m, judging, sections, totalSeconds, loadAtEnd, counts);
    writeFileSync(results, kept ? withBaselineSection(fresh, kept) : fresh);
    console.log('Wrote bench/results.json and bench/RESULTS.md.');
  } else {
    console.log(`A ${quick ? 'quick' : 'partial'} run: bench/results.json and bench/RESULTS.md are left as they were.`);
  }

  // Do not leave them behind even when the check failed (only our own processes, by pid).
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exitCode = count('FAIL') ? 1 : count('inconclusive') || count('not judged') ? 2 : 0;
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
