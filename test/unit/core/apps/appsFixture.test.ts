/**
 * MCP Apps cases the example servers do not show, with the apps fixture (test/fixtures/servers/apps.mjs):
 * the extension declared in initialize, the deprecated flat key, a malformed visibility (tool not
 * loaded, with a problem) or view URI (loaded without a view), a model-only tool refused to a view,
 * a view as a base64 blob with its `_meta.ui` from the resources/list entry, and views that cannot be
 * shown (wrong MIME type, malformed `_meta.ui`).
 */
import * as assert from 'node:assert/strict';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { CallActor } from '../../../../src/core/audit/callActor';
import { settings, useSharedTestEnv, type Any } from '../helpers';

describe('MCP Apps with the apps fixture', function () {
  this.timeout(30_000);
  const env = useSharedTestEnv();
  const audit = new MemorySink();
  let host: Any;

  before(async () => {
    host = await env.started({ settings: settings({ servers: [env.stdio('apps', 'apps')], autoApprove: ['*/*'] }), auditSinks: [audit] });
    assert.equal(host.snapshot().server('apps')?.connected, true);
  });

  it('declares the UI extension with the MIME type it renders', () => {
    const init = env.events('apps').find((e: Any) => e.event === 'initialize');
    assert.deepEqual(init.capabilities.extensions, { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/tasks': {} });
  });

  it('reads the view from _meta.ui or the deprecated flat key; a malformed visibility keeps the tool out, a malformed view URI only its view', () => {
    const s = host.snapshot();
    assert.equal(s.tool('apps', 'show').ui.resourceUri, 'ui://apps/view.html');
    assert.deepEqual(s.tool('apps', 'show').ui.visibility, ['model', 'app']);
    assert.equal(s.tool('apps', 'legacy').ui.resourceUri, 'ui://apps/blob.html');
    assert.equal(s.tool('apps', 'bad_uri').ui, undefined);
    const bad = s.tools('apps').find((t: Any) => t.tool.name === 'bad_visibility');
    assert.deepEqual([bad.exposedName, bad.visible, bad.problem?.reason], [undefined, false, 'invalid']);
    assert.deepEqual(s.exposed.map((t: Any) => t.entry.tool.name), ['show', 'legacy', 'model_only', 'bad_uri']);
    const problems = s.problems.filter((p: Any) => p.server === 'apps').map((p: Any) => [p.severity, p.tool, p.message]);
    assert.deepEqual(problems, [
      ['error', 'bad_visibility', 'tool "bad_visibility" is not loaded: _meta.ui.visibility: expected an array of "model" and/or "app"'],
      ['warning', 'bad_uri', 'tool "bad_uri": _meta.ui.resourceUri: expected a ui:// URI; the tool has no view'],
    ]);
  });

  it("refuses a view's call to a tool whose visibility lacks \"app\"; calls its app-only tool", async () => {
    const actor: CallActor = { kind: 'app', server: 'apps', view: 'ui://apps/view.html', tool: 'show' };
    const refused = await host.call({ name: host.appToolName('apps', 'model_only'), args: {}, actor });
    assert.equal(refused.outcome, 'denied');
    assert.match(refused.modelText, /tool "model_only" of server "apps" is not visible to apps/);
    const ok = await host.call({ name: host.appToolName('apps', 'refresh'), args: {}, actor });
    assert.equal(ok.outcome, 'ok', ok.modelText);
    assert.deepEqual(env.events('apps').filter((e: Any) => e.event === 'call').map((e: Any) => e.tool), ['refresh'], 'only the allowed call reached the server');
    assert.equal(host.appToolName('apps', 'nothing'), undefined);
  });

  it('decodes a view sent as a base64 blob, taking _meta.ui from its resources/list entry', async () => {
    const view = await host.readAppView('apps', 'ui://apps/blob.html', { tool: 'legacy' });
    assert.match(view.html, /blob view ✓/);
    assert.deepEqual(view.meta, { prefersBorder: false });
    const text = await host.readAppView('apps', 'ui://apps/view.html');
    assert.deepEqual(text.meta, { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }, permissions: { camera: true }, prefersBorder: true });
  });

  it('says what is wrong with a view it cannot show, and logs a malformed _meta.ui part it ignores', async () => {
    const error = (uri: string) => host.readAppView('apps', uri).then(() => 'shown', (e: Error) => e.message);
    assert.equal(await error('ui://apps/plain.html'), 'cannot show view ui://apps/plain.html of server "apps": its MIME type is "text/html", expected "text/html;profile=mcp-app"');
    assert.match(await error('ui://apps/missing.html'), /^cannot show view ui:\/\/apps\/missing.html of server "apps": (notFound|error): /);
    assert.equal(await error('https://example.com/x.html'), 'cannot show view https://example.com/x.html of server "apps": a view is a ui:// resource');
    const bad = await host.readAppView('apps', 'ui://apps/bad-meta.html');
    assert.deepEqual(bad.meta, { prefersBorder: true }, 'no csp: no origin allowed');
    assert.equal(host.log.matching(/view ui:\/\/apps\/bad-meta.html of server "apps": _meta.ui.csp: expected an object of origin lists; _meta.ui.csp is ignored/, 'warn').length, 1);
  });
});
