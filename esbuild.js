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

async function main() {
  const builds = [
    { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [otelApart] },
    // gpt-tokenizer (only `check` counts tokens) stays in node_modules: bundled, its 2.7 MB of ranks
    // cost every CLI start ~0.5 s and 35 MB even when nothing is counted. The CLI runs from the
    // repository or an npm install, where it is a dependency; the .vsix does not ship the CLI.
    { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, external: ['gpt-tokenizer'], plugins: [otelApart] },
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
