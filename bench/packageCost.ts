/**
 * 5. Package: size of the production extension bundle (what gets shipped: `node esbuild.js
 * --production`, built here with esbuild.js's own options into a temp dir so dist/ is left alone),
 * and the time activate() takes with 10 servers configured whose `initialize` is held 300 ms, next
 * to the time to require the bundle. activate() runs in fresh plain-node processes against the
 * vscode stand-in (bench/vscodeShim.ts); it must return before any server could have answered.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';
import { fixturePath, nodeEnv } from '../test/fixtures/fixtureServers';
import { fmtMs, makeTempDir, type BenchResult, type Row } from './common';
import { blockBootstrap, median, round } from './stats';
import type { ProbeResult } from './activateProbe';

export interface PackageOptions {
  readonly servers: number;
  readonly initDelayMs: number;
  readonly reps: number;
  readonly maxBytes: number;
  /** How long to wait for src/extension.ts to appear and build. */
  readonly waitForExtensionMs: number;
}

export const PACKAGE_DEFAULTS: PackageOptions = { servers: 10, initDelayMs: 300, reps: 5, maxBytes: 1_000_000, waitForExtensionMs: 0 };

const ROOT = resolve(__dirname, '..');

/** The build options esbuild.js passes, captured by running it against a stand-in esbuild module. */
export async function esbuildJsOptions(production: boolean): Promise<BuildOptions[]> {
  const source = readFileSync(join(ROOT, 'esbuild.js'), 'utf8');
  const captured: BuildOptions[] = [];
  const fake = {
    build: async (o: BuildOptions) => {
      captured.push(o);
      return { errors: [], warnings: [] };
    },
    context: async (o: BuildOptions) => {
      captured.push(o);
      return { watch: async () => undefined, dispose: async () => undefined };
    },
  };
  const argv = [process.execPath, join(ROOT, 'esbuild.js'), ...(production ? ['--production'] : [])];
  const fakeProcess = new Proxy(process, {
    get(t, k) {
      if (k === 'argv') return argv;
      if (k === 'exit') return (code: number) => captured.push({ __exit: code } as BuildOptions);
      return Reflect.get(t, k);
    },
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const req = (id: string) => (id === 'esbuild' ? fake : require(id));
  new Function('require', 'process', 'module', 'exports', '__dirname', '__filename', source)(req, fakeProcess, { exports: {} }, {}, ROOT, join(ROOT, 'esbuild.js'));
  await new Promise((r) => setImmediate(r));
  return captured;
}

interface BundleInfo {
  readonly bytes: number;
  readonly byPackage: [string, number][];
  readonly outfile: string;
  /** The files bundled apart (esbuild.js, APART) and their bytes: required at first use, not at start. */
  readonly apart: [string, number][];
}

const MAIN_BUNDLES = ['extension.js', 'cliMain.js', 'cli.js'];

/** The extension bundle as `node esbuild.js --production` makes it, into `outDir`. */
async function buildProductionExtension(outDir: string): Promise<BundleInfo> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const configs = await esbuildJsOptions(true);
  const ext = configs.find((c) => c.outfile?.replace(/\\/g, '/').endsWith('dist/extension.js'));
  if (!ext) throw new Error(`esbuild.js defines no build with outfile dist/extension.js (found: ${configs.map((c) => c.outfile).join(', ')})`);
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'extension.js');
  const result = await esbuild.build({ ...ext, absWorkingDir: ROOT, outfile, metafile: true, logLevel: 'silent' });
  // The files apart go next to it, as in dist/, so the bundle can require them.
  const apartConfigs = configs.filter((c) => c.outfile && !MAIN_BUNDLES.includes(basename(c.outfile)));
  const apart = await Promise.all(
    apartConfigs.map(async (c): Promise<[string, number]> => {
      const file = join(outDir, basename(c.outfile!));
      await esbuild.build({ ...c, absWorkingDir: ROOT, outfile: file, logLevel: 'silent' });
      return [basename(file), statSync(file).size];
    }),
  );
  return { bytes: statSync(outfile).size, byPackage: packageShares(result.metafile!), outfile, apart: apart.sort((a, b) => b[1] - a[1]) };
}

function packageShares(meta: Metafile): [string, number][] {
  const out = Object.values(meta.outputs).find((o) => o.entryPoint);
  const agg = new Map<string, number>();
  for (const [path, v] of Object.entries(out?.inputs ?? {})) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const key = m ? m[1] : path.split('/').slice(0, 2).join('/');
    agg.set(key, (agg.get(key) ?? 0) + v.bytesInOutput);
  }
  return [...agg.entries()].sort((a, b) => b[1] - a[1]);
}

async function bundleProbe(outDir: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const outfile = join(outDir, 'probe.js');
  await esbuild.build({
    entryPoints: [join(ROOT, 'bench', 'activateProbe.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

type ProbeOutcome = ProbeResult | { requireError: string };

function runProbe(probe: string, bundle: string, optionsFile: string): Promise<ProbeOutcome> {
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [probe, bundle, optionsFile], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('PROBE '));
      if (!line) return reject(new Error(`activate probe printed no result${err ? ` (${err.message})` : ''}\n${stderr.slice(-2000)}`));
      const parsed = JSON.parse(line.slice(6));
      if (parsed.fatal) return reject(new Error(`activate probe failed: ${parsed.fatal}`));
      resolvePromise(parsed as ProbeOutcome);
    });
  });
}

async function waitForExtension(ms: number): Promise<void> {
  const file = join(ROOT, 'src', 'extension.ts');
  const deadline = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() >= deadline) throw new Error('src/extension.ts does not exist (yet): nothing to package');
    await new Promise((r) => setTimeout(r, 2000));
  }
}

export async function packageCost(opts: PackageOptions = PACKAGE_DEFAULTS): Promise<BenchResult> {
  await waitForExtension(opts.waitForExtensionMs);
  const tmp = makeTempDir('package');
  try {
    const bundle = await buildProductionExtension(tmp.dir);
    const devBundle = join(ROOT, 'dist', 'extension.js');
    const devBytes = existsSync(devBundle) ? statSync(devBundle).size : undefined;
    const probe = await bundleProbe(tmp.dir);

    const workspace = join(tmp.dir, 'workspace');
    const storage = join(tmp.dir, 'storage');
    mkdirSync(workspace, { recursive: true });
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < opts.servers; i++) {
      servers[`s${i}`] = { command: process.execPath, args: [fixturePath('basic')], env: { ...nodeEnv(), FIXTURE_INIT_DELAY_MS: String(opts.initDelayMs) } };
    }
    const optionsFile = join(tmp.dir, 'probe-options.json');
    writeFileSync(
      optionsFile,
      // The consent question before each server's first start is answered "Allow" at once (after activate() returned).
      JSON.stringify({ settings: { servers }, workspaceFolder: workspace, storageDir: storage, trusted: true, modalAnswer: 'Allow All', expectServers: opts.servers, readyTimeoutMs: 30_000 }),
    );

    // The bundle exactly as esbuild.js builds it; one that throws at require() fails the benchmark.
    const results: ProbeResult[] = [];
    while (results.length < opts.reps) {
      const r = await runProbe(probe, bundle.outfile, optionsFile);
      if ('requireError' in r) {
        throw new Error(
          `the production bundle built with esbuild.js's options throws at require(): ${r.requireError} ` +
            '(a bundled package whose "main" is a UMD build requires its own files at run time: check mainFields in esbuild.js)',
        );
      }
      results.push(r);
    }

    const requireMs = median(results.map((r) => r.requireMs));
    const activateMs = median(results.map((r) => r.activateMs));
    const loopFreeMs = median(results.map((r) => r.eventLoopFreeMs));
    const readyMs = median(results.map((r) => r.allConnectedMs ?? NaN));
    const spawnMs = median(results.map((r) => r.spawnSyncMs));
    const spawns = Math.max(...results.map((r) => r.spawnsBeforeLoopFree));
    const problems = [
      ...new Set(results.flatMap((r) => [...r.errors, ...(r.childrenLeft ? [`${r.childrenLeft} child processes left after deactivate()`] : [])])),
    ];
    const missing = [...new Set(results.flatMap((r) => r.missing))];
    const top = bundle.byPackage
      .slice(0, 4)
      .map(([k, b]) => `${k} ${(b / 1024).toFixed(0)} KB (${((100 * b) / bundle.bytes).toFixed(0)}%)`)
      .join(', ');

    const apartBytes = bundle.apart.reduce((n, [, b]) => n + b, 0);
    const apartText = `${(apartBytes / 1_000_000).toFixed(3)} MB in ${bundle.apart.length} files (${bundle.apart.map(([f, b]) => `${f} ${(b / 1024).toFixed(0)} KB`).join(', ')})`;
    const connectedAtReturn = Math.max(...results.map((r) => r.connectedAtReturn));
    const rows: Row[] = [
      {
        id: 'package.size',
        name: 'Package: production dist/extension.js (esbuild.js --production options)',
        value: round(bundle.bytes / 1_000_000, 3),
        unit: 'MB',
        kind: 'check',
        target: { op: '<=', value: opts.maxBytes / 1_000_000 },
        detail:
          `${bundle.bytes.toLocaleString('en-US')} B minified${devBytes ? ` (dist/extension.js as last built by npm run build: ${(devBytes / 1_000_000).toFixed(3)} MB)` : ''}; largest: ${top}; ` +
          `what a start reads, not all the code: bundled apart and required at first use, ${apartText}`,
      },
      {
        id: 'package.activateWaits',
        name: `Package: servers activate() waited for (${opts.servers} configured, initialize held ${opts.initDelayMs} ms; most over ${opts.reps} fresh processes)`,
        value: connectedAtReturn,
        unit: 'servers',
        kind: 'check',
        target: { op: '<=', value: 0 },
        ...(problems.length ? { error: problems.join(' | ') } : {}),
        detail:
          `servers connected when activate() returned: ${results.map((r) => r.connectedAtReturn).join('/')}; all ${opts.servers} connected after ${fmtMs(readyMs)}` +
          (missing.length ? `; vscode API not in the stand-in: ${missing.join(', ')}` : ''),
      },
      {
        id: 'package.activate',
        name: `Package: activate() time with ${opts.servers} servers configured (median of ${opts.reps} fresh processes)`,
        value: round(activateMs, 2),
        unit: 'ms',
        ci: blockBootstrap(results.map((r) => r.activateMs), median),
        target: { op: '<=', value: opts.initDelayMs },
        detail:
          `activate ${fmtMs(activateMs)} vs require(bundle) ${fmtMs(requireMs)} (${(activateMs / requireMs).toFixed(2)}×); ` +
          `the event loop is first free ${fmtMs(loopFreeMs)} after activate() began (${spawns} synchronous spawn() calls in that one macrotask: ${fmtMs(spawnMs)})`,
      },
    ];
    return {
      rows,
      data: {
        options: opts,
        bundleBytes: bundle.bytes,
        devBundleBytes: devBytes,
        byPackage: Object.fromEntries(bundle.byPackage.slice(0, 12)),
        apartBytes: Object.fromEntries(bundle.apart),
        probes: results,
        bundleBuiltFrom: relative(ROOT, join(ROOT, 'esbuild.js')),
      },
    };
  } finally {
    tmp.remove();
  }
}

if (require.main === module) {
  packageCost().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
