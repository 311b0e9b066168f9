/**
 * What a start does not run is bundled apart (esbuild.js, table APART): each loader's require
 * becomes `require('./<file>.js')`, a file next to the bundle. Under mocha each loader returns its
 * source module; here the bundles are built exactly as `node esbuild.js --production` builds them,
 * into a temp dir, and every apart file is required and must export what its source exports, every
 * `./x.js` the extension or the CLI requires must be one of them, and the SDK's own copies of ajv
 * must not be in the bundles (their `_shims` are redirected to src/core/mcp/sdkValidatorShim.ts).
 */
import './vscode/fakeVscode';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';
import { esbuildJsOptions } from '../../bench/packageCost';
import { loadMiniSearch } from '../../src/core/agent/loadMiniSearch';
import { loadRedirectReceiver } from '../../src/core/auth/loadRedirectReceiver';
import { loadCel } from '../../src/core/conditions/loadCel';
import { loadGatewayServer } from '../../src/core/gateway/loadGatewayServer';
import { loadAuditRecordSpan } from '../../src/core/telemetry/loadAuditRecordSpan';
import { loadOtelPipeline } from '../../src/core/telemetry/loadOtelPipeline';
import { loadAjv2019 } from '../../src/core/tools/loadAjv2019';
import { loadAppViewPanel } from '../../src/vscode/apps/loadAppViewPanel';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN_BUNDLES = ['extension.js', 'cliMain.js', 'cli.js'];

// eslint-disable-next-line @typescript-eslint/no-require-imports
const source = (file: string): Record<string, unknown> => require(path.join(ROOT, file));
const exportNames = (m: object) => Object.keys(m).filter((k) => k !== '__esModule' && k !== 'default').sort();

describe('the loaders of what is bundled apart, under mocha', () => {
  it('each returns its real source module', async () => {
    assert.equal(loadGatewayServer().Gateway, source('src/core/gateway/gateway.ts').Gateway);
    assert.equal(loadGatewayServer().UpstreamRelay, source('src/core/gateway/upstreamRelay.ts').UpstreamRelay);
    assert.equal(loadCel().ruleEnvironment, source('src/core/conditions/celFunctions.ts').ruleEnvironment);
    assert.equal(loadCel().ruleEnvironment().parse('tool == "x"')({ args: {}, server: 's', tool: 'x', role: '', workspaceFolder: '' }), true);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    assert.equal(loadMiniSearch(), require('minisearch').default ?? require('minisearch'));
    assert.equal(loadAppViewPanel().AppViewPanel, source('src/vscode/apps/appViewPanel.ts').AppViewPanel);
    assert.equal(await loadOtelPipeline(), source('src/core/telemetry/otelPipeline.ts').createOtelPipeline);
    assert.equal(loadAuditRecordSpan(), source('src/core/telemetry/auditRecordSpan.ts').auditRecordSpan);
    assert.equal(loadRedirectReceiver().LoopbackRedirectReceiver, source('src/core/auth/loopbackRedirectReceiver.ts').LoopbackRedirectReceiver);
    const engine = loadAjv2019().newAjv2019Engine();
    const check = engine.compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', items: [{ type: 'string' }], additionalItems: false });
    assert.deepEqual([check(['a']), check(['a', 'b']), check([1])], [true, false, false]);
  });
});

describe('the production bundles and the files apart (esbuild.js --production)', function () {
  this.timeout(180_000);
  let dir: string;
  let configs: BuildOptions[];
  const metas = new Map<string, Metafile>();
  const apartOf = (c: BuildOptions) => !MAIN_BUNDLES.includes(path.basename(c.outfile!));

  before(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-apart-'));
    configs = await esbuildJsOptions(true);
    await Promise.all(
      configs.map(async (c) => {
        const name = path.basename(c.outfile!);
        const r = await esbuild.build({ ...c, absWorkingDir: ROOT, outfile: path.join(dir, name), metafile: true, logLevel: 'silent' });
        metas.set(name, r.metafile);
      }),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('builds files apart for the gateway, CEL, app views, tool search, jose, the 2019-09 engine, sign-in\'s redirect and telemetry', () => {
    assert.deepEqual(configs.filter(apartOf).map((c) => path.basename(c.outfile!)).sort(), [
      'ajv2019.js',
      'appView.js',
      'cel.js',
      'gateway.js',
      'jose.js',
      'minisearch.js',
      'otel.js',
      'signInRedirect.js',
      'spans.js',
    ]);
  });

  it('each file apart loads and exports what its source exports (what the loader returns under mocha)', () => {
    for (const c of configs.filter(apartOf)) {
      const name = path.basename(c.outfile!);
      const entry = (c.entryPoints as string[])[0];
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const expected = entry.startsWith('src/') ? source(entry) : (require(entry) as object);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const built = require(path.join(dir, name)) as Record<string, unknown>;
      assert.deepEqual(exportNames(built), exportNames(expected), `${name} (from ${entry})`);
      for (const k of exportNames(expected)) assert.equal(typeof built[k], typeof (expected as Record<string, unknown>)[k], `${name}: ${k}`);
    }
  });

  it('every ./x.js the extension and the CLI require is a file apart; each loader\'s require is mapped', () => {
    const apart = new Set(configs.filter(apartOf).map((c) => `./${path.basename(c.outfile!)}`));
    const required = new Set<string>();
    for (const name of ['extension.js', 'cliMain.js']) {
      const out = Object.values(metas.get(name)!.outputs)[0];
      for (const i of out.imports) {
        if (i.external && i.path.startsWith('.')) {
          assert.ok(apart.has(i.path), `${name} requires ${i.path}, which esbuild.js does not build`);
          assert.equal(i.kind, 'require-call', `${name}: ${i.path} is loaded by a require`);
          required.add(i.path);
        }
      }
      // No loader's source went into the main bundle: it would be read at every start.
      const inputs = Object.keys(out.inputs);
      for (const apartSource of ['src/core/gateway/gateway.ts', 'src/core/conditions/celFunctions.ts', 'src/vscode/apps/appViewPanel.ts', 'src/core/agent/miniSearchEngine.ts', 'src/core/tools/ajv2019Engine.ts', 'src/core/auth/loopbackRedirectReceiver.ts', 'src/core/telemetry/auditRecordSpan.ts']) {
        assert.ok(!inputs.includes(apartSource), `${name} bundles ${apartSource}`);
      }
      for (const pkg of ['@modelcontextprotocol/server/', '@marcbachmann/cel-js/', '@modelcontextprotocol/ext-apps/', 'minisearch/', 'jose/']) {
        assert.ok(!inputs.some((f) => f.includes(`node_modules/${pkg}`)), `${name} bundles ${pkg}`);
      }
    }
    // Between them, the two bundles require every file apart (none is built for nothing).
    assert.deepEqual([...required].sort(), [...apart].sort());
  });

  it('the .vsix ships every file the extension requires (.vscodeignore)', () => {
    const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split(/\r?\n/).filter((l) => l.startsWith('!dist/'));
    const out = Object.values(metas.get('extension.js')!.outputs)[0];
    for (const i of out.imports.filter((i) => i.external && i.path.startsWith('./'))) {
      assert.ok(shipped.includes(`!dist/${i.path.slice(2)}`), `.vscodeignore leaves out dist/${i.path.slice(2)}, which dist/extension.js requires`);
    }
  });

  it("bundles one ajv: the SDK's own copies (its ajvProvider) are in no bundle", () => {
    for (const [name, meta] of metas) {
      const sdkAjv = Object.keys(Object.values(meta.outputs)[0].inputs).filter((f) => /@modelcontextprotocol\/(client|server)\/dist\/ajvProvider-/.test(f));
      assert.deepEqual(sdkAjv, [], name);
    }
    const ext = Object.keys(Object.values(metas.get('extension.js')!.outputs)[0].inputs);
    assert.ok(ext.includes('src/core/mcp/sdkValidatorShim.ts'), 'the extension bundles the shim in place of the SDK\'s');
    assert.ok(Object.keys(Object.values(metas.get('gateway.js')!.outputs)[0].inputs).includes('src/core/mcp/sdkServerShim.ts'));
  });
});
