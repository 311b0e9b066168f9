/**
 * Large text results: one tools/call whose result is a 10 MB or 50 MB text (bench/servers/largeText.mjs,
 * which writes a prepared answer so that its own cost is small and linear), host vs raw SDK, each
 * side in a process of its own (bench/clients/largeResultRunner.ts) with its own server process. The raw SDK's stdio ReadBuffer refuses messages over 10 MiB and is quadratic below
 * that (it concatenates the whole buffer on every chunk: 50 MB took 31 s here with `maxBufferSize`
 * raised, the documented StdioClientTransport option), so the raw side reads with LinearReadBuffer:
 * the SDK's Client and StdioClientTransport with only the reader replaced (same contract, same
 * deserializeMessage, one join per message). The host gets no such help.
 *
 * Each block runs raw A, raw B (A/A) and the host in a shuffled order; each side's turn makes one
 * call of each size (sizes in a shuffled order too). Before each call the runner collects garbage and
 * resets its peak RSS (/proc/self/clear_refs 5); after it, it reads VmHWM: the peak RSS growth of the call.
 * A warm-up call of each size comes first; a side that fails a size there (today the host above
 * 10 MiB) is not asked that size again, and the rows that need it FAIL with its error.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { baseline, BASELINE_TARGET, yardstick } from './baseline';
import { compare, errorText, fmtCi, fmtMB, fmtMs, rotate, SIDES, type BenchResult, type Block, type Row, type SideName } from './common';
import { blockBootstrap, median, pooled, prng, round, shuffled } from './stats';

export interface LargeResultOptions {
  readonly smallBytes: number;
  readonly largeBytes: number;
  /**
   * Each block is a set of fresh runner processes (each side's process and server started anew,
   * warmed up), making `rounds` calls of each size per side: a process's heap settles into one of a
   * few layouts for 50 MB messages (±10 % in time and peak RSS, the same for every call it makes),
   * so one process per side would measure its draw, not the code; and the interval resamples
   * whole processes.
   */
  readonly blocks: number;
  readonly rounds: number;
  readonly timeTarget: number;
  readonly rssTarget: number;
  readonly linearTarget: number;
  readonly seed: number;
}

export const LARGE_DEFAULTS: LargeResultOptions = { smallBytes: 10e6, largeBytes: 50e6, blocks: 15, rounds: 2, timeTarget: 1.2, rssTarget: 3, linearTarget: 6, seed: 4 };

interface CallSample {
  readonly ms: number;
  readonly rssBefore: number;
  readonly peak: number;
}

type Turn = Record<number, CallSample | undefined>;

class Runner {
  private child: ChildProcess;
  private waiting?: { resolve(m: Record<string, unknown>): void };
  private stderr = '';
  private fatal?: string;
  readonly ready: Promise<void>;

  /** `old`: the old host (--baseline), its own checkout's runner with side 'host'. */
  constructor(readonly side: 'host' | 'raw' | 'old') {
    const old = side === 'old' ? baseline() : undefined;
    if (side === 'old' && !old) throw new Error('an old-host runner without --baseline');
    const script = old ? old.benchFile(join('clients', 'largeResultRunner.ts')) : join(__dirname, 'clients', 'largeResultRunner.ts');
    this.child = fork(script, [old ? 'host' : side], {
      execArgv: ['--expose-gc', '--require', join(__dirname, 'register.cjs')],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-3000)));
    let readyResolve!: () => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => ((readyResolve = res), (readyReject = rej)));
    // Awaited where it matters; a runner that dies early must not be an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
    this.child.on('message', (m: Record<string, unknown>) => {
      if (m.ready) return readyResolve();
      if (m.fatal) {
        this.fatal = String(m.fatal);
        readyReject(new Error(this.fatal));
      }
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve(m);
    });
    this.child.once('exit', (code, signal) => {
      const why = this.fatal ?? `runner exited (code ${code}, signal ${signal}) ${this.stderr.trim().slice(-500)}`;
      this.fatal = why;
      readyReject(new Error(why));
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve({ fatal: why });
    });
  }

  get alive(): boolean {
    return this.fatal === undefined;
  }

  async call(bytes: number): Promise<CallSample> {
    if (this.fatal) throw new Error(this.fatal);
    const answer = await new Promise<Record<string, unknown>>((resolve) => {
      this.waiting = { resolve };
      this.child.send({ bytes });
    });
    if (answer.fatal) throw new Error(String(answer.fatal));
    if (answer.error) throw new Error(String(answer.error));
    if (answer.chars !== bytes) throw new Error(`expected a text of ${bytes} characters, got ${answer.chars}`);
    if (!answer.peakReset) throw new Error('cannot reset the peak RSS (/proc/self/clear_refs)');
    return { ms: answer.ms as number, rssBefore: answer.rssBefore as number, peak: answer.peak as number };
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    if (this.alive) this.child.send({ close: true });
    else this.child.kill('SIGKILL');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export async function largeResult(opts: LargeResultOptions = LARGE_DEFAULTS): Promise<BenchResult> {
  const sizes = [opts.smallBytes, opts.largeBytes];
  // --baseline: the A/A pair is two old hosts (see baseline.ts).
  const old = baseline();
  const pair = old ? 'old' : 'raw';
  const raw = old ? yardstick() : 'raw SDK (LinearReadBuffer)';
  const runners: Record<SideName, Runner> = { rawA: new Runner(pair), rawB: new Runner(pair), host: new Runner('host') };
  /** side → size → the error that side gave for that size in the warm-up. */
  const failed: Record<SideName, Map<number, string>> = { rawA: new Map(), rawB: new Map(), host: new Map() };
  try {
    for (const side of SIDES) {
      try {
        await runners[side].ready;
      } catch (e) {
        throw new Error(`the ${side} runner did not start: ${errorText(e)}`, { cause: e });
      }
    }
    // Warm-up, one call of each size per side; a size a side fails is not asked again.
    const warmUp = async (side: SideName) => {
      for (const bytes of sizes) {
        if (failed[side].has(bytes)) continue;
        try {
          await runners[side].call(bytes);
        } catch (e) {
          failed[side].set(bytes, errorText(e));
          if (!runners[side].alive) {
            await runners[side].close();
            runners[side] = new Runner(runners[side].side);
            await runners[side].ready;
          }
        }
      }
    };
    for (const side of SIDES) await warmUp(side);
    for (const side of ['rawA', 'rawB'] as const) {
      if (failed[side].size) throw new Error(`the ${raw} side failed: ${[...failed[side].values()].join('; ')}`);
    }

    const rand = prng(opts.seed * 7919);
    const turn = (side: SideName) => async (): Promise<Turn> => {
      const out: Turn = {};
      for (const bytes of shuffled(sizes, rand)) {
        if (failed[side].has(bytes)) continue;
        out[bytes] = await runners[side].call(bytes);
      }
      return out;
    };
    const blocks: Block<Turn>[] = [];
    for (let b = 0; b < opts.blocks; b++) {
      if (b > 0) {
        // Fresh processes for every side (see LargeResultOptions.blocks), warmed up like the first.
        await Promise.all(SIDES.map((side) => runners[side].close()));
        for (const side of SIDES) runners[side] = new Runner(runners[side].side);
        for (const side of SIDES) await runners[side].ready;
        for (const side of SIDES) await warmUp(side);
      }
      blocks.push(...(await rotate({ rawA: turn('rawA'), rawB: turn('rawB'), host: turn('host') }, { blocks: 1, rounds: opts.rounds, seed: opts.seed + b })).blocks);
    }

    /** The samples of one size in a side's turns (`rounds` turns per block). */
    const samples = (turns: readonly Turn[], bytes: number) => turns.flatMap((t) => (t[bytes] ? [t[bytes]!] : []));
    const time = (bytes: number) => (turns: readonly Turn[]) => samples(turns, bytes).map((c) => c.ms);
    const growth = (s: CallSample) => s.peak - s.rssBefore;
    const mbLabel = (b: number) => `${b / 1e6} MB`;
    const large = mbLabel(opts.largeBytes);
    const small = mbLabel(opts.smallBytes);
    const hostFail = (bytes: number) => failed.host.get(bytes);
    const rows: Row[] = [];

    // host ÷ raw time, per size
    for (const bytes of [opts.largeBytes, opts.smallBytes]) {
      const label = mbLabel(bytes);
      const judged = bytes === opts.largeBytes;
      const err = hostFail(bytes);
      if (err) {
        rows.push({
          id: `large.time.${label.replace(' ', '')}`,
          name: `${label} text result: host ÷ raw SDK time`,
          value: NaN,
          unit: '×',
          ...(judged ? { target: { op: '<=' as const, value: opts.timeTarget } } : {}),
          error: `the host failed the ${label} call: ${err}`,
          detail: `${raw} ${fmtMs(median(pooled(blocks, (b) => [...time(bytes)(b.rawA), ...time(bytes)(b.rawB)])))}`,
        });
        continue;
      }
      const c = compare(blocks, time(bytes));
      rows.push({
        id: `large.time.${label.replace(' ', '')}`,
        name: `${label} text result: host ÷ ${old ? raw : 'raw SDK'} time${old ? '' : ' (raw reads with LinearReadBuffer)'}`,
        value: round(c.value, 4),
        unit: '×',
        ci: c.ci,
        aa: c.aa,
        ...(judged || old ? { target: { op: '<=' as const, value: old ? BASELINE_TARGET : opts.timeTarget } } : {}),
        detail: `host ${fmtMs(c.host)} vs ${raw} ${fmtMs(c.raw)} (A ${fmtMs(c.rawA)}, B ${fmtMs(c.rawB)}), median of ${opts.blocks * opts.rounds} calls, ${opts.blocks} sets of fresh processes; A/A ${fmtCi(c.aa.value, c.aa.ci)}`,
      });
    }

    // host peak RSS growth ÷ result size, at the large size
    {
      const err = hostFail(opts.largeBytes);
      const multiple = (side: SideName) => (bs: readonly Block<Turn>[]) => median(pooled(bs, (b) => samples(b[side], opts.largeBytes).map(growth))) / opts.largeBytes;
      const rawMultiple = multiple('rawA')(blocks);
      rows.push(
        err
          ? {
              id: 'large.peakRss',
              name: `${large} text result: host peak RSS growth ÷ result size`,
              value: NaN,
              unit: '×',
              target: { op: '<=', value: opts.rssTarget },
              error: `the host failed the ${large} call: ${err}`,
              detail: `${raw} ${rawMultiple.toFixed(2)}× (${fmtMB(rawMultiple * opts.largeBytes)})`,
            }
          : {
              id: 'large.peakRss',
              name: `${large} text result: host peak RSS growth during the call ÷ result size`,
              kind: 'memory',
              value: round(multiple('host')(blocks), 3),
              unit: '×',
              ci: blockBootstrap(blocks, multiple('host')),
              target: { op: '<=', value: opts.rssTarget },
              detail:
                `host ${fmtMB(multiple('host')(blocks) * opts.largeBytes)} (VmHWM after the call − VmRSS before, after a GC, median of ${opts.blocks * opts.rounds} calls, ${opts.blocks} sets of fresh processes); ` +
                `${raw} A ${rawMultiple.toFixed(2)}× (${fmtMB(rawMultiple * opts.largeBytes)}), B ${multiple('rawB')(blocks).toFixed(2)}×`,
            },
      );
    }

    // --baseline: the same peak RSS growth, new ÷ old, with the old pair as A/A
    if (old && !hostFail(opts.largeBytes)) {
      const g = compare(blocks, (turns) => samples(turns, opts.largeBytes).map(growth));
      rows.push({
        id: 'large.peakRss.vsOld',
        kind: 'memory',
        name: `${large} text result: peak RSS growth during the call, host ÷ ${raw}`,
        value: round(g.value, 4),
        unit: '×',
        ci: g.ci,
        aa: g.aa,
        target: { op: '<=', value: BASELINE_TARGET },
        detail: `host ${fmtMB(g.host)} vs ${raw} ${fmtMB(g.raw)} (A ${fmtMB(g.rawA)}, B ${fmtMB(g.rawB)}), median of ${opts.blocks * opts.rounds} calls, ${opts.blocks} sets of fresh processes; A/A ${fmtCi(g.aa.value, g.aa.ci)}`,
      });
    }

    // linearity: host time at the large size ÷ at the small size
    {
      const err = hostFail(opts.largeBytes) ?? hostFail(opts.smallBytes);
      const scale = (side: SideName) => (bs: readonly Block<Turn>[]) =>
        median(pooled(bs, (b) => time(opts.largeBytes)(b[side]))) / median(pooled(bs, (b) => time(opts.smallBytes)(b[side])));
      const factor = opts.largeBytes / opts.smallBytes;
      const rawTimes = (bytes: number) => pooled(blocks, (b) => [...time(bytes)(b.rawA), ...time(bytes)(b.rawB)]);
      const rawPooledScale = median(rawTimes(opts.largeBytes)) / median(rawTimes(opts.smallBytes));
      const rawScale = `${raw} A ${scale('rawA')(blocks).toFixed(2)}×, B ${scale('rawB')(blocks).toFixed(2)}×`;
      rows.push(
        err
          ? {
              id: 'large.linear',
              name: `Large results in linear time: host ${large} time ÷ ${small} time`,
              value: NaN,
              unit: '×',
              target: { op: '<=', value: opts.linearTarget },
              error: `the host failed a call: ${err}`,
              detail: rawScale,
            }
          : {
              id: 'large.linear',
              name: `Large results in linear time: host ${large} time ÷ ${small} time`,
              value: round(scale('host')(blocks), 3),
              unit: '×',
              ci: blockBootstrap(blocks, scale('host')),
              target: { op: '<=', value: opts.linearTarget },
              detail: `${factor}× the size; ${rawScale}; host's figure ÷ raw's (A and B pooled): ${(scale('host')(blocks) / rawPooledScale).toFixed(3)}`,
            },
      );
    }

    return {
      rows,
      data: {
        options: opts,
        hostErrors: Object.fromEntries(failed.host),
        calls: blocks.map((b) =>
          Object.fromEntries(
            SIDES.map((side) => [side, Object.fromEntries(sizes.map((s) => [s, samples(b[side], s).map((c) => ({ ms: round(c.ms, 1), growth: growth(c) }))]))]),
          ),
        ),
      },
    };
  } finally {
    await Promise.all(Object.values(runners).map((r) => r.close()));
  }
}

if (require.main === module) {
  largeResult().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
