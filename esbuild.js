// Bundles the extension and the CLI. Type-checking is separate (npm run check-types).
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

async function main() {
  const builds = [
    { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
    // gpt-tokenizer (only `check` counts tokens) stays in node_modules: bundled, its 2.7 MB of ranks
    // cost every CLI start ~0.5 s and 35 MB even when nothing is counted. The CLI runs from the
    // repository or an npm install, where it is a dependency; the .vsix does not ship the CLI.
    { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, external: ['gpt-tokenizer'] },
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
