/**
 * The editor's gateway provider at the API level: the definitions it hands VS Code, with a real SDK
 * client connecting as the editor does (the definition's URL and Authorization header) to a real
 * host with fixture servers. The editor's own MCP client is tested in test/integration/gateway.
 */
import { fake } from './fakeVscode';
import * as assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MemorySink } from '../../../src/core/audit/auditLog';
import type { McpHost } from '../../../src/core/host/mcpHost';
import { Emitter } from '../../../src/core/util/event';
import { EditorGateway, GATEWAY_SETTING, type GatewayStatus } from '../../../src/vscode/gateway/editorGateway';
import { RecordingConfirmer, RecordingLogger, role, settings, useTestEnv, waitFor, type Any } from '../core/helpers';

type Definition = InstanceType<typeof fake.McpHttpServerDefinition>;

describe('the gateway offered to the editor (provider)', function () {
  this.timeout(30_000);
  const env = useTestEnv();
  let gateway: EditorGateway | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await gateway?.close();
    gateway = undefined;
    fake.setConfiguration(GATEWAY_SETTING, undefined);
  });

  const hostSettings = (activeRole: string) =>
    settings({
      servers: [env.stdio('basic', 'basic'), env.stdio('slow', 'slow')],
      // add runs without asking; echo asks, although the fixture claims readOnlyHint for it.
      autoApprove: ['basic/add'],
      roles: [role('gateway', { servers: ['basic'], tools: ['basic/echo', 'basic/add'] }), role('narrow', { servers: ['basic'], tools: ['basic/noop'] })],
      activeRole,
    });

  const start = async (trusted = true) => {
    const sink = new MemorySink();
    const logger = new RecordingLogger();
    const confirmer = new RecordingConfirmer(() => 'deny');
    const host = await env.started({ settings: hostSettings('gateway'), trusted, auditSinks: [sink], logger, confirmer });
    const changed = new Emitter<void>();
    host.onDidChange(() => changed.fire());
    gateway = new EditorGateway({ host, onDidChange: changed.event }, logger);
    await gateway.sync();
    return { host, sink, logger, confirmer, gateway };
  };

  const turn = async (g: EditorGateway, on: boolean) => {
    fake.setConfiguration(GATEWAY_SETTING, on);
    await g.sync();
  };

  const only = (g: EditorGateway): Definition => {
    const defs = g.provideMcpServerDefinitions() as unknown as Definition[];
    assert.equal(defs.length, 1);
    return defs[0];
  };

  /** Connects as the editor does: the definition's URL with its headers. */
  const connect = async (def: Definition) => {
    const client = new Client({ name: 'Visual Studio Code', version: '1.139.1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(def.uri.toString(true)), { requestInit: { headers: def.headers } }));
    clients.push(client);
    return client;
  };

  const listening = (s: GatewayStatus) => (s.kind === 'listening' ? s : assert.fail(`status ${s.kind}`));

  it('offers nothing while the setting is off, and nothing for a value that is not a boolean (with a warning naming the setting)', async () => {
    const { gateway: g, logger } = await start();
    assert.deepEqual(g.provideMcpServerDefinitions(), []);
    assert.equal(g.status.kind, 'off');
    await turn(g, 'yes' as unknown as boolean);
    assert.deepEqual(g.provideMcpServerDefinitions(), []);
    assert.match(logger.text(), /mcpHost\.gateway\.enabled: expected true or false; the gateway stays off/);
  });

  it('turned on: one HTTP definition whose header lets a real client in; it lists the role view, annotated for the editor, and calls go through the router as the upstream client', async () => {
    const { host, sink, logger, confirmer, gateway: g } = await start();
    await turn(g, true);
    const def = only(g);
    assert.equal(def.label, 'MCP Host');
    assert.match(def.uri.toString(true), /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(def.headers.Authorization, /^Bearer [\w-]{43}$/);
    assert.equal(g.resolveMcpServerDefinition()?.headers.Authorization, def.headers.Authorization);

    const client = await connect(def);
    const tools = (await client.listTools()).tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), exposed(host).sort());
    assert.deepEqual(tools.map((t) => t.name).sort(), ['basic__add', 'basic__echo']);
    assert.equal(tools.find((t) => t.name === 'basic__add')!.annotations?.readOnlyHint, true, 'auto-approved: the editor need not ask again');
    assert.notEqual(tools.find((t) => t.name === 'basic__echo')!.annotations?.readOnlyHint, true, "asks: never marked read-only, whatever the server claims");

    const result: Any = await client.callTool({ name: 'basic__add', arguments: { a: 2, b: 3 } });
    assert.match(result.content[0].text, /^5$/);
    const [record] = sink.records.filter((r: Any) => r.kind === 'call') as Any[];
    assert.deepEqual([record.tool, record.outcome, record.confirmedBy], ['add', 'ok', 'policy']);
    assert.deepEqual(record.actor, { kind: 'upstream', client: 'Visual Studio Code', version: '1.139.1', transport: 'http' });

    // A tool that asks: MCP Host's own confirmer (the editor's dialog) is asked, naming the editor; its "no" denies.
    const denied: Any = await client.callTool({ name: 'basic__echo', arguments: { text: 'hi' } });
    assert.match(denied.content[0].text, /denied/);
    assert.deepEqual(confirmer.requests.map((r) => [r.tool, r.actor?.kind]), [['echo', 'upstream']]);
    assert.deepEqual(env.events('basic').filter((e: Any) => e.event === 'call').map((e: Any) => e.tool), ['add']);

    await waitFor('the client in the status', () => listening(g.status).clients.some((c) => c.name === 'Visual Studio Code'));
    await logger.waitForLine(/gateway: "Visual Studio Code" 1\.139\.1 \(http\) connected/);
  });

  it('a role switch fires onDidChangeMcpServerDefinitions with a new version; the gateway then offers the new role\'s tools', async () => {
    const { host, gateway: g } = await start();
    await turn(g, true);
    const before = only(g).version;
    let fired = 0;
    g.onDidChangeMcpServerDefinitions(() => fired++);
    await host.applySettings(hostSettings('narrow'));
    await waitFor('the definitions event', () => fired > 0);
    assert.notEqual(only(g).version, before);
    const client = await connect(only(g));
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['basic__noop']);
  });

  it('turned off, it withdraws the definition and stops listening; turned on again, it has a new token', async () => {
    const { gateway: g, logger } = await start();
    await turn(g, true);
    const first = only(g);
    let fired = 0;
    g.onDidChangeMcpServerDefinitions(() => fired++);
    await turn(g, false);
    assert.deepEqual(g.provideMcpServerDefinitions(), []);
    assert.equal(g.resolveMcpServerDefinition(), undefined);
    assert.equal(fired, 1);
    await assert.rejects(fetch(first.uri.toString(true), { method: 'POST', headers: first.headers, body: '{}' }));
    assert.match(logger.text(), /gateway: stopped/);
    await turn(g, true);
    assert.notEqual(only(g).headers.Authorization, first.headers.Authorization);
  });

  it('in an untrusted workspace it offers nothing and says why; a trust grant starts it', async () => {
    const { host, logger, gateway: g } = await start(false);
    await turn(g, true);
    assert.equal(g.status.kind, 'untrusted');
    assert.deepEqual(g.provideMcpServerDefinitions(), []);
    assert.match(logger.text(), /gateway: the workspace is not trusted, so MCP Host starts no server and offers the editor none/);
    await host.setTrusted(true);
    await waitFor('the gateway listening after trust', () => g.status.kind === 'listening');
    assert.equal(g.provideMcpServerDefinitions().length, 1);
  });
});

function exposed(host: McpHost): string[] {
  return host.snapshot().exposed.map((t) => t.entry.name);
}
