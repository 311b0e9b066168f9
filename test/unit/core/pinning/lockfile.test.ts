import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Tool } from '@modelcontextprotocol/client';
import { emptyLockfile, LockfileError, parseLockfile, serializeLockfile, withServer, type Lockfile } from '../../../../src/core/pinning/lockfile';
import { FileLockfileStore } from '../../../../src/core/pinning/lockfileStore';
import { commandLine, identityChanges, serverIdentity } from '../../../../src/core/pinning/serverIdentity';
import { definitionHash } from '../../../../src/core/tools/definitionHash';
import { useTestEnv } from '../helpers';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } } } });

function lockWith(tools: Tool[]): Lockfile {
  return withServer(emptyLockfile(), 'srv', {
    identity: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/s.js'], envKeys: ['TOKEN'] },
    serverInfo: { name: 'srv', version: '1.0.0' },
    tools: Object.fromEntries(tools.map((t) => [t.name, { hash: definitionHash(t), definition: t }])),
  });
}

describe('lockfile', () => {
  const env = useTestEnv();

  it('serializes deterministically: the same content in any key order gives the same bytes, sorted', () => {
    const a = lockWith([tool('beta', 'B'), tool('alpha', 'A')]);
    const shuffled: Tool = { inputSchema: { properties: { a: { type: 'number' }, b: { type: 'string' } }, type: 'object' }, description: 'B', name: 'beta' };
    const b = lockWith([tool('alpha', 'A'), shuffled]);
    assert.equal(serializeLockfile(a), serializeLockfile(b));
    const text = serializeLockfile(a);
    assert.ok(text.endsWith('}\n'));
    assert.ok(text.indexOf('"alpha"') < text.indexOf('"beta"'), 'tools sorted by name');
    assert.deepEqual(parseLockfile(text), JSON.parse(text));
    assert.equal(JSON.parse(text).servers.srv.tools.beta.hash, definitionHash(shuffled), 'the hash is stable under key order');
  });

  it('refuses a lockfile of another shape with a message naming the place', () => {
    const bad = (text: string, re: RegExp) => assert.throws(() => parseLockfile(text), (e: unknown) => e instanceof LockfileError && re.test(e.message));
    bad('{', /not valid JSON/);
    bad('{"version":2,"servers":{}}', /unsupported version 2/);
    bad('{"version":1,"servers":{"s":{"identity":{"type":"ftp"},"tools":{}}}}', /servers\."s"\.identity\.type/);
    bad('{"version":1,"servers":{"s":{"identity":{"type":"http","url":"u"},"tools":{"x":{"hash":"h","definition":{"name":"y"}}}}}}', /tools\."x"\.definition\.name must be "x"/);
  });

  it('the file store writes whole files and reports an unusable one', () => {
    const file = env.file('mcp-host.lock.json');
    const store = new FileLockfileStore(file);
    assert.deepEqual(store.read(), { lock: emptyLockfile(), exists: false });
    store.write(lockWith([tool('alpha', 'A')]));
    assert.equal(fs.readFileSync(file, 'utf8'), serializeLockfile(lockWith([tool('alpha', 'A')])));
    fs.writeFileSync(file, '{"version": 1');
    const r = store.read();
    assert.ok('error' in r && /is not a valid lockfile: not valid JSON/.test(r.error), JSON.stringify(r));
  });

  it('identities: resolved values, the workspace folder as ${workspaceFolder}, secrets masked, env values never kept', () => {
    const resolved = {
      name: 's',
      type: 'stdio' as const,
      enabled: true,
      connectTimeoutMs: 1,
      command: '/ws/bin/server',
      args: ['--token', 'sk-very-secret', '/ws/data dir'],
      env: { API_KEY: 'sk-very-secret', HOME: '/home/x' },
      cwd: '/ws/sub',
    };
    const portable = serverIdentity(resolved, { secretValues: ['sk-very-secret'], workspaceFolder: '/ws' });
    assert.deepEqual(portable, { type: 'stdio', command: '${workspaceFolder}/bin/server', args: ['--token', '[secret]', '${workspaceFolder}/data dir'], cwd: '${workspaceFolder}/sub', envKeys: ['API_KEY', 'HOME'] });
    const exact = serverIdentity(resolved, { secretValues: ['sk-very-secret'] });
    assert.equal(commandLine(exact), `/ws/bin/server --token '[secret]' '/ws/data dir'`);
    assert.ok(!JSON.stringify(exact).includes('sk-very-secret') && !JSON.stringify(exact).includes('/home/x'));
    assert.deepEqual(identityChanges(exact, { ...exact, args: ['x'] } as typeof exact), ['args']);
    assert.deepEqual(serverIdentity({ name: 'r', type: 'http', enabled: true, connectTimeoutMs: 1, url: 'https://h/mcp?key=sk-very-secret', headers: { Authorization: 'x' } }, { secretValues: ['sk-very-secret'] }), {
      type: 'http',
      url: 'https://h/mcp?key=[secret]',
    });
  });
});
