/**
 * Runs in a fresh plain-node process (bundled by packageCost.ts, no tsx): installs the vscode
 * stand-in, requires the extension bundle and calls activate() with the given settings, then waits
 * for every configured server to connect, deactivates, checks that no child process is left, and
 * prints one JSON line.
 *   node probe.js <bundle.js> <options.json>
 * options.json: { settings, workspaceFolder, storageDir, expectServers, readyTimeoutMs }
 */
import { readFileSync } from 'node:fs';
import { descendantPidsOf } from '../test/fixtures/fixtureServers';
import { installVscodeShim, type ShimOptions } from './vscodeShim';

interface ProbeOptions extends ShimOptions {
  readonly expectServers: number;
  readonly readyTimeoutMs: number;
}

export interface ProbeResult {
  readonly requireMs: number;
  readonly activateMs: number;
  /** activate() returned → the event loop is free again (work activate queued as microtasks, e.g. spawning). */
  readonly eventLoopFreeMs: number;
  /** Synchronous time spent inside child_process.spawn() between activate() and the event loop being free. */
  readonly spawnSyncMs: number;
  readonly spawnsBeforeLoopFree: number;
  /** Servers reported connected when activate() returned. */
  readonly connectedAtReturn: number;
  /** Time from calling activate() until every server was connected (undefined: timed out). */
  readonly allConnectedMs?: number;
  readonly connected: number;
  readonly deactivateMs: number;
  readonly childrenBeforeDeactivate: number;
  readonly childrenLeft: number;
  readonly missing: readonly string[];
  readonly registered: { commands: number; participants: string[]; treeViews: string[] };
  readonly errors: readonly string[];
}

const CONNECTED = /\] connected\b.* over (stdio|streamableHttp|sse), \d+ tools/;

async function main(): Promise<void> {
  const [bundle, optionsFile] = process.argv.slice(2);
  const options = JSON.parse(readFileSync(optionsFile, 'utf8')) as ProbeOptions;
  const shim = installVscodeShim(options);
  const errors: string[] = [];
  process.on('unhandledRejection', (e) => errors.push(`unhandled rejection: ${e instanceof Error ? e.message : String(e)}`));
  // Time the synchronous part of every spawn (fork/exec happens inside the call). The bundle reads
  // `spawn` off the shared CommonJS module object at call time, so patching it here is seen there.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const childProcess = require('node:child_process') as typeof import('node:child_process');
  let spawnMs = 0;
  let spawns = 0;
  const realSpawn = childProcess.spawn;
  (childProcess as { spawn: typeof realSpawn }).spawn = function (this: unknown, ...args: Parameters<typeof realSpawn>) {
    const s0 = performance.now();
    try {
      return (realSpawn as (...a: unknown[]) => ReturnType<typeof realSpawn>).apply(this, args);
    } finally {
      spawnMs += performance.now() - s0;
      spawns++;
    }
  } as typeof realSpawn;
  const connectedCount = () => shim.output.filter((l) => CONNECTED.test(l)).length;

  const t0 = performance.now();
  let ext: { activate(ctx: unknown): unknown; deactivate?(): Promise<void> | undefined };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ext = require(bundle);
  } catch (e) {
    process.stdout.write(`PROBE ${JSON.stringify({ requireError: e instanceof Error ? e.message.split('\n')[0] : String(e) })}\n`);
    return;
  }
  const t1 = performance.now();
  let returned: unknown;
  try {
    returned = ext.activate(shim.context);
  } catch (e) {
    // activate() may have started servers before it threw: stop them before reporting.
    await stop(ext, shim);
    const missing = shim.missing.size ? ` (vscode API not in the stand-in: ${[...shim.missing].join(', ')})` : '';
    process.stdout.write(`PROBE ${JSON.stringify({ fatal: `activate() threw: ${e instanceof Error ? e.message : String(e)}${missing}` })}\n`);
    return;
  }
  const t2 = performance.now();
  const connectedAtReturn = connectedCount();
  if (returned && typeof (returned as Promise<unknown>).then === 'function') errors.push('activate() returned a promise (VS Code would wait for it)');
  await new Promise((r) => setImmediate(r));
  const t3 = performance.now();
  const spawnSyncMs = spawnMs;
  const spawnsBeforeLoopFree = spawns;

  let allConnectedMs: number | undefined;
  const deadline = t2 + options.readyTimeoutMs;
  while (performance.now() < deadline) {
    if (connectedCount() >= options.expectServers) {
      allConnectedMs = performance.now() - t1;
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const childrenBeforeDeactivate = descendantPidsOf(process.pid).length;

  const d0 = performance.now();
  const stopError = await stop(ext, shim);
  if (stopError) errors.push(stopError);
  const deactivateMs = performance.now() - d0;
  // Exited children are reaped asynchronously: give it a moment.
  let childrenLeft = descendantPidsOf(process.pid).length;
  for (let i = 0; i < 40 && childrenLeft > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    childrenLeft = descendantPidsOf(process.pid).length;
  }
  if (!allConnectedMs) errors.push(`only ${connectedCount()} of ${options.expectServers} servers connected within ${options.readyTimeoutMs} ms; output:\n${shim.output.slice(-15).join('\n')}`);

  const result: ProbeResult = {
    requireMs: t1 - t0,
    activateMs: t2 - t1,
    eventLoopFreeMs: t3 - t1,
    spawnSyncMs,
    spawnsBeforeLoopFree,
    connectedAtReturn,
    allConnectedMs,
    connected: connectedCount(),
    deactivateMs,
    childrenBeforeDeactivate,
    childrenLeft,
    missing: [...shim.missing].sort(),
    registered: { commands: shim.registered.commands.length, participants: shim.registered.participants, treeViews: shim.registered.treeViews },
    errors,
  };
  process.stdout.write(`PROBE ${JSON.stringify(result)}\n`);
  shim.uninstall();
}

/** deactivate() and dispose what activate() registered, as VS Code does on shutdown. Returns an error text. */
async function stop(ext: { deactivate?(): Promise<void> | undefined }, shim: ReturnType<typeof installVscodeShim>): Promise<string | undefined> {
  try {
    await ext.deactivate?.();
    for (const d of (shim.context.subscriptions as { dispose(): unknown }[]).splice(0).reverse()) await d.dispose();
    return undefined;
  } catch (e) {
    return `deactivate: ${e instanceof Error ? e.message : String(e)}`;
  }
}

main()
  .catch((e) => {
    process.stdout.write(`PROBE ${JSON.stringify({ fatal: e instanceof Error ? (e.stack ?? e.message) : String(e) })}\n`);
    process.exitCode = 1;
  })
  // Whatever is left (a server that would not stop) must not keep this process, and so the benchmark, waiting.
  .finally(() => setTimeout(() => process.exit(), 100).unref());
