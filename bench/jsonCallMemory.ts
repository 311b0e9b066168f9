/**
 * `mcp-host call --json` of a 50 MB text result: the peak RSS of the CLI process, new code against
 * old. Before issue 27 the document (the content and the model text, each the 50 MB text) went
 * through one JSON.stringify, and the process peaked at several times the result's size; now it is
 * written as a stream (src/cli/jsonStream.ts).
 *
 * Sides: "old" is dist/cli.js built from OLD_REF (the last commit before the stream; `git archive`
 * into a temp folder, built by that commit's own esbuild.js with this repository's node_modules),
 * or with --baseline the old checkout's own dist/cli.js (bench/baseline.ts), run twice per block as
 * the A/A pair; "new" is this repository's dist/cli.js (run `npm run build` first). Each CLI runs in
 * a workspace and config of its own that it reviewed itself. Each side's turn is two fresh processes against bench/servers/largeText.mjs in a workspace
 * `mcp-host lock` reviewed: `call large__noop --json` (the baseline) and `call large__text --json`
 * of 50 MB; the figure is (peak RSS of the 50 MB call − peak RSS of the noop call) ÷ the result's
 * size, peak RSS read by bench/clients/peakRss.cjs (getrusage ru_maxrss). stdout is counted, not kept.
 */
import { execFileSync, spawn } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEnv } from '../test/fixtures/fixtureServers';
import { baseline } from './baseline';
import { compare, fmtCi, fmtMB, makeTempDir, ROOT, rotate, serverCommand, settle, type BenchResult, type Block } from './common';
import { blockBootstrap, median, pooled, round } from './stats';
import { CLI, cliEnv, reviewedWorkspace } from './sustainedSession';

export interface JsonCallMemoryOptions {
  readonly bytes: number;
  readonly blocks: number;
  /** Peak RSS growth ÷ result size the new code must stay under. */
  readonly target: number;
  /** The commit whose CLI is the "old" side (BENCH_JSON_OLD_REF overrides it). */
  readonly oldRef: string;
  readonly seed: number;
}

export const JSON_CALL_MEMORY_DEFAULTS: JsonCallMemoryOptions = {
  bytes: 50e6,
  blocks: 10,
  target: 3,
  // The last commit before call --json was streamed (it printed JSON.stringify(document, null, 2)).
  oldRef: process.env.BENCH_JSON_OLD_REF ?? '776cc8307c1cef2e329fb77900994c1145829a64',
  seed: 11,
};

interface Turn {
  /** Peak RSS of the noop call's process and of the large call's process, bytes. */
  readonly base: number;
  readonly large: number;
  /** The large call's stdout ended before the whole document (the old CLI exits 2 s after its last write, drained or not). */
  readonly cut: boolean;
}

interface Run {
  readonly peak: number;
  readonly complete: boolean;
}

/** Builds dist/cli.js of `ref` in `dir` (that commit's sources and esbuild.js, this repository's node_modules); returns its path. */
function buildOldCli(ref: string, dir: string): string {
  const tar = join(dir, 'src.tar');
  execFileSync('git', ['archive', '--output', tar, ref, 'esbuild.js', 'package.json', 'tsconfig.json', 'src'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync('tar', ['-xf', tar, '-C', dir]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['esbuild.js'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  return join(dir, 'dist', 'cli.js');
}

/**
 * Runs one `mcp-host call … --json` to its end; resolves with its peak RSS and whether stdout held
 * the whole document (at least `minBytes`, ending with `}` and a newline). stdout is counted, not
 * kept. `mustComplete`: an incomplete document rejects (the new CLI writes it all).
 */
function runCall(cli: string, args: readonly string[], minBytes: number, env: NodeJS.ProcessEnv, mustComplete: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', join(__dirname, 'clients', 'peakRss.cjs'), cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let outBytes = 0;
    let tail = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      outBytes += d.length;
      tail = (tail + d.toString('latin1')).slice(-200);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-3000)));
    child.once('error', reject);
    child.once('close', (code) => {
      const peak = /bench-peak-rss (\d+)/.exec(err);
      const complete = outBytes >= minBytes && tail.endsWith('}\n');
      if (code !== 0 || (mustComplete && !complete) || !peak) {
        reject(new Error(`${cli} ${args.slice(0, 2).join(' ')} … exited ${code} after ${outBytes} bytes of stdout (ending ${JSON.stringify(tail.slice(-40))}); stderr ${err.trim().slice(-500)}`));
      } else {
        resolve({ peak: Number(peak[1]), complete });
      }
    });
  });
}

export async function jsonCallMemory(opts: JsonCallMemoryOptions = JSON_CALL_MEMORY_DEFAULTS): Promise<BenchResult> {
  const tmp = makeTempDir('jsoncall');
  try {
    // --baseline: the old checkout's own CLI (see baseline.ts); otherwise the one built from oldRef.
    const base = baseline();
    const oldCli = base ? base.cli : buildOldCli(opts.oldRef, tmp.dir);
    const [command, ...args] = serverCommand('largeText');
    // Each CLI in a workspace and config of its own, reviewed by itself (`mcp-host lock`).
    const workspace = (cli: string, name: string) => {
      const env = cliEnv(join(tmp.dir, `config-${name}`));
      const settings = { 'mcpHost.servers': { large: { command, args, env: nodeEnv() } }, 'mcpHost.autoApprove': ['large/*'], 'mcpHost.audit.path': join(tmp.dir, `audit-${name}.jsonl`) };
      return { env, ws: reviewedWorkspace(join(tmp.dir, `ws-${name}`), settings, env, cli) };
    };
    const spaces = new Map([
      [CLI, workspace(CLI, 'new')],
      [oldCli, workspace(oldCli, 'old')],
    ]);
    const call = (cli: string, tool: string, toolArgs: object, minBytes: number) => {
      const { env, ws } = spaces.get(cli)!;
      return runCall(cli, ['call', `large__${tool}`, '--args', JSON.stringify(toolArgs), '--json', '--workspace', ws, '--yes'], minBytes, env, cli === CLI);
    };
    const turn = (cli: string) => async (): Promise<Turn> => {
      const base = await call(cli, 'noop', {}, 2);
      // The document carries the text once (content; the model text is cut to the model's budget).
      const large = await call(cli, 'text', { bytes: opts.bytes }, opts.bytes);
      return { base: base.peak, large: large.peak, cut: !large.complete };
    };

    // Warm-up (file caches, each CLI's compile cache), untimed.
    await turn(oldCli)();
    await turn(CLI)();
    const { blocks } = await rotate({ rawA: turn(oldCli), rawB: turn(oldCli), host: turn(CLI) }, { blocks: opts.blocks, seed: opts.seed, between: () => settle(20) });

    const growth = (t: Turn) => t.large - t.base;
    const c = compare(blocks, (turns) => turns.map(growth));
    const multiple = (side: 'rawA' | 'rawB' | 'host') => (bs: readonly Block<Turn>[]) => median(pooled(bs, (b) => b[side].map(growth))) / opts.bytes;
    const mb = `${opts.bytes / 1e6} MB`;
    const ref = base ? base.commit : opts.oldRef.slice(0, 12);
    const oldRuns = blocks.flatMap((b) => [...b.rawA, ...b.rawB]);
    const cut = `; the old CLI's document was cut short (it exited before stdout drained) in ${oldRuns.filter((t) => t.cut).length} of its ${oldRuns.length} runs`;
    return {
      rows: [
        {
          id: 'jsonCall.peakRss',
          kind: 'memory',
          name: `call --json of a ${mb} text result: peak RSS growth ÷ result size`,
          value: round(multiple('host')(blocks), 3),
          unit: '×',
          ci: blockBootstrap(blocks, multiple('host')),
          target: { op: '<=', value: opts.target },
          detail:
            `new ${fmtMB(c.host)} (peak RSS of the ${mb} call − of a noop call, fresh processes, median of ${opts.blocks}); ` +
            `old (${ref}, one JSON.stringify) A ${multiple('rawA')(blocks).toFixed(2)}× (${fmtMB(c.rawA)}), B ${multiple('rawB')(blocks).toFixed(2)}×; noop call's peak RSS new ${fmtMB(median(pooled(blocks, (b) => b.host.map((t) => t.base))))}${cut}`,
        },
        {
          id: 'jsonCall.newOld',
          name: `call --json of a ${mb} text result: peak RSS growth, streamed ÷ old (${ref})`,
          value: round(c.value, 4),
          unit: '×',
          ci: c.ci,
          aa: c.aa,
          detail: `new ${fmtMB(c.host)} vs old ${fmtMB(c.raw)} (old A ${fmtMB(c.rawA)}, old B ${fmtMB(c.rawB)}); A/A (old B ÷ old A) ${fmtCi(c.aa.value, c.aa.ci)}`,
        },
      ],
      data: {
        options: opts,
        turns: blocks.map((b) => ({ oldA: b.rawA, oldB: b.rawB, new: b.host })),
      },
    };
  } finally {
    tmp.remove();
  }
}

if (require.main === module) {
  jsonCallMemory().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
