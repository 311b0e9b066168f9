/**
 * The lockfiles committed with the repository's own workspaces (examples/* and demo/) stay true:
 * `mcp-host check --locked --role ''` starts every server they configure (the published servers in
 * node_modules) and compares what each lists with the committed lockfile. A server package updated
 * without `mcp-host lock` fails here, not on a newcomer's fresh clone.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LockfileCheck } from '../../../src/cli/checkReport';
import { LOCKFILE_NAME } from '../../../src/core/pinning/lockfile';
import { describeRun, parseJson, REPO_ROOT, runCli } from './cliHarness';

/** Every folder of the repository that commits a lockfile next to its settings. */
function exampleWorkspaces(): string[] {
  const examples = fs.readdirSync(path.join(REPO_ROOT, 'examples')).map((d) => path.join('examples', d));
  return [...examples, 'demo'].filter((d) => fs.existsSync(path.join(REPO_ROOT, d, LOCKFILE_NAME)));
}

/** What differs, in words: which server's tools are missing, changed or gone, and which entries are stale. */
function differences(l: LockfileCheck): string[] {
  const out: string[] = [];
  if (!l.exists) out.push('the lockfile was not found');
  if (l.error !== undefined) out.push(`the lockfile cannot be read: ${l.error}`);
  for (const d of l.drift) {
    if (d.firstReview) out.push(`server "${d.server}" has no entry`);
    if (d.added.length) out.push(`server "${d.server}": tools missing from the lockfile: ${d.added.join(', ')}`);
    if (d.changed.length) out.push(`server "${d.server}": tools whose definition changed: ${d.changed.map((c) => c.tool).join(', ')}`);
    if (d.removed.length) out.push(`server "${d.server}": tools the server no longer lists: ${d.removed.join(', ')}`);
    if (d.identityChanges.length) out.push(`server "${d.server}": identity changed: ${d.identityChanges.join(', ')}`);
  }
  if (l.staleEntries.length) out.push(`entries for servers no longer configured: ${l.staleEntries.join(', ')}`);
  if (l.inconsistentEntries.length) out.push(`entries whose hash does not match their definition: ${l.inconsistentEntries.join(', ')}`);
  return out;
}

describe('the repository\'s example lockfiles', function () {
  // Each check starts the published servers: a bound for a busy machine, not a speed claim.
  this.timeout(120_000);

  const workspaces = exampleWorkspaces();

  it('there are example lockfiles to check', () => {
    assert.ok(workspaces.includes('demo') && workspaces.includes(path.join('examples', 'cli-workspace')), workspaces.join(', '));
  });

  for (const ws of workspaces) {
    it(`${ws}/${LOCKFILE_NAME} matches what its servers list`, async () => {
      const r = await runCli(['check', '--workspace', path.join(REPO_ROOT, ws), '--locked', '--role', '', '--json']);
      const report = parseJson(r);
      const notConnected = report.servers.filter((s: { state: string }) => s.state !== 'connected');
      assert.deepEqual(notConnected, [], `every server of ${ws} starts\n${describeRun(r)}`);
      const found = differences(report.lockfile as LockfileCheck);
      assert.deepEqual(
        found,
        [],
        `${ws}/${LOCKFILE_NAME} is stale:\n  ${found.join('\n  ')}\nRegenerate it: npm run build && cd ${ws} && npx mcp-host lock; review the diff and commit it.`,
      );
      assert.equal(r.code, 0, describeRun(r));
    });
  }
});
