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

// The OpenTelemetry SDK is bundled apart, as dist/otel.js, and required only when
// mcpHost.telemetry.otlpEndpoint is set (src/core/telemetry/loadOtelPipeline.ts): it would add
// several hundred KB to every start of the extension and the CLI.
const otelApart = {
  name: 'otel-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/otelPipeline$/ }, (args) =>
      path.basename(args.importer) === 'loadOtelPipeline.ts' ? { path: './otel.js', external: true } : undefined,
    );
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
  const builds = [
    { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [otelApart, zodEnglishOnly] },
    // gpt-tokenizer (only `check` counts tokens) stays in node_modules: bundled, its 2.7 MB of ranks
    // cost every CLI start ~0.5 s and 35 MB even when nothing is counted. The CLI runs from the
    // repository or an npm install, where it is a dependency; the .vsix does not ship the CLI.
    { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js', external: ['gpt-tokenizer'], plugins: [otelApart, zodEnglishOnly] },
    // The `mcp-host` executable: runs dist/cliMain.js through V8's code cache (src/cli/compileCache.ts),
    // so a short command does not compile the 1.8 MB bundle again at every start.
    { ...common, entryPoints: ['src/cli/cliLauncher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
    { ...common, entryPoints: ['src/core/telemetry/otelPipeline.ts'], outfile: 'dist/otel.js' },
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
