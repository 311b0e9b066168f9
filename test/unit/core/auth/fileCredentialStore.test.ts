import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CredentialFileError, defaultCredentialsFile, FileCredentialStore } from '../../../../src/core/auth/fileCredentialStore';
import { MemoryCredentialStore } from '../../../../src/core/auth/memoryCredentialStore';
import type { CredentialStore } from '../../../../src/core/auth/credentialStore';

const posix = process.platform !== 'win32';
const SERVER = 'https://tracker.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const tokens = (access: string) => ({ tokens: { access_token: access, token_type: 'Bearer', issuer: ISSUER }, obtainedAt: 1 });

describe('core/auth: credential stores', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-creds-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('defaultCredentialsFile: MCP_HOST_CREDENTIALS_FILE, else an absolute XDG_CONFIG_HOME, else ~/.config', () => {
    assert.equal(defaultCredentialsFile({ MCP_HOST_CREDENTIALS_FILE: '/x/creds.json', XDG_CONFIG_HOME: '/xdg' }, '/home/u'), '/x/creds.json');
    assert.equal(defaultCredentialsFile({ XDG_CONFIG_HOME: '/xdg' }, '/home/u'), '/xdg/mcp-host/credentials.json');
    assert.equal(defaultCredentialsFile({ XDG_CONFIG_HOME: 'relative' }, '/home/u'), '/home/u/.config/mcp-host/credentials.json');
    assert.equal(defaultCredentialsFile({}, '/home/u'), '/home/u/.config/mcp-host/credentials.json');
  });

  for (const [name, make] of [
    ['FileCredentialStore', () => new FileCredentialStore(path.join(dir, 'a', 'b', 'credentials.json'))],
    ['MemoryCredentialStore', () => new MemoryCredentialStore()],
  ] as [string, () => CredentialStore][]) {
    it(`${name}: keeps kinds per server URL and issuer; the same URL spelled differently is one key; forget`, async () => {
      const store = make();
      assert.equal(await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens'), undefined);
      await store.set({ serverUrl: SERVER }, 'discovery', { authorizationServerUrl: ISSUER });
      await store.set({ serverUrl: SERVER, issuer: ISSUER }, 'tokens', tokens('A'));
      await store.set({ serverUrl: SERVER, issuer: `${ISSUER}/` }, 'client', { client_id: 'c1' });
      await store.set({ serverUrl: 'https://other.example.com/mcp', issuer: ISSUER }, 'tokens', tokens('B'));
      assert.equal((await store.get({ serverUrl: 'HTTPS://TRACKER.example.com:443/mcp#x', issuer: ISSUER }, 'tokens'))?.tokens.access_token, 'A');
      assert.equal((await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'client'))?.client_id, 'c1', 'issuer with or without its slash is one key');
      assert.deepEqual(await store.get({ serverUrl: SERVER }, 'discovery'), { authorizationServerUrl: ISSUER });
      assert.deepEqual(await store.issuers(SERVER), [ISSUER], 'kept in the issuer form (no trailing slash)');
      await store.delete({ serverUrl: SERVER, issuer: ISSUER }, 'tokens');
      assert.equal(await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens'), undefined);
      assert.equal(await store.forget(SERVER), true);
      assert.equal(await store.forget(SERVER), false);
      assert.equal(await store.get({ serverUrl: SERVER }, 'discovery'), undefined);
      assert.equal((await store.get({ serverUrl: 'https://other.example.com/mcp', issuer: ISSUER }, 'tokens'))?.tokens.access_token, 'B', 'other servers untouched');
    });

    it(`${name}: concurrent changes from one process are all kept`, async () => {
      const store = make();
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.set({ serverUrl: `https://s${i}.example/mcp`, issuer: ISSUER }, 'tokens', tokens(`T${i}`))));
      for (let i = 0; i < 20; i++) {
        assert.equal((await store.get({ serverUrl: `https://s${i}.example/mcp`, issuer: ISSUER }, 'tokens'))?.tokens.access_token, `T${i}`);
      }
    });
  }

  it('creates the file 0600 in a 0700 folder, atomically (no temporary file left)', async function () {
    if (!posix) this.skip();
    const file = path.join(dir, 'cfg', 'mcp-host', 'credentials.json');
    const store = new FileCredentialStore(file);
    const old = process.umask(0o000); // the loosest umask: the modes must still be tight
    try {
      await store.set({ serverUrl: SERVER, issuer: ISSUER }, 'tokens', tokens('A'));
    } finally {
      process.umask(old);
    }
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['credentials.json']);
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).version, 1);
  });

  it('refuses a file other users can read, with the chmod to run, and never overwrites it', async function () {
    if (!posix) this.skip();
    const file = path.join(dir, 'credentials.json');
    const store = new FileCredentialStore(file);
    await store.set({ serverUrl: SERVER, issuer: ISSUER }, 'tokens', tokens('SECRET-TOKEN-VALUE'));
    fs.chmodSync(file, 0o644);
    const before = fs.readFileSync(file, 'utf8');
    for (const op of [() => store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens'), () => store.set({ serverUrl: SERVER }, 'discovery', { authorizationServerUrl: ISSUER })]) {
      await assert.rejects(op(), (e: Error) => {
        assert.ok(e instanceof CredentialFileError);
        assert.match(e.message, /mode 0644.*chmod 600/);
        assert.doesNotMatch(e.message, /SECRET-TOKEN-VALUE/);
        return true;
      });
    }
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    fs.chmodSync(file, 0o600);
    assert.equal((await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens'))?.tokens.access_token, 'SECRET-TOKEN-VALUE');
  });

  it('refuses a symbolic link and a file that is not JSON, without quoting the content', async function () {
    if (!posix) this.skip();
    const real = path.join(dir, 'real.json');
    fs.writeFileSync(real, '{"version":1,"servers":{}}', { mode: 0o600 });
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(real, link);
    await assert.rejects(new FileCredentialStore(link).issuers(SERVER), /symbolic link/);
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"access_token": "LEAKY-VALUE", oops', { mode: 0o600 });
    await assert.rejects(new FileCredentialStore(bad).issuers(SERVER), (e: Error) => /not valid JSON/.test(e.message) && !e.message.includes('LEAKY'));
    const wrongShape = path.join(dir, 'shape.json');
    fs.writeFileSync(wrongShape, '{"tokens": "LEAKY-VALUE"}', { mode: 0o600 });
    await assert.rejects(new FileCredentialStore(wrongShape).issuers(SERVER), (e: Error) => /not an MCP Host credentials document/.test(e.message) && !e.message.includes('LEAKY'));
  });

  it('an entry of the wrong shape reads as absent; the rest of the file still works', async () => {
    const file = path.join(dir, 'credentials.json');
    const doc = {
      version: 1,
      servers: { [SERVER]: { issuers: { [`${ISSUER}/`]: { tokens: { nope: 1 }, client: { client_id: 'ok' } } } } },
    };
    fs.writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
    const store = new FileCredentialStore(file);
    assert.equal(await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens'), undefined);
    assert.equal((await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'client'))?.client_id, 'ok');
  });

  it('migrates a document written before issuer keys: slash-suffixed keys merged into the issuer form, values stamped with their issuer', async () => {
    const file = path.join(dir, 'credentials.json');
    const old = (access: string) => ({ tokens: { access_token: access, token_type: 'Bearer', refresh_token: 'r' }, obtainedAt: 1 });
    const doc = {
      version: 1,
      servers: {
        [SERVER]: {
          discovery: { authorizationServerUrl: `${ISSUER}/` },
          issuers: {
            [`${ISSUER}/`]: { tokens: old('OLD'), client: { client_id: 'registered' } },
            [ISSUER]: { tokens: old('SECOND'), codeVerifier: 'v' },
            'https://tenant.example.com/t1/': { client: { client_id: 'other', issuer: 'https://tenant.example.com/t1' } },
          },
        },
      },
    };
    fs.writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
    const store = new FileCredentialStore(file);
    assert.deepEqual((await store.issuers(SERVER)).sort(), [ISSUER, 'https://tenant.example.com/t1']);
    const t = await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'tokens');
    assert.equal(t?.tokens.access_token, 'OLD', 'the first entry of an issuer wins');
    assert.equal(t?.tokens.issuer, `${ISSUER}/`, 'stamped with the key it was kept under');
    assert.equal((await store.get({ serverUrl: SERVER, issuer: `${ISSUER}/` }, 'client'))?.issuer, `${ISSUER}/`);
    assert.equal(await store.get({ serverUrl: SERVER, issuer: ISSUER }, 'codeVerifier'), 'v');
    assert.equal((await store.get({ serverUrl: SERVER, issuer: 'https://tenant.example.com/t1/' }, 'client'))?.issuer, 'https://tenant.example.com/t1', 'an existing stamp is kept');
    // Written back in the new form on the next change.
    await store.set({ serverUrl: SERVER }, 'discovery', { authorizationServerUrl: ISSUER });
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).servers[SERVER].issuers).sort(), [ISSUER, 'https://tenant.example.com/t1']);
  });
});
