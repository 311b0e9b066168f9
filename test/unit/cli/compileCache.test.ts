/**
 * dist/cli.js runs the CLI bundle through V8's code cache (src/cli/compileCache.ts). Built here
 * the way esbuild.js builds it, around a small stand-in bundle: the bundle runs as `require` would
 * run it, a cache never serves another build, and a broken or missing cache only costs a compile.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './cliHarness';

describe('compile cache launcher', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-launcher-'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    esbuild.buildSync({ entryPoints: [path.join(REPO_ROOT, 'src', 'cli', 'cliLauncher.ts')], outfile: path.join(dir, 'cli.js'), bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
    fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = { answer: 42 };\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const bundle = (tag: string) =>
    fs.writeFileSync(
      path.join(dir, 'cliMain.js'),
      `"use strict";\nconst helper = require('./helper.js');\nfunction work(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }\n` +
        `process.stdout.write(JSON.stringify({ tag: ${JSON.stringify(tag)}, args: process.argv.slice(2), file: __filename, dir: __dirname, answer: helper.answer, sum: work(10), ownExports: module.exports === exports }) + '\\n');\n`,
    );
  const run = (env: Record<string, string> = {}, args = ['call', 'x']) => {
    const r = spawnSync(process.execPath, [path.join(dir, 'cli.js'), ...args], { env: { ...process.env, MCP_HOST_CACHE_DIR: path.join(dir, 'cache'), ...env }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const caches = () => (fs.existsSync(path.join(dir, 'cache', 'v8')) ? fs.readdirSync(path.join(dir, 'cache', 'v8')).sort() : []);
  const expected = (tag: string, args = ['call', 'x']) => ({ tag, args, file: path.join(dir, 'cliMain.js'), dir, answer: 42, sum: 45, ownExports: true });

  it('runs the bundle as require would, keeps the code V8 compiled per command, and reuses it untouched', () => {
    bundle('one');
    assert.deepEqual(run(), expected('one'));
    const [first] = caches();
    assert.match(first, /-call$/);
    const before = fs.statSync(path.join(dir, 'cache', 'v8', first));
    assert.deepEqual(run(), expected('one'));
    const after = fs.statSync(path.join(dir, 'cache', 'v8', first));
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], 'accepted by V8: not written again');
    assert.deepEqual(run({}, ['check']), expected('one', ['check']));
    assert.equal(caches().length, 2, 'one per command');
  });

  it('a new build never runs from the old cache, whose files are deleted; a broken cache is replaced; 0 turns it off', () => {
    bundle('one');
    run();
    fs.rmSync(path.join(dir, 'cliMain.js'));
    bundle('two, a longer and different build');
    assert.deepEqual(run(), expected('two, a longer and different build'));
    const [only, ...rest] = caches();
    assert.deepEqual(rest, [], 'the old build\'s cache is gone');
    fs.writeFileSync(path.join(dir, 'cache', 'v8', only), 'not V8 code at all');
    assert.deepEqual(run(), expected('two, a longer and different build'));
    assert.notEqual(fs.readFileSync(path.join(dir, 'cache', 'v8', only), 'utf8'), 'not V8 code at all');

    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    assert.deepEqual(run({ MCP_HOST_COMPILE_CACHE: '0' }), expected('two, a longer and different build'));
    assert.deepEqual(caches(), []);
  });
});
