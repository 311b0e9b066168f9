/**
 * How the host reads `_meta.ui` (MCP Apps) from a tool definition and from a view's resource
 * contents: defaults, precedence of the two keys, what is refused and what is only dropped.
 * (The end-to-end cases run against real servers in exampleServers/appsFixture.test.ts.)
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppViewError, appViewFromContents } from '../../../../src/core/apps/appView';
import { inspectToolUi, isAppOnly, readToolUi, toolVisibility } from '../../../../src/core/apps/toolUi';
import { readUiResourceMeta } from '../../../../src/core/apps/uiResourceMeta';

const tool = (meta?: Record<string, unknown>): Tool => ({ name: 't', inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) });
const APP = 'text/html;profile=mcp-app';

describe('MCP Apps: reading _meta.ui', () => {
  it('a tool without _meta.ui has no view and is for model and app', () => {
    for (const t of [tool(), tool({ other: 1 })]) {
      assert.equal(readToolUi(t), undefined);
      assert.deepEqual(toolVisibility(t), ['model', 'app']);
      assert.equal(isAppOnly(t), false);
    }
  });

  it('_meta.ui.resourceUri wins over the deprecated flat key; visibility is kept once per value', () => {
    const t = tool({ ui: { resourceUri: 'ui://a/new.html', visibility: ['app', 'app'] }, 'ui/resourceUri': 'ui://a/old.html' });
    assert.deepEqual(readToolUi(t), { resourceUri: 'ui://a/new.html', visibility: ['app'] });
    assert.equal(isAppOnly(t), true);
    assert.equal(readToolUi(tool({ 'ui/resourceUri': 'ui://a/old.html' }))?.resourceUri, 'ui://a/old.html');
  });

  it('an empty visibility means nobody; a malformed one or a _meta.ui that is not an object refuses the tool', () => {
    assert.deepEqual(toolVisibility(tool({ ui: { visibility: [] } })), []);
    assert.equal(inspectToolUi(tool({ ui: { visibility: ['model', 'user'] } })).refused, '_meta.ui.visibility.1: expected "model" or "app"');
    assert.equal(inspectToolUi(tool({ ui: 'ui://a/x.html' })).refused, '_meta.ui: expected an object');
    assert.deepEqual(toolVisibility(tool({ ui: 'ui://a/x.html' })), [], 'nobody may use a tool whose audience is unknown');
  });

  it('csp, permissions and prefersBorder on a tool are kept only when well formed (the resource is what counts)', () => {
    const r = inspectToolUi(tool({ ui: { resourceUri: 'ui://a/x.html', csp: { connectDomains: 'x' }, permissions: { camera: {}, microphone: true }, prefersBorder: 'yes' } }));
    assert.deepEqual(r.ui, { resourceUri: 'ui://a/x.html', visibility: ['model', 'app'] });
    assert.deepEqual(r.problems, [
      '_meta.ui.csp.connectDomains: expected an array of origins; _meta.ui.csp is ignored',
      '_meta.ui.permissions.microphone: expected an object ({} asks for it); _meta.ui.permissions is ignored',
      '_meta.ui.prefersBorder: expected true or false; _meta.ui.prefersBorder is ignored',
    ]);
  });

  it("a resource's _meta.ui comes from its content, else from its listed entry; malformed parts are dropped", () => {
    const listed = { _meta: { ui: { prefersBorder: true } } };
    assert.deepEqual(readUiResourceMeta({ _meta: { ui: { permissions: { geolocation: {}, clipboardWrite: {} } } } }, listed).meta, { permissions: { geolocation: true, clipboardWrite: true } });
    assert.deepEqual(readUiResourceMeta({}, listed).meta, { prefersBorder: true });
    const bad = readUiResourceMeta({ _meta: { ui: { csp: { frameDomains: [''] }, domain: 'a.example.com' } } });
    assert.deepEqual(bad.meta, { domain: 'a.example.com' });
    assert.deepEqual(bad.problems, ['_meta.ui.csp.frameDomains.0: expected a non-empty origin; _meta.ui.csp is ignored']);
  });

  it('a view is text/html;profile=mcp-app as text or base64 UTF-8; anything else says what is wrong', () => {
    const uri = 'ui://a/x.html';
    const b64 = Buffer.from('<p>é</p>').toString('base64');
    assert.equal(appViewFromContents('s', uri, [{ uri, mimeType: 'text/html; profile=mcp-app', blob: b64 }]).html, '<p>é</p>');
    const message = (contents: Parameters<typeof appViewFromContents>[2]) => {
      try {
        appViewFromContents('s', uri, contents);
        return 'shown';
      } catch (e) {
        assert.ok(e instanceof AppViewError);
        return e.message.replace('cannot show view ui://a/x.html of server "s": ', '');
      }
    };
    assert.equal(message([]), 'the server returned no contents');
    assert.equal(message([{ uri, text: '<p/>' }]), 'its MIME type is not given, expected "text/html;profile=mcp-app"');
    assert.equal(message([{ uri, mimeType: APP, blob: '%%%' }]), 'its blob is not base64');
    assert.equal(message([{ uri, mimeType: APP, blob: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') }]), 'its blob is not UTF-8 text');
    assert.equal(message([{ uri, mimeType: APP, text: '  ' }]), 'its HTML is empty');
    assert.equal(message([{ uri: 'ui://a/1', mimeType: APP, text: 'a' }, { uri: 'ui://a/2', mimeType: APP, text: 'b' }]), 'the server returned 2 contents and none is ui://a/x.html');
  });
});
