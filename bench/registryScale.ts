/**
 * Registry scale: S servers × T tools with realistic schemas (bench/toolGenerator.ts).
 * - full: a ToolRegistry from scratch with every server's list and one naming pass, the role
 *   filter and confirmation rule, and the model tool definitions (hostUnderTest.buildRoleDefinitions).
 *   Fresh tool objects each run (definition hashes are cached per object), as after a reload.
 * - refresh: one server's list changed (a fresh wire copy with one changed description) through the
 *   registry's update, which diffs and renames.
 * - heap growth of a built registry + definitions (gc before/after; reported).
 * Absolute targets; each run is a block of the bootstrap (interval of the median). Printed next to
 * a baseline from the same run: JSON.stringify of the same lists.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Tool } from '@modelcontextprotocol/client';
import { fmtMs, type BenchResult } from './common';
import { buildRoleDefinitions, type BuiltRegistry, type RegistryFixture } from './hostUnderTest';
import { blockBootstrap, median, round } from './stats';
import { generateTools, wireCopy } from './toolGenerator';

export interface RegistryScaleOptions {
  readonly servers: number;
  readonly toolsPerServer: number;
  readonly fullRuns: number;
  readonly refreshRuns: number;
  readonly fullTargetMs: number;
  readonly refreshTargetMs: number;
}

export const REGISTRY_DEFAULTS: RegistryScaleOptions = { servers: 100, toolsPerServer: 250, fullRuns: 30, refreshRuns: 60, fullTargetMs: 50, refreshTargetMs: 2 };

/** gc() without --expose-gc on the command line (the flag can be set at run time). */
export function getGc(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function makeFixture(opts: RegistryScaleOptions): RegistryFixture {
  const names = Array.from({ length: opts.servers }, (_, i) => `server-${String(i).padStart(3, '0')}`);
  return { names, lists: names.map((_, i) => generateTools(i, opts.toolsPerServer)) };
}

const fresh = (f: RegistryFixture): RegistryFixture => ({ names: f.names, lists: f.lists.map((l) => l.map((t) => ({ ...t }))) });

export async function registryScale(opts: RegistryScaleOptions = REGISTRY_DEFAULTS): Promise<BenchResult> {
  const gc = getGc();
  const total = opts.servers * opts.toolsPerServer;
  const f = makeFixture(opts);
  const inputBytes = f.lists.reduce((n, l) => n + Buffer.byteLength(JSON.stringify(l)), 0);

  // --- full build ---
  const fullTimes: number[] = [];
  const stringifyAll: number[] = [];
  let definitions = 0;
  for (let run = 0; run < opts.fullRuns; run++) {
    const input = fresh(f);
    gc();
    const t0 = performance.now();
    const built = buildRoleDefinitions(input);
    fullTimes.push(performance.now() - t0);
    if (built.entries !== total) throw new Error(`registry has ${built.entries} entries, expected ${total}`);
    definitions = built.definitions;
    built.dispose();

    const s0 = performance.now();
    let bytes = 0;
    for (const l of f.lists) bytes += JSON.stringify(l).length;
    stringifyAll.push(performance.now() - s0);
    if (bytes === 0) throw new Error('unreachable');
  }

  // --- heap of a built registry + model definitions ---
  const input = fresh(f);
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  let kept: BuiltRegistry | undefined = buildRoleDefinitions(input);
  gc();
  const heapGrowth = process.memoryUsage().heapUsed - heap0;
  kept.dispose();
  kept = undefined;

  // --- one server's refresh ---
  const built = buildRoleDefinitions(fresh(f));
  const target = Math.min(7, opts.servers - 1);
  const serverName = f.names[target];
  const changedIndex = 42 % opts.toolsPerServer;
  // Prepared outside the timed region: fresh wire copies alternating one tool's description.
  const variants = Array.from({ length: opts.refreshRuns + 1 }, (_, i) => {
    const copy = wireCopy(f.lists[target] as Tool[]);
    copy[changedIndex] = { ...copy[changedIndex], description: `${copy[changedIndex].description} (revision ${i})` };
    return copy;
  });
  built.refresh(serverName, variants[0]);
  const refreshTimes: number[] = [];
  const stringifyOne: number[] = [];
  let oneChange = 0;
  for (let i = 1; i <= opts.refreshRuns; i++) {
    const t0 = performance.now();
    const ok = built.refresh(serverName, variants[i]);
    refreshTimes.push(performance.now() - t0);
    if (ok) oneChange++;
    const s0 = performance.now();
    if (JSON.stringify(variants[i]).length === 0) throw new Error('unreachable');
    stringifyOne.push(performance.now() - s0);
  }
  built.dispose();
  if (oneChange !== opts.refreshRuns) throw new Error(`expected one changed tool per refresh, got ${oneChange}/${opts.refreshRuns} such events`);

  const full = median(fullTimes);
  const refresh = median(refreshTimes);
  const sAll = median(stringifyAll);
  const sOne = median(stringifyOne);
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  return {
    rows: [
      {
        id: 'registry.full',
        name: `Registry: ${opts.servers} servers × ${opts.toolsPerServer} tools, full build + role filter + model definitions (median of ${opts.fullRuns})`,
        value: round(full, 2),
        unit: 'ms',
        ci: blockBootstrap(fullTimes, median),
        target: { op: '<=', value: opts.fullTargetMs },
        detail: `${fmtMs(full)} (first run ${fmtMs(fullTimes[0])}) vs baseline JSON.stringify of the same lists ${fmtMs(sAll)} (${(full / sAll).toFixed(2)}×); ${definitions} of ${total} tools exposed to the role`,
      },
      {
        id: 'registry.refresh',
        name: `Registry: one server's refresh (${opts.toolsPerServer} tools, one description changed; diff + rename) (median of ${opts.refreshRuns})`,
        value: round(refresh, 3),
        unit: 'ms',
        ci: blockBootstrap(refreshTimes, median),
        target: { op: '<=', value: opts.refreshTargetMs },
        detail: `${fmtMs(refresh)} among ${total} tools vs baseline JSON.stringify of that server's list ${fmtMs(sOne)} (${(refresh / sOne).toFixed(1)}×)`,
      },
      {
        id: 'registry.heap',
        name: 'Registry heap growth (built registry + model definitions, after gc)',
        value: round(heapGrowth / 1e6, 2),
        unit: 'MB',
        detail: `${mb(heapGrowth)} for ${total} tools (${(heapGrowth / total).toFixed(0)} B/tool) vs ${mb(inputBytes)} of tool lists as JSON`,
      },
    ],
    data: {
      options: opts,
      fullMs: fullTimes.map((x) => round(x, 3)),
      refreshMs: refreshTimes.map((x) => round(x, 3)),
      stringifyAllMs: stringifyAll.map((x) => round(x, 3)),
      stringifyOneMs: stringifyOne.map((x) => round(x, 3)),
      heapGrowthBytes: heapGrowth,
      inputJsonBytes: inputBytes,
      definitions,
    },
  };
}

if (require.main === module) {
  registryScale().then(
    (r) => console.log(JSON.stringify(r.rows, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
