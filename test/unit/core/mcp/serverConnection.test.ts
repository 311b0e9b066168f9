/**
 * Behaviours 1 and 2: connecting to real servers over stdio, Streamable HTTP and SSE; what
 * initialize told us; failures that stay local to one server; discovery across pages.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { ConnectionState } from '../../../../src/core/mcp/connectionState';
import { readFixtureLog } from '../../../fixtures/fixtureServers';
import { mapSecrets, settings, stateKind, useTestEnv, type Any, loaded, listedTools, serverView } from '../helpers';

describe('McpHost: connect and discover', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('starts several stdio servers in parallel and keeps what initialize said', async () => {
    const names = ['basic', 'slow', 'paginated', 'collide'];
    const host = env.host({ settings: settings({ servers: names.map((n) => env.stdio(n, n)) }) });
    const events: string[] = [];
    host.onDidChangeServerState((e) => events.push(`${e.state.kind} ${e.server}`));
    await host.start();
    for (const n of names) assert.equal(stateKind(host, n), 'connected', n);
    // Started one after another, a server would only start once the previous one had connected.
    const firstConnected = events.findIndex((e) => e.startsWith('connected'));
    assert.deepEqual(
      events.slice(0, firstConnected).sort(),
      names.map((n) => `starting ${n}`).sort(),
      `every server was starting before any connected: ${events.join(', ')}`,
    );
    for (const n of names) {
      const init = env.events(n).find((e) => e.event === 'initialize');
      assert.ok(init, `${n} received initialize`);
      assert.equal(init.clientInfo.name, 'mcp-host');
    }

    const basic = serverView(host, 'basic').state as Extract<ConnectionState, { kind: 'connected' }>;
    assert.equal(basic.info.protocolVersion, LATEST_PROTOCOL_VERSION);
    assert.deepEqual(basic.info.serverInfo, { name: 'basic', version: '1.0.0' });
    assert.ok(basic.info.capabilities.tools, 'tools capability');
    assert.ok(basic.info.capabilities.logging, 'logging capability');
    assert.match(ConnectionState.describe(basic), /^connected to basic 1\.0\.0 \(protocol .+\)$/);
    assert.deepEqual(
      listedTools(host, 'basic').map((t) => t.name).sort(),
      ['add', 'echo', 'embedded_resource', 'fail', 'image', 'noop', 'resource_link', 'secret_echo', 'wait'],
    );
  });

  it('never sends tools/list to a server without the tools capability', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('notools', 'no-tools'), env.stdio('basic', 'basic')] }) });
    assert.equal(stateKind(host, 'notools'), 'connected');
    const info = (serverView(host, 'notools').state as Any).info;
    assert.equal(info.capabilities.tools, undefined);
    assert.ok(info.capabilities.resources);
    assert.deepEqual(listedTools(host, 'notools'), []);
    assert.ok(loaded(host).every((e) => e.server === 'basic'));
    // Refreshing on demand does not send it either.
    await host.servers.refreshTools();
    const methods = env.events('notools').filter((e) => e.event === 'request').map((e) => e.method);
    assert.ok(methods.includes('initialize'), 'the log does record requests');
    assert.ok(!methods.includes('tools/list'), `never tools/list: ${methods.join(', ')}`);
  });

  it('a server that cannot start or dies at start is in error with a readable reason; the others connect', async () => {
    const bad = { ...env.stdio('bad', 'basic'), command: '/nonexistent/mcp-server' };
    const crashy = env.stdio('crashy', 'crashy', { env: { FIXTURE_CRASH_ON_START: '1' } });
    const host = await env.started({ settings: settings({ servers: [bad, crashy, env.stdio('basic', 'basic')] }) });

    const badState = serverView(host, 'bad').state;
    assert.equal(badState.kind, 'error');
    assert.match((badState as Any).message, /cannot start "\/nonexistent\/mcp-server".*ENOENT/);

    const crashState = serverView(host, 'crashy').state;
    assert.equal(crashState.kind, 'error');
    const message: string = (crashState as Any).message;
    assert.match(message, /exited \(code 4\)/, message);
    assert.match(message, /crashing on start/, 'names the server’s stderr');
    assert.deepEqual(
      env.events('crashy').filter((e) => e.event === 'exit').map((e) => e.code),
      [4],
    );

    assert.equal(stateKind(host, 'basic'), 'connected');
    assert.ok(host.snapshot().exposed.length > 0);
    assert.ok(host.snapshot().exposed.every((t) => t.entry.server === 'basic'));
  });

  it('a server slower than connectTimeoutMs ends in error (and its process is gone)', async () => {
    const slow = env.stdio('late', 'basic', { env: { FIXTURE_INIT_DELAY_MS: '5000' }, connectTimeoutMs: 300 });
    const host = env.host({ settings: settings({ servers: [slow, env.stdio('basic', 'basic')] }) });
    const t0 = Date.now();
    await host.start();
    assert.ok(Date.now() - t0 < 4500, 'start does not wait for the late server’s 5 s initialize');
    const s = serverView(host, 'late').state;
    assert.equal(s.kind, 'error');
    assert.match((s as Any).message, /did not answer initialize within 300 ms/);
    assert.equal(stateKind(host, 'basic'), 'connected');
    // Cleanup in afterEach asserts that the abandoned process does not outlive the test.
  });

  it('connects over Streamable HTTP with auth headers (${secret:NAME} resolved), and never shows the secret', async () => {
    const SECRET = 'tok-9f8e7d6c5b4a';
    const WRONG = 'wrong-0a1b2c3d4e';
    const auditPath = env.file('audit.jsonl');
    const httpLog = env.file('http.jsonl');
    const http = await env.http({ FIXTURE_REQUIRE_AUTH: SECRET, FIXTURE_LOG: httpLog });
    const host = await env.started({
      settings: settings({
        servers: [
          env.remote('good', http.url, 'http', { Authorization: 'Bearer ${secret:api-token}' }),
          env.remote('bad', http.url, 'http', { Authorization: 'Bearer ${secret:other}' }),
          env.remote('missing', http.url, 'http', { Authorization: 'Bearer ${secret:not-set}' }),
        ],
        autoApprove: ['*/*'],
      }),
      secrets: mapSecrets({ 'api-token': SECRET, other: WRONG }),
      auditPathOverride: auditPath,
    });
    const good = serverView(host, 'good').state as Any;
    assert.equal(good.kind, 'connected');
    assert.equal(good.info.serverInfo.name, 'http-streamable');
    assert.equal(host.log.matching(/\[good\].*over streamableHttp/).length, 1);
    const ok = await host.call({ name: 'good__echo', args: { text: 'authorized' } });
    assert.equal(ok.modelText, 'echo: authorized');
    const fail = await host.call({ name: 'good__fail', args: { reason: 'x' } });
    assert.equal(fail.outcome, 'isError');

    const bad = serverView(host, 'bad').state as Any;
    assert.equal(bad.kind, 'error');
    assert.match(bad.message, /HTTP 401.*check the server's headers and secrets/);
    const missing = serverView(host, 'missing').state as Any;
    assert.equal(missing.kind, 'error');
    assert.match(missing.message, /secret "not-set" is not set/);
    assert.ok(readFixtureLog(httpLog).some((e) => e.event === 'unauthorized'), 'the wrong token reached the server and was refused');

    const everything = [
      host.log.text(),
      JSON.stringify(host.snapshot().servers.map((c) => c.state)),
      fs.readFileSync(auditPath, 'utf8'),
      ok.modelText,
      fail.modelText,
    ].join('\n');
    assert.ok(!everything.includes(SECRET), 'the secret never appears in logs, states or audit');
    assert.ok(!everything.includes(WRONG), 'nor does a wrong secret');
  });

  it('a stdio server’s secret env values are masked in its stderr lines and in its error state', async () => {
    const SECRET = 'stdio-secret-31415';
    const server = {
      ...env.stdio('leaky', 'basic'),
      command: 'sh',
      args: ['-c', 'echo "starting with token $API_TOKEN" >&2; exit 9'],
      env: { API_TOKEN: '${secret:token}' },
    };
    const host = await env.started({ settings: settings({ servers: [server] }), secrets: mapSecrets({ token: SECRET }) });
    const s = serverView(host, 'leaky').state as Any;
    assert.equal(s.kind, 'error');
    assert.match(s.message, /exited \(code 9\)/);
    assert.match(s.message, /starting with token \[secret\]/, 'the stderr line is shown, masked');
    assert.match(host.log.text(), /stderr: starting with token \[secret\]/);
    assert.ok(!host.log.text().includes(SECRET));
    assert.ok(!s.message.includes(SECRET));
  });

  it('falls back to SSE when the endpoint only speaks SSE (type http), uses SSE when forced, with auth headers either way', async () => {
    const SECRET = 'sse-secret-5566';
    const sse = await env.http({ FIXTURE_MODE: 'sse', FIXTURE_REQUIRE_AUTH: SECRET });
    const auth = { Authorization: 'Bearer ${secret:t}' };
    const host = await env.started({
      settings: settings({ servers: [env.remote('auto', sse.url, 'http', auth), env.remote('forced', sse.url, 'sse', auth)], autoApprove: ['*/*'] }),
      secrets: mapSecrets({ t: SECRET }),
    });
    for (const name of ['auto', 'forced']) {
      const s = serverView(host, name).state as Any;
      assert.equal(s.kind, 'connected', `${name}: ${JSON.stringify(s)}`);
      assert.equal(s.info.serverInfo.name, 'http-sse');
      const r = await host.call({ name: `${name}__echo`, args: { text: name } });
      assert.equal(r.modelText, `echo: ${name}`);
    }
    assert.equal(host.log.matching(/\[auto\].*Streamable HTTP answered 405; falling back to SSE/).length, 1);
    assert.equal(host.log.matching(/\[forced\].*falling back/).length, 0, 'forced SSE does not try Streamable HTTP');
    assert.equal(host.log.matching(/\[auto\].*over sse/).length, 1);
    assert.equal(host.log.matching(/\[forced\].*over sse/).length, 1);
    assert.ok(!host.log.text().includes(SECRET));
  });

  it('discovers every page of a paginated tools/list (7 in pages of 3, 50 in pages of 4)', async () => {
    const host = await env.started({
      settings: settings({
        servers: [
          env.stdio('pages', 'paginated', { env: { FIXTURE_LOG_REQUESTS: '1' } }),
          env.stdio('many', 'paginated', { env: { FIXTURE_TOOL_COUNT: '50', FIXTURE_PAGE_SIZE: '4' } }),
        ],
        autoApprove: ['*/*'],
      }),
    });
    assert.equal(listedTools(host, 'many').length, 50, '50 tools in pages of 4');
    assert.equal(new Set(listedTools(host, 'many').map((t) => t.name)).size, 50);
    assert.deepEqual(
      loaded(host).filter((e) => e.server === 'pages').map((e) => e.name),
      ['tool_01', 'tool_02', 'tool_03', 'tool_04', 'tool_05', 'tool_06', 'tool_07'].map((t) => `pages__${t}`),
    );
    const lists = env.events('pages').filter((e) => e.event === 'request' && e.method === 'tools/list');
    assert.equal(lists.length, 3, '7 tools in pages of 3');
    assert.equal((await host.call({ name: 'pages__tool_07' })).modelText, 'tool_07');
  });
});
