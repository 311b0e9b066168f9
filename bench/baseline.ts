/**
 * `npm run bench -- --baseline <dir>`: the new host side by side with an old one in the same run.
 * `<dir>` is a checkout of an older commit, built (`npm run build` there, node_modules linked):
 * e.g. the last commit before the SDK v2 move, `git worktree add ../bench-old 0b0b9c2^1`.
 *
 * In that mode the rows that compare the host with the raw SDK compare it with the old host
 * instead: the A/A pair (raw A, raw B) becomes two old hosts, each with its own identical server
 * process, so a row's value is new ÷ old with its block-bootstrap interval and its A/A column is
 * old B ÷ old A (the noise floor). In-process rows load the old host through the old checkout's own
 * bench/hostUnderTest.ts (its src/ and its SDK), the CLI rows run its dist/cli.js, the large-result
 * row forks its bench/clients/largeResultRunner.ts. Rows the old code cannot have (calls to a
 * 2026-07-28 server, the gateway) and parallel start stay against the raw SDK.
 *
 * run.ts puts the directory in BENCH_BASELINE, so the processes a benchmark forks see it too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ServerSpec } from './common';
import type * as HostModule from './hostUnderTest';
import type { HostOptions, HostUnderTest } from './hostUnderTest';

export const BASELINE_ENV = 'BENCH_BASELINE';

/** The rule for every row against the old code: the upper bound of new ÷ old at most this. */
export const BASELINE_TARGET = 1.05;

export interface Baseline {
  readonly dir: string;
  /** Its commit, short. */
  readonly commit: string;
  /** "old host (29e0636b59ab)": how rows name the other side. */
  readonly label: string;
  /** Its dist/cli.js. */
  readonly cli: string;
  /** A file of the old checkout's bench/ (e.g. clients/largeResultRunner.ts). */
  benchFile(name: string): string;
  /** Its bench/hostUnderTest.ts, loaded with its own src/ (and the SDK its node_modules has). */
  hostModule(): typeof HostModule;
}

let cached: Baseline | undefined;

/** The baseline of this run, or undefined when none was asked for. Throws if its directory is not a built checkout. */
export function baseline(): Baseline | undefined {
  const raw = process.env[BASELINE_ENV];
  if (!raw) return undefined;
  const dir = resolve(raw);
  if (cached?.dir === dir) return cached;
  const cli = join(dir, 'dist', 'cli.js');
  const host = join(dir, 'bench', 'hostUnderTest.ts');
  for (const needed of [cli, host, join(dir, 'node_modules')]) {
    if (!existsSync(needed)) throw new Error(`--baseline ${dir}: ${needed} is missing (a checkout with node_modules linked and \`npm run build\` run)`);
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout: the directory names it
  }
  cached = {
    dir,
    commit,
    label: `old host (${commit})`,
    cli,
    benchFile: (name) => join(dir, 'bench', name),
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the old checkout's module, chosen at run time
    hostModule: () => require(host) as typeof HostModule,
  };
  return cached;
}

/** What the rows call the yardstick: the old host in baseline mode, else `raw`. */
export function yardstick(raw = 'raw SDK'): string {
  return baseline()?.label ?? raw;
}

/**
 * The old hosts of an A/A pair, each with `servers` (its own server processes), `options(side)`
 * (e.g. an audit file each), started and their definitions approved as the new host's are. Pushed
 * into `into` as they are made, so a caller's `finally` closes them even when one fails to start.
 */
export async function startOldPair(b: Baseline, servers: readonly ServerSpec[], options: (side: 'A' | 'B') => HostOptions, into: HostUnderTest[]): Promise<void> {
  for (const side of ['A', 'B'] as const) {
    const host = b.hostModule().createHostUnderTest(servers, options(side));
    into.push(host);
    await host.start();
    host.approveDefinitions();
  }
}
