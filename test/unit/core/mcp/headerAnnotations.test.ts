/**
 * `x-mcp-header` (protocol 2026-07-28, issue 27 item 3): a tool whose declarations break the spec's
 * rules is left out over Streamable HTTP and reported like a tool with an invalid schema (the problem
 * list `check`, the tree and /servers show); a valid one is called and its argument mirrored into
 * `Mcp-Param-*` by the SDK (asserted on the modern fixture's request log). The rules themselves are
 * checked case by case, and against the SDK client's own exclusion on the same fixture.
 */
import * as assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { AnyObjectSchema } from '../../../../src/core/mcp/anyObjectSchema';
import { headerAnnotations } from '../../../../src/core/mcp/headerAnnotations';
import { checkToolDefinitions } from '../../../../src/core/mcp/checkToolDefinitions';
import { readFixtureLog, startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { listedTools, settings, stateKind, useTestEnv, waitFor, type Any } from '../helpers';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('x-mcp-header declarations: the rules', () => {
  it('counts valid declarations on string, integer and boolean properties, at any depth of "properties"', () => {
    assert.deepEqual(headerAnnotations(obj({ a: { type: 'string' } })), { count: 0 });
    assert.deepEqual(headerAnnotations(obj({ region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' } })), { count: 2 });
    assert.deepEqual(headerAnnotations(obj({ outer: obj({ flag: { type: 'boolean', 'x-mcp-header': 'Flag' } }) })), { count: 1 });
  });

  const invalid: [string, unknown, RegExp][] = [
    ['not a token', obj({ a: { type: 'string', 'x-mcp-header': 'Not A Token!' } }), /"Not A Token!" is not a valid HTTP header name/],
    ['empty', obj({ a: { type: 'string', 'x-mcp-header': '' } }), /must be a non-empty string/],
    ['not a string', obj({ a: { type: 'string', 'x-mcp-header': 7 } }), /must be a non-empty string/],
    ['on an object', obj({ where: { type: 'object', 'x-mcp-header': 'Where' } }), /only on string, integer or boolean properties \(got object\)/],
    ['on a number', obj({ x: { type: 'number', 'x-mcp-header': 'X' } }), /got number/],
    ['without a type', obj({ x: { 'x-mcp-header': 'X' } }), /got no "type"/],
    ['twice regardless of case', obj({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } }), /declared twice/],
    ['at the root', { type: 'object', 'x-mcp-header': 'Root' }, /the schema root/],
    ['under items', obj({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), /allowed only on properties reached through "properties"/],
    ['under anyOf', obj({}, { anyOf: [obj({ a: { type: 'string', 'x-mcp-header': 'A' } })] }), /reached through "properties"/],
    ['under $defs', obj({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'D' } } }), /reached through "properties"/],
  ];
  for (const [what, schema, message] of invalid) {
    it(`refuses a declaration ${what}`, () => {
      const found = headerAnnotations(schema);
      assert.match(found.problem ?? '', message);
    });
  }

  it('checkToolDefinitions leaves such a tool out only where headers are mirrored, with the reason', () => {
    const bad = { name: 'bad_header', inputSchema: obj({ where: { type: 'object', 'x-mcp-header': 'Not A Token!' } }) };
    const good = { name: 'region_lookup', inputSchema: obj({ region: { type: 'string', 'x-mcp-header': 'Region' } }) };
    const mirrored = checkToolDefinitions([bad, good], 0, { headers: true });
    assert.deepEqual(
      mirrored.tools.map((t) => t.name),
      ['region_lookup'],
    );
    assert.equal(mirrored.problems.length, 1);
    assert.equal(mirrored.problems[0].loaded, false);
    assert.match(mirrored.problems[0].message, /^tool "bad_header" is not loaded: its inputSchema's header annotation is invalid: /);
    assert.deepEqual(
      checkToolDefinitions([bad, good]).tools.map((t) => t.name),
      ['bad_header', 'region_lookup'],
    );
  });
});

describe('x-mcp-header through the host (modern fixture)', function () {
  this.timeout(60_000);
  // Registered before useTestEnv's, so the fixtures are gone when it checks that no child is left.
  const fixtures: HttpFixture[] = [];
  afterEach(async () => {
    await Promise.allSettled(fixtures.splice(0).map((f) => f.close()));
  });
  const env = useTestEnv();

  async function httpFixture(extraEnv: Record<string, string> = {}): Promise<{ url: string; log: string }> {
    const log = env.file('modern.jsonl');
    const fixture = await startHttpFixture({ script: 'modern/server', args: ['--http'], env: { FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1', ...extraEnv } });
    fixtures.push(fixture);
    return { url: fixture.url, log };
  }

  it('over HTTP: bad_header is left out and reported; region_lookup is called with its Mcp-Param-Region header', async () => {
    const { url, log } = await httpFixture();
    const h = await env.started({ settings: settings({ servers: [{ ...env.remote('modern', url), connectTimeoutMs: 20_000 }], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
    // The tree and /servers list it as not loaded, with its problem; no model is offered it.
    const views = h.snapshot().tools('modern');
    assert.ok(views.some((v) => v.tool.name === 'region_lookup' && !v.problem));
    const bad = views.find((v) => v.tool.name === 'bad_header');
    assert.ok(bad?.problem, 'bad_header is shown with its problem');
    assert.equal(bad.visible, false);
    assert.ok(!h.snapshot().exposed.some((e) => e.entry.tool.name === 'bad_header'), 'bad_header is left out');
    // The problem list check, the tree and /servers show (HostSnapshot.problems).
    const problem = h.snapshot().problems.find((p) => p.server === 'modern' && p.tool === 'bad_header');
    assert.ok(problem, JSON.stringify(h.snapshot().problems));
    assert.equal(problem.severity, 'error');
    assert.equal(problem.reason, 'invalid');
    assert.match(problem.message, /^tool "bad_header" is not loaded: its inputSchema.s header annotation is invalid: property "where": x-mcp-header "Not A Token!" is not a valid HTTP header name$/);
    assert.ok(h.log.lines.some((l) => l.level === 'warn' && /bad_header/.test(l.message)), 'logged once, like a tool with an invalid schema');

    const r = await h.call({ name: 'modern__region_lookup', args: { region: 'eu-west', id: '7' } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'region: eu-west, id: 7');
    const call = readFixtureLog(log).find((e) => e.event === 'http' && e.mcpMethod === 'tools/call');
    assert.ok(call, 'the fixture saw the tools/call POST');
    assert.equal(call.mcpName, 'region_lookup');
    assert.equal(call.paramRegion, 'eu-west', 'the SDK mirrored the argument into Mcp-Param-Region');
  });

  it("agrees with the SDK client's own exclusion on the same server", async () => {
    const { url } = await httpFixture();
    const client = new Client({ name: 'contract', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)) as Transport);
    try {
      const sdk = (await client.listTools()).tools.map((t) => t.name).sort();
      const raw = (await client.request({ method: 'tools/list' }, AnyObjectSchema)) as Any;
      const host = checkToolDefinitions(raw.tools, 0, { headers: true })
        .tools.map((t) => t.name)
        .sort();
      assert.deepEqual(host, sdk);
    } finally {
      await client.close();
    }
  });

  it('a header mismatch (-32020) after the server renamed its header: the host lists the tool again once and the retry succeeds', async () => {
    const { url, log } = await httpFixture({ FIXTURE_MOVING_HEADER: '1' });
    const h = await env.started({ settings: settings({ servers: [{ ...env.remote('modern', url), connectTimeoutMs: 20_000 }], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
    assert.equal((await h.call({ name: 'modern__move_header', args: {} })).modelText, 'header is now Mcp-Param-Zone2');
    const r = await h.call({ name: 'modern__moving_lookup', args: { zone: 'north' } });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'zone: north');
    const posts = readFixtureLog(log).filter((e) => e.event === 'http' && e.method === 'POST');
    const calls = posts.filter((e) => e.mcpMethod === 'tools/call' && e.mcpName === 'moving_lookup');
    assert.equal(calls.length, 2, 'the first call and one retry');
    assert.ok(posts.indexOf(calls[1]) > posts.indexOf(calls[0]) + 1, 'a tools/list between them');
    assert.ok(posts.slice(posts.indexOf(calls[0]), posts.indexOf(calls[1])).some((e) => e.mcpMethod === 'tools/list'));
    assert.deepEqual(
      readFixtureLog(log).filter((e) => e.event === 'handled' && e.tool === 'moving_lookup').length,
      1,
      'the tool ran once',
    );
    // The host's own listing is read again too (the registry, pins and naming see the new definition).
    const header = () => (listedTools(h, 'modern').find((t) => t.name === 'moving_lookup')?.inputSchema as Any)?.properties?.zone?.['x-mcp-header'];
    await waitFor('the host to list the renamed header', () => header() === 'Zone2', 15_000);
  });

  it('a header mismatch that re-listing does not cure fails clearly, naming the code, after one retry', async () => {
    const { url, log } = await httpFixture({ FIXTURE_MOVING_HEADER: 'always' });
    const h = await env.started({ settings: settings({ servers: [{ ...env.remote('modern', url), connectTimeoutMs: 20_000 }], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
    const r = await h.call({ name: 'modern__moving_lookup', args: { zone: 'south' } });
    assert.equal(r.outcome, 'error', r.modelText);
    assert.match(r.modelText, /server "modern" rejected the request's HTTP headers as not matching its body \(error -32020 \(header mismatch\)\).*\(again after the host listed the tool anew\)/);
    const calls = readFixtureLog(log).filter((e) => e.event === 'http' && e.mcpMethod === 'tools/call' && e.mcpName === 'moving_lookup');
    assert.equal(calls.length, 2, 'one retry, no more');
  });

  it('over stdio nothing is mirrored: bad_header is loaded and callable', async () => {
    const h = await env.started({ settings: settings({ servers: [env.stdio('modern', 'modern/server', { connectTimeoutMs: 20_000 })], autoApprove: ['*/*'] }) });
    assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
    const r = await h.call({ name: 'modern__bad_header', args: {} });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'bad_header was called');
  });
});
