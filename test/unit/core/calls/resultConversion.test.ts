/**
 * Behaviour 7: what a tool result becomes for the model: text, data parts for images (with a
 * placeholder line), embedded resources, resource links, structuredContent, truncation.
 */
import * as assert from 'node:assert/strict';
import { convertResult, placeholder } from '../../../../src/core/calls/resultConversion';
import { nodeEnv } from '../../../fixtures/fixtureServers';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import type { StdioServerSettings } from '../../../../src/core/settings/hostSettings';
import { REPO_ROOT, settings, useSharedTestEnv, type Any } from '../helpers';

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/**
 * A real stdio MCP server written inline (SDK v2's low-level Server), for result shapes no fixture
 * returns: structuredContent without any text, audio, a binary resource, nothing at all.
 */
const INLINE_SERVER = `
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
const results = {
  weather: { content: [], structuredContent: { temperature: 21, sky: 'clear' } },
  audio: { content: [{ type: 'audio', data: Buffer.from('RIFFdata').toString('base64'), mimeType: 'audio/wav' }] },
  blob: { content: [{ type: 'resource', resource: { uri: 'mem://bin', mimeType: 'application/octet-stream', blob: Buffer.alloc(3000).toString('base64') } }] },
  empty: { content: [] },
};
const server = new Server({ name: 'shapes', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({
  tools: Object.keys(results).map((name) => ({
    name,
    inputSchema: { type: 'object', properties: {} },
    ...(name === 'weather' ? { outputSchema: { type: 'object', properties: { temperature: { type: 'number' }, sky: { type: 'string' } }, required: ['temperature'] } } : {}),
  })),
}));
server.setRequestHandler('tools/call', (req) => results[req.params.name]);
await server.connect(new StdioServerTransport());
`;

describe('McpHost: result conversion', function () {
  this.timeout(20_000);

  describe('through a real server', () => {
    const env = useSharedTestEnv();
    const shapes: StdioServerSettings = {
      name: 'shapes',
      type: 'stdio',
      enabled: true,
      command: process.execPath,
      args: ['--input-type=module', '-e', INLINE_SERVER],
      env: nodeEnv(),
      cwd: REPO_ROOT,
      connectTimeoutMs: 8000,
    };
    let shared: McpHost;
    before(async () => {
      shared = await env.started({ settings: settings({ servers: [env.stdio('basic', 'basic'), shapes], autoApprove: ['*/*'] }) });
    });

    it('text', async () => {
      const r = await shared.call({ name: 'basic__echo', args: { text: 'plain' } });
      assert.deepEqual(r.parts, [{ type: 'text', text: 'echo: plain' }]);
    });

    it('image: a data part with mime type and bytes, a placeholder in the model text', async () => {
      const r = await shared.call({ name: 'basic__image' });
      assert.equal(r.outcome, 'ok');
      assert.equal(r.parts.length, 3);
      const img = r.parts[1] as Any;
      assert.equal(img.type, 'data');
      assert.equal(img.kind, 'image');
      assert.equal(img.mimeType, 'image/png');
      assert.ok(img.data instanceof Uint8Array);
      assert.equal(img.data.byteLength, 77);
      assert.deepEqual([...img.data.subarray(0, 8)], PNG_SIGNATURE);
      assert.deepEqual(Buffer.from(img.data), Buffer.from((r.content[1] as Any).data, 'base64'));
      assert.equal(r.modelText, 'before image\n[image image/png, 77 B]\nafter image');
    });

    it('embedded text resource', async () => {
      const r = await shared.call({ name: 'basic__embedded_resource' });
      assert.equal(r.modelText, '[resource fixture://basic/readme]\nThis is the readme of the basic MCP fixture server.');
    });

    it('resource link: one line with name, uri and description', async () => {
      const r = await shared.call({ name: 'basic__resource_link' });
      assert.equal(r.modelText, 'see the linked resource\n[resource link: readme fixture://basic/readme — The fixture readme]');
    });

    it('structuredContent is kept, and becomes JSON text when there is no text', async () => {
      const h = shared;
      const add = await h.call({ name: 'basic__add', args: { a: 20, b: 22 } });
      assert.deepEqual(add.structuredContent, { sum: 42 });
      assert.equal(add.modelText, '42', 'the text part is used when present');

      const weather = await h.call({ name: 'shapes__weather' });
      assert.equal(weather.outcome, 'ok');
      assert.deepEqual(weather.structuredContent, { temperature: 21, sky: 'clear' });
      assert.deepEqual(JSON.parse(weather.modelText), { temperature: 21, sky: 'clear' });
    });

    it('audio, binary resources and empty results get readable lines', async () => {
      const h = shared;
      const audio = await h.call({ name: 'shapes__audio' });
      assert.equal((audio.parts[0] as Any).kind, 'audio');
      assert.equal(audio.modelText, '[audio audio/wav, 8 B]');
      const blob = await h.call({ name: 'shapes__blob' });
      assert.equal(blob.modelText, '[binary resource mem://bin application/octet-stream, 2.9 KB]');
      const empty = await h.call({ name: 'shapes__empty' });
      assert.equal(empty.modelText, '(the tool returned no content)');
    });

    it('truncates at maxResultChars with a visible marker', async () => {
      const h = await env.started({ settings: settings({ servers: [env.stdio('basic2', 'basic')], autoApprove: ['*/*'], maxResultChars: 100 }) });
      const long = 'x'.repeat(5000);
      const r = await h.call({ name: 'basic2__echo', args: { text: long } });
      assert.equal(r.outcome, 'ok');
      assert.ok(r.modelText.startsWith(`echo: ${'x'.repeat(94)}\n`));
      assert.match(r.modelText, /\[output truncated by MCP Host: 100 of 5006 characters shown\]$/);
      assert.ok(r.modelText.length < 200);
      // The server's content is kept whole for the UI.
      assert.equal((r.content[0] as Any).text.length, 5006);
    });
  });

  describe('convertResult (pure)', () => {
    it('caps text over several parts and keeps data parts', () => {
      const c = convertResult(
        {
          content: [
            { type: 'text', text: 'aaaa' },
            { type: 'image', data: Buffer.from([1, 2, 3]).toString('base64'), mimeType: 'image/gif' },
            { type: 'text', text: 'bbbb' },
            { type: 'text', text: 'cccc' },
          ],
        },
        6,
      );
      assert.equal(c.truncated, true);
      assert.deepEqual(
        c.parts.map((p) => (p.type === 'text' ? p.text : placeholder(p))),
        ['aaaa', '[image image/gif, 3 B]', 'bb', '\n[output truncated by MCP Host: 6 of 12 characters shown]'],
      );
    });

    it('structuredContent only when there is no text; nothing truncated below the limit', () => {
      const withText = convertResult({ content: [{ type: 'text', text: 't' }], structuredContent: { a: 1 } }, 100);
      assert.equal(withText.modelText, 't');
      assert.equal(withText.truncated, false);
      const only = convertResult({ content: [], structuredContent: { a: 1 } }, 100);
      assert.equal(only.modelText, '{\n  "a": 1\n}');
      const unknown = convertResult({ content: [{ type: 'hologram' } as Any] }, 100);
      assert.equal(unknown.modelText, '[unsupported content type "hologram"]');
    });
  });
});
