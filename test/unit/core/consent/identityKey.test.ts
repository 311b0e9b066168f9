/** The per-user key of the hashes that stand in for `${env:}` values in consent. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changedVariables, FileIdentityKey, variableHashes } from '../../../../src/core/consent/identityKey';

describe('FileIdentityKey', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-key-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is created on first need (owner-only), then read back by every later host; two users get different hashes', async () => {
    const file = path.join(dir, 'config', 'identity-key');
    assert.ok(!fs.existsSync(file));
    const key = await new FileIdentityKey(file).get();
    assert.equal(key.length, 32);
    if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(await new FileIdentityKey(file).get(), key, 'the same key next time');
    const other = await new FileIdentityKey(path.join(dir, 'other-user')).get();
    assert.notDeepEqual(variableHashes(key, { K: 'v1' }), variableHashes(other, { K: 'v1' }));
    assert.deepEqual(changedVariables(variableHashes(key, { K: 'v1', L: 'x' }), variableHashes(key, { K: 'v2', L: 'x', M: 'y' })), ['K', 'M']);
  });

  it('a damaged key file is an error naming the file and what to do, not a silent new key', async () => {
    const file = path.join(dir, 'identity-key');
    fs.writeFileSync(file, 'not a key\n');
    await assert.rejects(new FileIdentityKey(file).get(), (e: Error) => e.message.includes(file) && /64 hexadecimal digits.*delete it to make a new one/.test(e.message));
  });
});
