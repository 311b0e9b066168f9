/**
 * 4. Registry scale: S servers × T tools with realistic schemas (bench/toolGenerator.ts).
 * - full: a ToolRegistry from scratch with every server's list and one naming pass over all of
 *   them, + a RolePolicy with the role filter and confirmation rule (as McpHost.exposedTools does)
 *   + toModelTools. Median of repeated runs, each on fresh tool objects.
 * - sequential (report): the same, but one setServerTools per server as servers connect one by one.
 * - incremental: one server's refresh after list_changed (a fresh wire copy with one changed
 *   description) through registry.setServerTools, which diffs and rebuilds. Median of repeated runs.
 * - heap growth of a built registry + model definitions (gc before/after; gc is exposed at run time,
 *   no --expose-gc flag needed).
 * Absolute targets, printed next to a baseline from the same run: JSON.stringify of the same lists.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toModelTools } from '../src/core/agent/agentLoop';
import type { ExposedTool } from '../src/core/host/mcpHost';
import { ConfirmationPolicy } from '../src/core/policy/confirmationPolicy';
import { RolePolicy } from '../src/core/policy/rolePolicy';
import { emptySettings, type RoleSettings, type ServerSettings } from '../src/core/settings/hostSettings';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { fmtMs, type BenchResult } from './common';
import { median, round } from './stats';
import { generateTools, wireCopy } from './toolGenerator';

export interface RegistryScaleOptions {
  readonly servers: number;
  readonly toolsPerServer: number;
  readonly fullRuns: number;
  readonly incrementalRuns: number;
  readonly fullTargetMs: number;
  readonly incrementalTargetMs: number;
}

export const REGISTRY_DEFAULTS: RegistryScaleOptions = {
  servers: 20,
  toolsPerServer: 250,
  fullRuns: 15,
  incrementalRuns: 40,
  fullTargetMs: 25,
  incrementalTargetMs: 5,
};

/** gc() without --expose-gc on the command line (the flag can be set at run time). */
export function getGc(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

interface Fixture {
  names: string[];
  lists: Tool[][];
  serverSettings: ServerSettings[];
  role: RoleSettings;
  settings: ReturnType<typeof emptySettings>;
}

function makeFixture(opts: RegistryScaleOptions): Fixture {
  const names = Array.from({ length: opts.servers }, (_, i) => `server-${String(i).padStart(2, '0')}`);
  const lists = names.map((_, i) => generateTools(i, opts.toolsPerServer));
  const serverSettings: ServerSettings[] = names.map((name) => ({
    name,
    type: 'stdio',
    enabled: true,
    command: 'node',
    args: [],
    env: {},
    connectTimeoutMs: 15_000,
  }));
  // A realistic role: most servers, all their tools minus destructive ones, some auto-approved.
  const role: RoleSettings = {
    name: 'support',
    servers: names.slice(0, Math.max(1, names.length - 2)),
    tools: ['*/*'],
    exclude: ['*/delete_*', '*/archive_*'],
    autoApprove: ['*/get_*', '*/list_*', '*/search_*'],
    confirm: ['server-00/*'],
  };
  const settings = { ...emptySettings(), servers: serverSettings, roles: [role], activeRole: role.name };
  return { names, lists, serverSettings, role, settings };
}

/**
 * What the host does to hand a role's tools to a model, from scratch.
 * - `single`: one full naming pass over every list (the lists are loaded while the registry's server
 *   order is still empty, so those rebuilds are empty; `configure` then rebuilds once with all).
 * - `sequential`: one setServerTools per server in settings order, each rebuilding every name so
 *   far, which is what happens while servers connect one after another.
 */
function buildAll(f: Fixture, how: 'single' | 'sequential' = 'single'): { registry: ToolRegistry; defs: ReturnType<typeof toModelTools> } {
  const registry = new ToolRegistry('prefix', how === 'single' ? [] : f.names);
  for (let i = 0; i < f.names.length; i++) registry.setServerTools(f.names[i], f.lists[i]);
  if (how === 'single') registry.configure('prefix', f.names);
  const rolePolicy = new RolePolicy(f.role, f.serverSettings);
  const confirmation = new ConfirmationPolicy(f.settings, f.role);
  const exposed: ExposedTool[] = [];
  for (const entry of registry.entries()) {
    if (!rolePolicy.allows(entry.server, entry.tool.name)) continue;
    exposed.push({ entry, rule: confirmation.rule(entry.server, entry.tool.name) });
  }
  return { registry, defs: toModelTools(exposed) };
}

export async function registryScale(opts: RegistryScaleOptions = REGISTRY_DEFAULTS): Promise<BenchResult> {
  const gc = getGc();
  const total = opts.servers * opts.toolsPerServer;

  gc();
  const heapBeforeInput = process.memoryUsage().heapUsed;
  const f = makeFixture(opts);
  gc();
  const heapInput = process.memoryUsage().heapUsed - heapBeforeInput;
  const inputBytes = f.lists.reduce((n, l) => n + Buffer.byteLength(JSON.stringify(l)), 0);

  // --- full build (single naming pass) and sequential load, interleaved ------------------------
  const fullTimes: number[] = [];
  const seqTimes: number[] = [];
  const stringifyAll: number[] = [];
  let exposedCount = 0;
  let firstFull = 0;
  for (let run = 0; run < opts.fullRuns; run++) {
    // Fresh tool objects each run (definition hashes are cached per object), as after a reload.
    const fresh = () => ({ ...f, lists: f.lists.map((l) => l.map((t) => ({ ...t }))) });
    const order = run % 2 === 0 ? (['single', 'sequential'] as const) : (['sequential', 'single'] as const);
    for (const how of order) {
      const fr = fresh();
      const t0 = performance.now();
      const { registry, defs } = buildAll(fr, how);
      const dt = performance.now() - t0;
      if (registry.entries().length !== total) throw new Error(`registry has ${registry.entries().length} entries, expected ${total}`);
      if (how === 'single') {
        if (run === 0) firstFull = dt;
        fullTimes.push(dt);
        exposedCount = defs.length;
      } else {
        seqTimes.push(dt);
      }
      registry.dispose();
    }

    const s0 = performance.now();
    let bytes = 0;
    for (const l of f.lists) bytes += JSON.stringify(l).length;
    stringifyAll.push(performance.now() - s0);
    if (bytes === 0) throw new Error('unreachable');
  }

  // --- heap of a built registry + model definitions -------------------------------------------
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  let kept: ReturnType<typeof buildAll> | undefined = buildAll({ ...f, lists: f.lists.map((l) => l.map((t) => ({ ...t }))) });
  gc();
  const heapGrowth = process.memoryUsage().heapUsed - heap0;
  kept.registry.dispose();
  kept = undefined;

  // --- incremental refresh of one server ------------------------------------------------------
  const { registry } = buildAll(f);
  const target = Math.min(7, opts.servers - 1);
  const serverName = f.names[target];
  // Prepared outside the timed region: fresh wire copies alternating one tool's description.
  const changedIndex = 42 % opts.toolsPerServer;
  const variants = Array.from({ length: opts.incrementalRuns + 1 }, (_, i) => {
    const copy = wireCopy(f.lists[target]);
    copy[changedIndex] = { ...copy[changedIndex], description: `${copy[changedIndex].description} (revision ${i})` };
    return copy;
  });
  registry.setServerTools(serverName, variants[0]);
  const incTimes: number[] = [];
  const stringifyOne: number[] = [];
  let events = 0;
  for (let i = 1; i <= opts.incrementalRuns; i++) {
    const t0 = performance.now();
    const ev = registry.setServerTools(serverName, variants[i]);
    incTimes.push(performance.now() - t0);
    if (ev && ev.changed.length === 1 && ev.added.length === 0 && ev.removed.length === 0) events++;
    const s0 = performance.now();
    if (JSON.stringify(variants[i]).length === 0) throw new Error('unreachable');
    stringifyOne.push(performance.now() - s0);
  }
  registry.dispose();
  if (events !== opts.incrementalRuns) throw new Error(`expected one changed tool per refresh, got ${events}/${opts.incrementalRuns} such events`);

  const full = median(fullTimes);
  const seq = median(seqTimes);
  const inc = median(incTimes);
  const sAll = median(stringifyAll);
  const sOne = median(stringifyOne);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  return {
    rows: [
      {
        id: 'registry.full',
        name: `Registry full build: ${opts.servers}×${opts.toolsPerServer} tools → one naming pass + role filter + model tool defs (median of ${opts.fullRuns})`,
        value: round(full, 2),
        unit: 'ms',
        target: `≤ ${opts.fullTargetMs} ms`,
        pass: full <= opts.fullTargetMs,
        detail: `${fmtMs(full)} (first run ${fmtMs(firstFull)}) vs baseline JSON.stringify of the same lists ${fmtMs(sAll)} (${(full / sAll).toFixed(1)}×); ${exposedCount} of ${total} tools exposed to the role`,
      },
      {
        id: 'registry.sequential',
        name: `Registry loaded one server at a time (${opts.servers} setServerTools, each renaming all so far) + role filter + defs`,
        value: round(seq, 2),
        unit: 'ms',
        target: 'report',
        detail: `${fmtMs(seq)} = ${(seq / full).toFixed(1)}× the single pass; total CPU while ${opts.servers} servers connect one by one (each step ≤ one full rebuild)`,
      },
      {
        id: 'registry.incremental',
        name: `Registry incremental refresh of one server (${opts.toolsPerServer} tools, one description changed; diff + rebuild) (median of ${opts.incrementalRuns})`,
        value: round(inc, 2),
        unit: 'ms',
        target: `≤ ${opts.incrementalTargetMs} ms`,
        pass: inc <= opts.incrementalTargetMs,
        detail: `${fmtMs(inc)} vs baseline JSON.stringify of that server's list ${fmtMs(sOne)} (${(inc / sOne).toFixed(1)}×)`,
      },
      {
        id: 'registry.heap',
        name: 'Registry heap growth (built registry + model tool defs, after gc)',
        value: round(heapGrowth / 1024 / 1024, 2),
        unit: 'MB',
        target: 'report',
        detail: `${mb(heapGrowth)} for ${total} tools (${(heapGrowth / total).toFixed(0)} B/tool) vs the tool lists themselves ${mb(heapInput)} on the heap, ${mb(inputBytes)} as JSON`,
      },
    ],
    data: {
      options: opts,
      fullMs: fullTimes.map((x) => round(x, 3)),
      sequentialMs: seqTimes.map((x) => round(x, 3)),
      incrementalMs: incTimes.map((x) => round(x, 3)),
      stringifyAllMs: stringifyAll.map((x) => round(x, 3)),
      stringifyOneMs: stringifyOne.map((x) => round(x, 3)),
      heapGrowthBytes: heapGrowth,
      inputHeapBytes: heapInput,
      inputJsonBytes: inputBytes,
      exposedCount,
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
