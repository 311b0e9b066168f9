/**
 * Roots are the host's decision, per server (issue 25): a server's `roots` setting is what
 * `roots/list` answers, `roots: false` declares no roots at all, and the workspace folders are the
 * default. Through real servers: the asks fixture (it asks when told to) and
 * @modelcontextprotocol/server-filesystem, which replaces the folders of its arguments with the
 * client's roots right after `initialize` when the client declares the capability.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AuditSink } from '../../../../src/core/audit/auditSink';
import { folderRoot, type RootsSource } from '../../../../src/core/requests/rootsSource';
import type { ServerSettings } from '../../../../src/core/settings/hostSettings';
import { Emitter } from '../../../../src/core/util/event';
import { referenceServer, settings, useTestEnv, waitFor, type Any } from '../helpers';
import { requestPorts, requestRecords, resultJson } from './requestKit';

describe('roots: per server, the host decides', function () {
  this.timeout(60_000);
  const env = useTestEnv();

  it("a server's roots setting is what roots/list answers, not the workspace folder; audited as disclosed", async () => {
    const kit = requestPorts();
    const [data, docs] = [path.join(env.dir, 'data'), path.join(env.dir, 'docs')];
    const asks: ServerSettings = { ...env.stdio('asks', 'asks'), roots: [data, docs] };
    const host = await env.started({ settings: settings({ servers: [asks], autoApprove: ['asks/*'] }), workspaceFolder: env.dir, ...kit.options });
    const r = await host.call({ name: 'asks__roots' });
    assert.deepEqual(resultJson(r.modelText), { roots: [folderRoot(data), folderRoot(docs)] });
    const [rec] = requestRecords(kit.audit, 'roots');
    assert.deepEqual(rec.answer, { roots: [pathToFileURL(data).href, pathToFileURL(docs).href] });
  });

  it('roots: false declares no roots to that server: its roots/list fails and nothing is disclosed', async () => {
    const kit = requestPorts();
    const asks: ServerSettings = { ...env.stdio('asks', 'asks'), roots: false };
    const host = await env.started({ settings: settings({ servers: [asks], autoApprove: ['asks/*'] }), workspaceFolder: env.dir, ...kit.options });
    const r = await host.call({ name: 'asks__roots' });
    assert.match(r.modelText, /^roots failed: /);
    assert.doesNotMatch(r.modelText, new RegExp(pathToFileURL(env.dir).href));
    assert.deepEqual(requestRecords(kit.audit, 'roots'), []);
  });

  it('a server that asks for its roots right after initialize has the answer before the first tool call reaches it', async () => {
    const kit = requestPorts();
    // The answer goes out once its audit record is kept: a slow disk keeps it late.
    const slowDisk: AuditSink = { write: () => new Promise((resolve) => setTimeout(resolve, 200)) };
    const asks = env.stdio('asks', 'asks', { env: { FIXTURE_ROOTS_ON_START: '1' } });
    const host = await env.started({ settings: settings({ servers: [asks], autoApprove: ['asks/*'] }), workspaceFolder: env.dir, ...kit.options, auditSinks: [kit.audit, slowDisk] });
    assert.equal((await host.call({ name: 'asks__roots' })).outcome, 'ok');
    const order = env.events('asks').filter((e) => e.event === 'rootsAnswer' || e.event === 'call').map((e) => e.event);
    assert.deepEqual(order, ['rootsAnswer', 'call', 'rootsAnswer']);
  });

  it('a change of the workspace folders reaches servers that follow them; a server with its own roots keeps them', async () => {
    const changed = new Emitter<void>();
    let folders = [env.dir];
    const source: RootsSource = { roots: () => folders.map((f) => folderRoot(f)), onDidChange: changed.event };
    const kit = requestPorts({ roots: source });
    const own = path.join(env.dir, 'own');
    const servers: ServerSettings[] = [env.stdio('follows', 'asks'), { ...env.stdio('fixed', 'asks'), roots: [own] }];
    const host = await env.started({ settings: settings({ servers, autoApprove: ['follows/*', 'fixed/*'] }), ...kit.options });
    const second = path.join(env.dir, 'second');
    folders = [env.dir, second];
    changed.fire();
    await waitFor('the following server to re-read the roots', () => env.events('follows').some((e) => e.event === 'rootsChanged'));
    assert.deepEqual(
      env.events('follows').find((e) => e.event === 'rootsChanged').roots.map((r: Any) => r.uri),
      [pathToFileURL(env.dir).href, pathToFileURL(second).href],
    );
    assert.deepEqual(resultJson((await host.call({ name: 'fixed__roots' })).modelText), { roots: [folderRoot(own)] });
  });
});

describe('roots and @modelcontextprotocol/server-filesystem', function () {
  this.timeout(120_000);
  const env = useTestEnv();

  /** A workspace with a `files` folder (the demo's shape); the real paths, as the server reports them. */
  function workspace() {
    const ws = fs.realpathSync(env.dir);
    const files = path.join(ws, 'files');
    fs.mkdirSync(files);
    fs.writeFileSync(path.join(files, 'orders.csv'), 'id\n1\n');
    return { ws, files };
  }

  /** A fresh host (a fresh server process) that calls list_allowed_directories once, as `mcp-host call` does. */
  async function allowedDirectories(server: ServerSettings, ws: string): Promise<string> {
    const kit = requestPorts();
    const host = env.host({ settings: settings({ servers: [server], autoApprove: ['files/*'] }), workspaceFolder: ws, ...kit.options });
    await host.start();
    const r = await host.call({ name: 'files__list_allowed_directories' });
    assert.equal(r.outcome, 'ok', r.modelText);
    await host.close();
    return r.modelText;
  }

  it('roots equal to the folder in its arguments: every fresh start lists exactly that folder, never the workspace', async () => {
    const { ws, files } = workspace();
    const server: ServerSettings = { ...referenceServer('files', 'server-filesystem', [files]), roots: [files] };
    // The filer saw the workspace folder and the files folder alternate over four runs: no run may differ.
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push(await allowedDirectories(server, ws));
    for (const text of seen) assert.equal(text, `Allowed directories:\n${files}`);
  });

  it('roots: false: the server keeps the folders of its own arguments, whatever the workspace', async () => {
    const { ws, files } = workspace();
    const server: ServerSettings = { ...referenceServer('files', 'server-filesystem', [files]), roots: false };
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push(await allowedDirectories(server, ws));
    for (const text of seen) assert.equal(text, `Allowed directories:\n${files}`);
  });

  it('other roots than its arguments: the server is given exactly those, and uses them', async () => {
    const { ws, files } = workspace();
    const docs = path.join(ws, 'docs');
    fs.mkdirSync(docs);
    const kit = requestPorts();
    const server: ServerSettings = { ...referenceServer('files', 'server-filesystem', [files]), roots: [files, docs] };
    const host = await env.started({ settings: settings({ servers: [server], autoApprove: ['files/*'] }), workspaceFolder: ws, ...kit.options });
    const [rec] = requestRecords(kit.audit, 'roots');
    assert.deepEqual(rec.answer, { roots: [pathToFileURL(files).href, pathToFileURL(docs).href] });
    // server-filesystem applies the roots on its own time after the host answered: ask until it has.
    let text = '';
    for (let i = 0; i < 50 && text !== `Allowed directories:\n${files}\n${docs}`; i++) text = (await host.call({ name: 'files__list_allowed_directories' })).modelText;
    assert.equal(text, `Allowed directories:\n${files}\n${docs}`);
  });
});
