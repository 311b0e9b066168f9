import { join } from 'node:path';
import { compileCacheDir, runWithCompileCache } from './compileCache';

// The `mcp-host` executable (dist/cli.js): the CLI bundle (dist/cliMain.js, src/cli/main.ts) through V8's code cache.
runWithCompileCache(join(__dirname, 'cliMain.js'), process.argv[2] ?? '', compileCacheDir());
