/**
 * Resources and prompts (issue 13) against the catalog fixture over stdio: every page listed,
 * list_changed refreshes, reads and prompt uses through one audited path, role gating at list and
 * read time, completions, subscriptions, and logging/setLevel following the host's level.
 */
import * as assert from 'node:assert/strict';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { AuditRecord } from '../../../../src/core/audit/auditRecord';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import type { HostLogLevel } from '../../../../src/core/mcp/serverLogLevel';
import { Emitter } from '../../../../src/core/util/event';
import { role, settings, useTestEnv, waitFor, waitForState, type Any } from '../helpers';

const BASE = 'fixture://catalog';

describe('host.catalog: resources and prompts of the catalog fixture', function () {
  this.timeout(20_000);
  const env = useTestEnv();
  let audit: MemorySink;

  async function start(roleSettings?: Parameters<typeof role>[1]) {
    audit = new MemorySink();
    const roles = roleSettings ? [role('r', { servers: ['catalog'], ...roleSettings })] : [];
    return env.started({ settings: settings({ servers: [env.stdio('catalog', 'catalog')], roles, activeRole: roleSettings ? 'r' : undefined, autoApprove: ['*/*'] }), auditSinks: [audit] });
  }
  const records = (kind: string) => audit.records.filter((r: AuditRecord) => r.kind === kind) as Any[];
  const fixture = (event: string) => env.events('catalog').filter((e: Any) => e.event === event);
  const changed = (host: McpHost, pred: () => boolean) => waitFor('the snapshot to change', pred, 5000);

  it('lists every page of resources, templates and prompts (and tools); no role sees all of them', async () => {
    const host = await start();
    const s = host.snapshot();
    assert.deepEqual(
      s.resources('catalog').map((r) => r.resource.uri),
      [1, 2, 3, 4, 5, 6, 7].map((i) => `${BASE}/doc/${i}`).concat(`${BASE}/image.png`),
    );
    assert.deepEqual(s.resourceTemplates('catalog').map((t) => t.template.name), ['item', 'profile', 'log', 'blob']);
    assert.deepEqual(s.prompts('catalog').map((p) => p.prompt.name), ['plain', 'greet', 'summarize', 'with-resource', 'fifth']);
    assert.equal(s.tools('catalog').length, 6);
    assert.ok([...s.resources('catalog'), ...s.resourceTemplates('catalog'), ...s.prompts('catalog')].every((v) => v.visible));
    assert.equal(s.visibleResources().length, 8);
  });

  it('refreshes on resources/list_changed and prompts/list_changed', async () => {
    const host = await start();
    await host.call({ name: 'catalog__add_resource', args: { name: 'new' } });
    await changed(host, () => host.snapshot().resources('catalog').some((r) => r.resource.uri === `${BASE}/extra/new`));
    await host.call({ name: 'catalog__remove_resource', args: { uri: `${BASE}/doc/1` } });
    await changed(host, () => !host.snapshot().resources('catalog').some((r) => r.resource.uri === `${BASE}/doc/1`));
    await host.call({ name: 'catalog__add_prompt', args: { name: 'sixth' } });
    await changed(host, () => host.snapshot().prompts('catalog').some((p) => p.prompt.name === 'sixth'));
  });

  it('reads text, binary and templated resources; each read is audited; an unknown URI is notFound', async () => {
    const host = await start();
    const doc = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/doc/1` });
    assert.equal(doc.outcome, 'ok', doc.text);
    assert.deepEqual(doc.contents, [{ uri: `${BASE}/doc/1`, mimeType: 'text/plain', text: 'doc-1 version 1' }]);
    const image = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/image.png`, purpose: 'chat' });
    assert.equal(image.outcome, 'ok');
    assert.equal((image.contents[0] as Any).mimeType, 'image/png');
    assert.match((image.contents[0] as Any).blob, /^iVBOR/);
    const item = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/item/42` });
    assert.equal((item.contents[0] as Any).text, 'item 42');
    const missing = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/nope` });
    assert.equal(missing.outcome, 'notFound');
    assert.match(missing.text, /Resource not found/);
    const recs = records('resource');
    assert.deepEqual(
      recs.map((r) => [r.server, r.uri, r.purpose, r.outcome, r.role]),
      [
        ['catalog', `${BASE}/doc/1`, 'view', 'ok', null],
        ['catalog', `${BASE}/image.png`, 'chat', 'ok', null],
        ['catalog', `${BASE}/item/42`, 'view', 'ok', null],
        ['catalog', `${BASE}/nope`, 'view', 'notFound', null],
      ],
    );
    assert.equal(recs[1].result, 'image/png 77 B (binary)');
    assert.ok(recs.every((r) => typeof r.durationMs === 'number' && !Number.isNaN(Date.parse(r.ts))));
  });

  it('a role without resources/prompts globs sees none, and a direct read or prompt use is refused and audited', async () => {
    const host = await start({});
    const s = host.snapshot();
    assert.equal(s.resources('catalog').length, 8, 'the tree still lists what the server offers');
    assert.ok(s.resources('catalog').every((r) => !r.visible));
    assert.ok(s.prompts('catalog').every((p) => !p.visible));
    assert.deepEqual([s.visibleResources().length, s.visibleResourceTemplates().length, s.visiblePrompts().length], [0, 0, 0]);
    const read = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/doc/1` });
    assert.equal(read.outcome, 'notAllowed');
    assert.match(read.text, /not available to role "r"/);
    const prompt = await host.catalog.getPrompt({ server: 'catalog', name: 'plain' });
    assert.equal(prompt.outcome, 'notAllowed');
    assert.deepEqual(fixture('read'), [], 'the server never saw the read');
    assert.deepEqual(fixture('getPrompt'), []);
    assert.deepEqual(records('resource').map((r) => [r.role, r.uri, r.outcome]), [['r', `${BASE}/doc/1`, 'notAllowed']]);
    assert.deepEqual(records('prompt').map((r) => [r.role, r.prompt, r.outcome]), [['r', 'plain', 'notAllowed']]);
    assert.deepEqual((await host.catalog.complete({ server: 'catalog', ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' } })).values, []);
  });

  it("a role's globs decide per URI and per prompt, at list and at read time", async () => {
    const host = await start({ resources: [`catalog/${BASE}/doc/*`, `*/${BASE}/item/*`], prompts: ['catalog/greet'] });
    const s = host.snapshot();
    assert.deepEqual(s.visibleResources().map((r) => r.resource.name), [1, 2, 3, 4, 5, 6, 7].map((i) => `doc-${i}`));
    assert.deepEqual(s.visibleResourceTemplates().map((t) => t.template.name), ['item']);
    assert.deepEqual(s.visiblePrompts().map((p) => p.prompt.name), ['greet']);
    assert.equal((await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/doc/3` })).outcome, 'ok');
    assert.equal((await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/item/7` })).outcome, 'ok');
    assert.equal((await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/image.png` })).outcome, 'notAllowed');
    assert.equal((await host.catalog.getPrompt({ server: 'catalog', name: 'greet', args: { name: 'Ada' } })).outcome, 'ok');
    assert.equal((await host.catalog.getPrompt({ server: 'catalog', name: 'plain' })).outcome, 'notAllowed');
    assert.deepEqual(fixture('read').map((e) => e.uri), [`${BASE}/doc/3`, `${BASE}/item/7`]);
  });

  it("a role's globs match the canonical URI, the server receives exactly that URI, and an ambiguous URI is refused and audited, never sent", async () => {
    // The fixture serves fixture://catalog/item/<anything>, dots and escapes included: only the host stands in the way.
    const host = await start({ resources: [`catalog/${BASE}/item/*`] });
    const read = (uri: string) => host.catalog.readResource({ server: 'catalog', uri });
    for (const uri of [`${BASE}/item/../doc/1`, `${BASE}/item/%2e%2e/doc/1`, `${BASE}/item/%2E%2E/doc/1`, `${BASE}/item/sub/../../doc/1`]) {
      const r = await read(uri);
      assert.equal(r.outcome, 'notAllowed', `${uri}: ${r.text}`);
      assert.match(r.text, new RegExp(`resource "${BASE}/doc/1" of server "catalog" is not available to role "r"`));
    }
    for (const uri of [`${BASE}/item/..%2Fdoc/1`, `${BASE}/item/..%5cdoc`, `${BASE}/item/%252e%252e/doc/1`, `${BASE}/item/1%00`, `${BASE}/item/../../../x`]) {
      const r = await read(uri);
      assert.equal(r.outcome, 'notAllowed', `${uri}: ${r.text}`);
      assert.match(r.text, /^refused without asking server "catalog": the URI ".*" (contains|has a "\.\." segment)/);
    }
    // Allowed once canonical; what the server receives is the canonical URI that was checked.
    const dotted = await read(`${BASE}/item/./7`);
    assert.equal(dotted.outcome, 'ok', dotted.text);
    assert.equal((dotted.contents[0] as Any).text, 'item 7');
    const cased = await read(`FIXTURE://Catalog/item/%41b%7e`);
    assert.equal(cased.outcome, 'ok', cased.text);
    assert.equal((cased.contents[0] as Any).text, 'item Ab~');
    assert.deepEqual(fixture('read').map((e) => e.uri), [`${BASE}/item/7`, `${BASE}/item/Ab~`], 'nothing else reached the server');
    const recs = records('resource');
    assert.deepEqual(recs.slice(0, 2).map((r) => [r.uri, r.requestedUri, r.outcome]), [
      [`${BASE}/doc/1`, `${BASE}/item/../doc/1`, 'notAllowed'],
      [`${BASE}/doc/1`, `${BASE}/item/%2e%2e/doc/1`, 'notAllowed'],
    ]);
    assert.deepEqual([recs[4].uri, recs[4].requestedUri, recs[4].outcome], [`${BASE}/item/..%2Fdoc/1`, undefined, 'notAllowed']);
    assert.match(recs[4].result, /contains an encoded "\/" \(%2F\) in its path/);
    assert.deepEqual(recs.slice(-2).map((r) => [r.uri, r.requestedUri, r.outcome]), [
      [`${BASE}/item/7`, `${BASE}/item/./7`, 'ok'],
      [`${BASE}/item/Ab~`, 'FIXTURE://Catalog/item/%41b%7e', 'ok'],
    ]);
    // Subscriptions and completions go through the same check.
    assert.equal(await host.catalog.subscribe('catalog', `${BASE}/item/%2e%2e/doc/2`), false);
    assert.equal(await host.catalog.subscribe('catalog', `${BASE}/item/..%2Fdoc/2`), false);
    assert.deepEqual(fixture('subscribe'), []);
  });

  it('without a role every resource is readable, but an ambiguous URI is still refused and never sent', async () => {
    const host = await start();
    const r = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/item/%2e%2e/%2e%2e/%2e%2e/etc` });
    assert.equal(r.outcome, 'notAllowed');
    assert.match(r.text, /climbs above the start of its path/);
    const ok = await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/item/x/../y` });
    assert.equal(ok.outcome, 'ok', ok.text);
    assert.deepEqual(fixture('read').map((e) => e.uri), [`${BASE}/item/y`]);
    assert.deepEqual(records('resource').map((x) => [x.role, x.outcome]), [[null, 'notAllowed'], [null, 'ok']]);
  });

  it('prompts: messages come back; required arguments are checked first; arguments are redacted in the audit', async () => {
    const host = await start();
    const greet = await host.catalog.getPrompt({ server: 'catalog', name: 'greet', args: { name: 'Ada' } });
    assert.equal(greet.outcome, 'ok', greet.text);
    assert.equal(greet.description, 'A greeting');
    assert.deepEqual(greet.messages, [
      { role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } },
      { role: 'assistant', content: { type: 'text', text: 'Hello, Ada!' } },
    ]);
    const missing = await host.catalog.getPrompt({ server: 'catalog', name: 'greet' });
    assert.equal(missing.outcome, 'invalidArgs');
    assert.match(missing.text, /needs the argument name/);
    const secret = await host.catalog.getPrompt({ server: 'catalog', name: 'summarize', args: { topic: 'MCP', token: 'hunter2' } });
    assert.equal(secret.outcome, 'ok');
    assert.equal((await host.catalog.getPrompt({ server: 'catalog', name: 'sixth' })).outcome, 'notFound');
    assert.deepEqual(fixture('getPrompt').map((e) => e.name), ['greet', 'summarize'], 'invalid and unknown prompts never reach the server');
    const recs = records('prompt');
    assert.deepEqual(recs.map((r) => [r.prompt, r.outcome]), [['greet', 'ok'], ['greet', 'invalidArgs'], ['summarize', 'ok'], ['sixth', 'notFound']]);
    assert.deepEqual(recs[2].args, { topic: 'MCP', token: '[redacted]' });
    assert.equal(recs[0].result, '2 messages');
  });

  it('completes prompt and template arguments through completion/complete', async () => {
    const host = await start();
    const names = await host.catalog.complete({ server: 'catalog', ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } });
    assert.deepEqual(names.values, ['Alice', 'Alan']);
    const ids = await host.catalog.complete({ server: 'catalog', ref: { type: 'ref/resource', uri: `${BASE}/item/{id}` }, argument: { name: 'id', value: '' } });
    assert.deepEqual(ids.values, ['1', '2', '3']);
  });

  it('subscriptions: resources/updated reaches onDidUpdateResource and survives a restart', async () => {
    const host = await start();
    const updates: string[] = [];
    host.catalog.onDidUpdateResource((e) => updates.push(`${e.server} ${e.uri}`));
    assert.equal(await host.catalog.subscribe('catalog', `${BASE}/doc/2`), true);
    await host.call({ name: 'catalog__touch', args: { uri: `${BASE}/doc/2` } });
    await waitFor('the update', () => updates.length === 1);
    assert.deepEqual(updates, [`catalog ${BASE}/doc/2`]);
    assert.equal(((await host.catalog.readResource({ server: 'catalog', uri: `${BASE}/doc/2` })).contents[0] as Any).text, 'doc-2 version 2');
    await host.servers.restartServer('catalog');
    await waitForState(host, 'catalog', (st) => st.kind === 'connected');
    await waitFor('the subscription to be renewed', () => fixture('subscribe').length === 2);
    await host.catalog.unsubscribe('catalog', `${BASE}/doc/2`);
    assert.deepEqual(fixture('unsubscribe').map((e) => e.uri), [`${BASE}/doc/2`]);
  });

  it('logging/setLevel follows the host log level, on connect and on every change', async () => {
    const changes = new Emitter<void>();
    const level: { level: HostLogLevel; onDidChange: typeof changes.event } = { level: 'info', onDidChange: changes.event };
    await env.started({ settings: settings({ servers: [env.stdio('catalog', 'catalog')] }), logLevel: level });
    assert.deepEqual(fixture('setLevel').map((e) => e.level), ['info']);
    level.level = 'trace';
    changes.fire();
    await waitFor('setLevel debug', () => fixture('setLevel').length === 2);
    level.level = 'off';
    changes.fire();
    await waitFor('setLevel emergency', () => fixture('setLevel').length === 3);
    assert.deepEqual(fixture('setLevel').map((e) => e.level), ['info', 'debug', 'emergency']);
  });

  it('a server without resources or prompts is never asked for them', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('slow', 'slow', { env: { FIXTURE_LOG_REQUESTS: '1' } })] }) });
    const methods = env.events('slow').filter((e: Any) => e.event === 'request').map((e: Any) => e.method);
    // protocol "auto": the era probe (server/discover) first, then the 2025 handshake of this legacy server.
    assert.deepEqual(methods, ['server/discover', 'initialize', 'tools/list']);
    assert.deepEqual([host.snapshot().resources('slow'), host.snapshot().prompts('slow')], [[], []]);
    const r = await host.catalog.readResource({ server: 'slow', uri: 'x://y' });
    assert.equal(r.outcome, 'notFound');
  });
});
