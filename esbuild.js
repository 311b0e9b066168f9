// Bundles the extension and the CLI. Type-checking is separate (npm run check-types).
const path = require('path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's "main" is a UMD build whose internal requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

// Code a typical start of the extension or the CLI does not run is bundled apart, each piece as its own
// file next to the bundle, and required only at its first use: a start reads less. Each row maps one
// require (or the SDK's dynamic import) to a file of dist/; the entry is what that file is built from.
// Under tsx and mocha the requires are the sources. Every file here must be shipped (.vscodeignore).
const APART = [
  // The OpenTelemetry SDK: only with mcpHost.telemetry.otlpEndpoint (src/core/telemetry/loadOtelPipeline.ts).
  { importer: /loadOtelPipeline\.ts$/, request: './otelPipeline', file: 'otel.js', entry: 'src/core/telemetry/otelPipeline.ts' },
  // The gateway's server side (@modelcontextprotocol/server): only when the editor's gateway or `mcp-host serve` starts.
  { importer: /loadGatewayServer\.ts$/, request: './gatewayServer', file: 'gateway.js', entry: 'src/core/gateway/gatewayServer.ts' },
  // The CEL environment: only when an argument rule has a condition (checked when the setting is read).
  { importer: /loadCel\.ts$/, request: './celFunctions', file: 'cel.js', entry: 'src/core/conditions/celFunctions.ts' },
  // An MCP App's view (the ext-apps AppBridge): only when a view opens.
  { importer: /loadAppViewPanel\.ts$/, request: './appViewPanel', file: 'appView.js', entry: 'src/vscode/apps/appViewPanel.ts', external: ['vscode'] },
  // The tool search index: only when a request is over the tool budget or `search_tools` is called.
  { importer: /loadMiniSearch\.ts$/, request: './miniSearchEngine', file: 'minisearch.js', entry: 'src/core/agent/miniSearchEngine.ts' },
  // The JSON Schema 2019-09 engine: only for a schema that declares that dialect (src/core/mcp/sdkValidatorShim.ts).
  { importer: /loadAjv2019\.ts$/, request: './ajv2019Engine', file: 'ajv2019.js', entry: 'src/core/tools/ajv2019Engine.ts' },
  // The loopback receiver of a browser sign-in's redirect: only when a sign-in opens the browser.
  { importer: /loadRedirectReceiver\.ts$/, request: './loopbackRedirectReceiver', file: 'signInRedirect.js', entry: 'src/core/auth/loopbackRedirectReceiver.ts' },
  // Audit records as spans: only when telemetry exports.
  { importer: /loadAuditRecordSpan\.ts$/, request: './auditRecordSpan', file: 'spans.js', entry: 'src/core/telemetry/auditRecordSpan.ts' },
  // jose: the SDK client imports it (dynamically) only for private_key_jwt and DPoP.
  { importer: /[\\/]@modelcontextprotocol[\\/]client[\\/]/, request: 'jose', file: 'jose.js', entry: 'jose' },
];

/** Maps each row's require to `require('./<file>')`, left to run time; a dynamic import becomes that same require. */
const apart = {
  name: 'apart',
  setup(build) {
    for (const row of APART) {
      const filter = new RegExp(`^${row.request.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      build.onResolve({ filter }, (args) => {
        if (!row.importer.test(args.importer)) return undefined;
        // esbuild would keep import('./jose.js') as an ES module import; a require is what the other rows do.
        if (args.kind === 'dynamic-import') return { path: row.file, namespace: 'apart-require' };
        return { path: `./${row.file}`, external: true };
      });
    }
    build.onLoad({ filter: /.*/, namespace: 'apart-require' }, (args) => ({ contents: `module.exports = require('./${args.path}');`, loader: 'js' }));
    build.onResolve({ filter: /^\.\/[\w.]+\.js$/, namespace: 'apart-require' }, (args) => ({ path: args.path, external: true }));
  },
};

// The SDK's client and server each bundle their own copy of ajv (150 KB each) for their default
// JSON Schema validator, reached through their `_shims` entry. Both are redirected to ours
// (src/core/mcp/sdkValidatorShim.ts, the same validator on the ajv the host already bundles);
// test/unit/core/mcp/sdkValidatorShim.contract.test.ts fails when an SDK upgrade changes the shims.
const SDK_SHIMS = {
  '@modelcontextprotocol/client/_shims': 'src/core/mcp/sdkValidatorShim.ts',
  '@modelcontextprotocol/server/_shims': 'src/core/mcp/sdkServerShim.ts',
};
const oneAjv = {
  name: 'one-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/(client|server)\/_shims$/ }, (args) => ({ path: path.join(__dirname, SDK_SHIMS[args.path]) }));
  },
};

// zod re-exports all of its ~45 message locales as a namespace (`z.locales`), so every one of them
// (260 KB minified) lands in the bundle although only English, zod's default, is ever used here.
// The namespace is narrowed to English: `z.locales.en` still works, any other locale is undefined.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir) ? { path: path.join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

async function main() {
  const plugins = [apart, oneAjv, zodEnglishOnly];
  const builds = [
    { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins },
    // gpt-tokenizer (only `check` counts tokens) stays in node_modules: bundled, its 2.7 MB of ranks
    // cost every CLI start ~0.5 s and 35 MB even when nothing is counted. The CLI runs from the
    // repository or an npm install, where it is a dependency; the .vsix does not ship the CLI.
    { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js', external: ['gpt-tokenizer'], plugins },
    // The `mcp-host` executable: runs dist/cliMain.js through V8's code cache (src/cli/compileCache.ts),
    // so a short command does not compile the 1 MB bundle again at every start.
    { ...common, entryPoints: ['src/cli/cliLauncher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
    // The files apart, shared by the extension and the CLI.
    ...APART.map((row) => ({ ...common, entryPoints: [row.entry], outfile: `dist/${row.file}`, external: row.external ?? [], plugins })),
  ];
  if (watch) {
    for (const b of builds) (await esbuild.context(b)).watch();
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
