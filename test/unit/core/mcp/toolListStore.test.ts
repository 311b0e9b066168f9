/**
 * The CLI's kept tool lists (ToolListStore, issue 27 item 3: a one-shot call may use a fresh kept
 * list to skip discovery): keyed by the server exactly as started under the user's key, never used
 * after the server's ttlMs (capped), never trusted when the file is malformed or its times do not add
 * up, and kept only when every credential that reaches the server is in the key.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryIdentityKey } from '../../../../src/core/consent/identityKey';
import { MAX_CACHE_TTL_MS } from '../../../../src/core/mcp/responseCache';
import { FileToolListStore, keepsAcrossProcesses, linesNamed, wholeList } from '../../../../src/core/mcp/toolListStore';
import type { ServerSettings } from '../../../../src/core/settings/hostSettings';

describe('FileToolListStore', () => {
  let dir: string;
  let now: number;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-kept-'));
    now = 1_000_000;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const server = (token: string): ServerSettings =>
    ({ name: 's', type: 'stdio', command: 'node', args: ['s.mjs'], env: { TOKEN: token }, enabled: true }) as unknown as ServerSettings;
  const list = (expiresIn: number) => ({ tools: [{ name: 'a', inputSchema: { type: 'object' } }], problems: [{ tool: 'b', message: 'tool "b" is not loaded', loaded: false }], expiresAt: now + expiresIn });

  it('gives back a list until it expires, then removes it', async () => {
    const store = new FileToolListStore(dir, new MemoryIdentityKey(), () => now);
    await store.set(server('x'), list(60_000));
    const files = fs.readdirSync(dir);
    assert.equal(files.length, 1);
    assert.match(files[0], /^[0-9a-f]{64}\.json$/);
    assert.equal(fs.statSync(path.join(dir, files[0])).mode & 0o777, 0o600);
    assert.ok(!fs.readFileSync(path.join(dir, files[0]), 'utf8').includes('TOKEN'), 'the settings are only in the keyed file name');
    assert.deepEqual(await store.get(server('x')), list(60_000));
    assert.deepEqual(await store.get(server('x'), 'a'), list(60_000), 'one name: only its entries');
    assert.deepEqual((await store.get(server('x'), 'b'))!.tools, []);
    now += 59_999;
    assert.ok(await store.get(server('x')));
    now += 1;
    assert.equal(await store.get(server('x')), undefined);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('another value anywhere in the settings (an env value, a token) is another key; another user key too', async () => {
    const key = new MemoryIdentityKey();
    const store = new FileToolListStore(dir, key, () => now);
    await store.set(server('x'), list(60_000));
    assert.equal(await store.get(server('y')), undefined);
    assert.equal(await new FileToolListStore(dir, new MemoryIdentityKey(), () => now).get(server('x')), undefined);
    assert.ok(await new FileToolListStore(dir, key, () => now).get(server('x')));
  });

  it('caps a server’s ttlMs at MAX_CACHE_TTL_MS, and distrusts files whose times do not add up or that do not parse', async () => {
    const store = new FileToolListStore(dir, new MemoryIdentityKey(), () => now);
    await store.set(server('x'), list(24 * 3600_000));
    assert.equal((await store.get(server('x')))!.expiresAt, now + MAX_CACHE_TTL_MS);
    const file = path.join(dir, fs.readdirSync(dir)[0]);
    const header = { version: 2, storedAt: now, expiresAt: now + 1000, problems: [] };
    const line = JSON.stringify(['a', { name: 'a', inputSchema: { type: 'object' } }]);
    const write = (h: unknown, ...lines: string[]) => fs.writeFileSync(file, [typeof h === 'string' ? h : JSON.stringify(h), ...lines].join('\n') + '\n');
    for (const [h, lines] of [
      [{ ...header, expiresAt: now + MAX_CACHE_TTL_MS + 1 }, [line]],
      [{ ...header, storedAt: now + 5000, expiresAt: now + 6000 }, [line]],
      [{ ...header, problems: [{ tool: 1 }] }, [line]],
      [{ ...header, version: 1 }, [line]],
      ['not json', [line]],
      [header, ['["a", not json']],
      [header, ['["a", {']],
      [header, ['["a", 1]', '["b", 2']],
    ] as const) {
      for (const tool of [undefined, 'a']) {
        write(h, ...lines);
        const broken = lines[1] === undefined || tool === undefined;
        assert.equal(await store.get(server('x'), tool) === undefined, broken, JSON.stringify([h, lines, tool]));
        assert.equal(fs.existsSync(file), !broken, 'a file that cannot be used is removed');
      }
    }
    // A line that is not `[name, tool]`: the whole read refuses the file; a lookup of one name only
    // reads that name's lines, finds none here, and the one-shot call then lists the server (keptTool).
    write(header, '{"name": "a"}');
    assert.deepEqual((await store.get(server('x'), 'a'))?.tools, []);
    assert.equal(await store.get(server('x')), undefined);
    assert.ok(!fs.existsSync(file));
    write(header, line);
    assert.deepEqual(await store.get(server('x'), 'a'), { tools: [{ name: 'a', inputSchema: { type: 'object' } }], problems: [], expiresAt: now + 1000 });
  });

  it('finds the lines of one name exactly as the whole read does (names that quote, escape, nest or prefix one another)', async () => {
    const names = ['tool_1', 'tool_10', 'tool_1"', 'tool_1\\', 'a"b\\c', 'é\u2028ü', '\ud800lone', '[x]', 'tool_1,', ' spaced', 'dup', 'dup', '\n', '"', ''];
    const tools = names.map((name, i) => ({ name, description: `#${i} mentions \n["tool_1",` + ' and "dup"', inputSchema: { type: 'object' } }));
    const store = new FileToolListStore(dir, new MemoryIdentityKey(), () => now);
    await store.set(server('x'), { tools, problems: [], expiresAt: now + 60_000 });
    const bytes = fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]));
    const whole = wholeList(bytes);
    assert.equal(whole.length, tools.length);
    for (const name of [...new Set(names), 'tool', 'tool_', 'missing', 'ü']) {
      const plain = whole.filter((t) => (t as { name: string }).name === name);
      assert.deepEqual(linesNamed(bytes, name), plain, JSON.stringify(name));
      assert.deepEqual((await store.get(server('x'), name))!.tools, plain);
    }
    assert.equal(linesNamed(bytes, 'dup').length, 2);
  });

  it('keeps a list only when the server allowed it and every credential is in the key', () => {
    const stdio = server('x');
    const http = { name: 'h', type: 'http', url: 'https://example.test/mcp', headers: {}, enabled: true } as unknown as ServerSettings;
    assert.equal(keepsAcrossProcesses(stdio, { ttlMs: 60_000 }), true);
    assert.equal(keepsAcrossProcesses(stdio, { ttlMs: 60_000, cacheScope: 'private' }), true, "a stdio server's credentials are all in its settings");
    assert.equal(keepsAcrossProcesses(stdio, { ttlMs: 0 }), false);
    assert.equal(keepsAcrossProcesses(stdio, {}), false);
    assert.equal(keepsAcrossProcesses(http, { ttlMs: 60_000, cacheScope: 'public' }), true);
    assert.equal(keepsAcrossProcesses(http, { ttlMs: 60_000, cacheScope: 'private' }), false, 'OAuth tokens are not in the key');
    assert.equal(keepsAcrossProcesses(http, { ttlMs: 60_000 }), false, 'no cacheScope means private');
  });
});
