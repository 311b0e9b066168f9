/**
 * Issue 25: the README's CLI quick start works as written without a terminal. Its `sh` block runs
 * in `sh -e` with stdin not a terminal and a consent folder of its own (nothing allowed yet), with
 * `npx mcp-host` running this checkout's sources. Every command must exit 0.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, removeTempDirs, tempDir } from './cliHarness';

/** The first ```sh block of the README's "## The CLI" section, without the install line. */
function quickStart(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## The CLI\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the CLI section has a sh block');
  return block.replace(/^npm ci && npm run build\n/m, '');
}

describe("the README's CLI quick start", function () {
  this.timeout(240_000);
  after(removeTempDirs);

  it('runs as written without a terminal, from nothing allowed yet: it starts with mcp-host allow', async () => {
    const script = quickStart();
    assert.match(script, /^npx mcp-host allow\b/m);
    const loader = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const main = path.join(REPO_ROOT, 'src', 'cli', 'main.ts');
    const shell = `set -e\nnpx() { shift; "${process.execPath}" --import "${loader}" "${main}" "$@"; }\n${script}`;
    const config = tempDir('mcp-host-quickstart-');
    const child = spawn('sh', ['-c', shell], {
      cwd: REPO_ROOT,
      env: { ...process.env, MCP_HOST_CONFIG_DIR: config, MCP_HOST_CREDENTIALS_FILE: path.join(config, 'credentials.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, `--- stdout ---\n${out}\n--- stderr ---\n${err}`);
    assert.match(out, /^Allowed "everything" to start in this workspace:\n {2}command: node .*server-everything/m);
    assert.match(out, /The sum of 2 and 3 is 5\./);
    assert.match(out, /"op":"call".*"outcome":"ok"/);
    assert.doesNotMatch(err, /not been allowed to start/);
  });
});
