/**
 * A lockfile already found valid and canonical is read one entry at a time (canonicalServerEntry
 * through FileLockfileStore + CheckedLockfiles). Whatever it answers must be exactly what parsing
 * the whole file answers; any other content is parsed whole, as before.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalServerEntry } from '../../../../src/core/pinning/canonicalLockfile';
import { CheckedLockfiles } from '../../../../src/core/pinning/checkedLockfiles';
import { emptyLockfile, parseLockfile, serializeLockfile, withServer, type LockedServer, type Lockfile } from '../../../../src/core/pinning/lockfile';
import { FileLockfileStore, type LockfileRead } from '../../../../src/core/pinning/lockfileStore';
import { definitionHash } from '../../../../src/core/tools/definitionHash';
import { useTestEnv } from '../helpers';

const tool = (name: string, description: string, extra: Record<string, unknown> = {}): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { id: { type: 'string', description: `id of ${name}` }, nested: { type: 'object', properties: { tools: { type: 'object' } } } } },
  ...extra,
});

const entry = (tools: Tool[], identity: LockedServer['identity'] = { type: 'stdio', command: 'node', args: ['s.js'], envKeys: [] }): LockedServer => ({
  identity,
  serverInfo: { name: 'x', version: '1.0.0' },
  tools: Object.fromEntries(tools.map((t) => [t.name, { hash: definitionHash(t), definition: t }])),
});

/** Names chosen to meet the searches: a tool named like entry keys, escapes, unicode, a name that is another's prefix. */
function sampleLock(): Lockfile {
  let lock = emptyLockfile();
  lock = withServer(lock, 'alpha', entry([tool('tools', 'named "tools"'), tool('identity', 'named identity'), tool('get', 'G'), tool('get_more', 'GM'), tool('servers', 'S')]));
  lock = withServer(lock, 'bé "quoted"', entry([tool('ünï\ncode', 'line\nbreak and "quotes" and \\ and \u2028'), tool('get', 'another server\'s get')]));
  lock = withServer(lock, 'empty', entry([]));
  lock = withServer(lock, 'http', entry([tool('get', 'H', { annotations: { readOnlyHint: true } })], { type: 'http', url: 'https://example.test/mcp' }));
  return lock;
}

/** What the whole parse gives for `server`, of its tools only `tools` (what a partial read must equal). */
function expected(lock: Lockfile, server: string, tools?: string[]): LockedServer | undefined {
  const whole = (JSON.parse(serializeLockfile(lock)) as Lockfile).servers[server];
  if (!whole || !tools) return whole;
  return { ...whole, tools: Object.fromEntries(tools.filter((t) => t in whole.tools).map((t) => [t, whole.tools[t]])) };
}

const readOk = (r: LockfileRead) => {
  if ('error' in r) assert.fail(r.error);
  return r;
};
/** A server's entry as pins read it: entry by entry when the read offers it, else from the whole lockfile. */
const entryOf = (r: ReturnType<typeof readOk>, server: string, tools?: string[]) => (r.server ? r.server(server, tools) : r.lock.servers[server]);

describe('canonicalServerEntry', () => {
  it('answers for every server and any set of its tools exactly what parsing the whole file answers', () => {
    const lock = sampleLock();
    const bytes = Buffer.from(serializeLockfile(lock));
    const names = ['tools', 'identity', 'get', 'get_more', 'servers', 'ünï\ncode', 'missing', 'serverInfo', 'ge'];
    for (const server of [...Object.keys(lock.servers), 'missing', 'bé', 'alph']) {
      assert.deepEqual(canonicalServerEntry(bytes, server), expected(lock, server), server);
      for (const t of names) assert.deepEqual(canonicalServerEntry(bytes, server, [t]), expected(lock, server, [t]), `${server}/${t}`);
      assert.deepEqual(canonicalServerEntry(bytes, server, names), expected(lock, server, names), `${server}/*`);
    }
  });

  it('a lockfile without servers has no entry; bytes of another form are refused, never misread', () => {
    assert.equal(canonicalServerEntry(Buffer.from(serializeLockfile(emptyLockfile())), 'alpha', ['get']), undefined);
    const lock = sampleLock();
    for (const other of [JSON.stringify(lock), JSON.stringify(lock, null, 4), JSON.stringify(lock, null, '\t')]) {
      assert.throws(() => canonicalServerEntry(Buffer.from(other), 'alpha', ['get']));
    }
  });
});

describe('FileLockfileStore with CheckedLockfiles', () => {
  const env = useTestEnv();
  const files = () => {
    const file = path.join(env.dir, 'ws', 'mcp-host.lock.json');
    const checked = new CheckedLockfiles(path.join(env.dir, 'config', 'checked-lockfiles'));
    return { file, checked, store: () => new FileLockfileStore(file, checked) };
  };

  it('what it wrote is read entry by entry, with the same answers as a whole parse; the whole lockfile is still there', () => {
    const { file, checked, store } = files();
    const lock = sampleLock();
    store().write(lock);
    assert.equal(checked.known(file, CheckedLockfiles.digest(fs.readFileSync(file))), 'canonical');
    const r = readOk(store().read());
    assert.ok(r.server, 'read entry by entry');
    assert.deepEqual(r.server('alpha', ['get']), expected(lock, 'alpha', ['get']));
    assert.deepEqual(r.server('bé "quoted"'), expected(lock, 'bé "quoted"'));
    assert.equal(r.server('nope', ['get']), undefined);
    assert.deepEqual(r.lock, parseLockfile(fs.readFileSync(file, 'utf8')));
    assert.equal(r.exists, true);
  });

  it('a lockfile changed by hand is parsed whole again: a changed pin, a removed tool and a broken file are all seen', () => {
    const { file, store } = files();
    const lock = sampleLock();
    store().write(lock);
    // A pin edited by hand, still in canonical form: another digest, so a whole parse (and a new mark).
    const edited = withServer(lock, 'alpha', entry([tool('tools', 'named "tools"'), tool('get', 'G but different')]));
    fs.writeFileSync(file, serializeLockfile(edited));
    const first = readOk(store().read());
    assert.equal(first.server, undefined, 'parsed whole');
    assert.deepEqual(first.lock, edited);
    const again = readOk(store().read());
    assert.ok(again.server, 'marked canonical by the whole read');
    assert.deepEqual(entryOf(again, 'alpha', ['get', 'identity']), expected(edited, 'alpha', ['get', 'identity']));
    assert.equal(entryOf(again, 'alpha', ['identity'])!.tools.identity, undefined, 'the removed tool is not found');
    assert.equal(entryOf(again, 'alpha', ['get'])!.tools.get.definition.description, 'G but different');

    fs.writeFileSync(file, serializeLockfile(edited).slice(0, 200));
    const broken = store().read();
    assert.ok('error' in broken && /is not a valid lockfile: not valid JSON/.test(broken.error), JSON.stringify(broken));
  });

  it('a valid lockfile in another form loads as before (parsed whole every time), even when a mark claims it is canonical', () => {
    const { file, checked, store } = files();
    const lock = sampleLock();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(lock));
    let r = readOk(store().read());
    assert.equal(r.server, undefined);
    assert.deepEqual(r.lock, lock);
    const digest = CheckedLockfiles.digest(fs.readFileSync(file));
    assert.equal(checked.known(file, digest), 'other');
    // A mark that lies (written by hand): the entry-by-entry reader finds no canonical form and reads the whole file.
    checked.remember(file, digest, 'canonical');
    r = readOk(store().read());
    assert.deepEqual(r.server!('alpha', ['get']), lock.servers.alpha);
    assert.deepEqual(r.server!('nope', ['get']), undefined);
  });

  it('without CheckedLockfiles (the extension) nothing is remembered and the lockfile is parsed whole', () => {
    const { file } = files();
    new FileLockfileStore(file).write(sampleLock());
    const r = readOk(new FileLockfileStore(file).read());
    assert.equal(r.server, undefined);
    assert.equal(fs.existsSync(path.join(env.dir, 'config')), false);
  });
});
