/**
 * The demo workspace's filesystem server is meant to expose demo/files only (issue 25): its roots
 * setting equals that folder, so `mcp-host call` lists exactly demo/files on every run. Before, the
 * host answered roots/list with the whole workspace and the result raced: demo, demo/files, …
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeRun, REPO_ROOT, removeTempDirs, runCli, tempDir } from './cliHarness';

describe('mcp-host call: the demo filesystem server lists only demo/files', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  /** A copy of demo/ next to a link to node_modules (its settings point at ${workspaceFolder}/../node_modules). */
  function demoCopy(): string {
    const root = fs.realpathSync(tempDir('mcp-host-demo-'));
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
    const demo = path.join(root, 'demo');
    fs.cpSync(path.join(REPO_ROOT, 'demo'), demo, { recursive: true, filter: (src) => !src.includes(`${path.sep}.mcp-host`) });
    return demo;
  }

  it('four runs in a row: list_allowed_directories is demo/files each time, never the workspace', async () => {
    const demo = demoCopy();
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await runCli(['call', 'files__list_allowed_directories', '--workspace', demo]);
      assert.equal(r.code, 0, describeRun(r));
      seen.push(r.stdout.trim());
    }
    assert.deepEqual(seen, Array(4).fill(`Allowed directories:\n${path.join(demo, 'files')}`));
  });
});
