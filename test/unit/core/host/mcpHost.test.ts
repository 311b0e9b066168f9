/**
 * The official reference servers through the host's router: filesystem (in a temp dir), memory,
 * everything.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { placeholder } from '../../../../src/core/calls/resultConversion';
import { RecordingConfirmer, referenceServer, settings, useTestEnv, type Any, listedTools, serverView } from '../helpers';

describe('McpHost with the reference servers', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('server-filesystem: list, read and write through the router; write asks even though read tools claim readOnlyHint', async () => {
    const root = fs.realpathSync(env.dir);
    fs.writeFileSync(path.join(root, 'hello.txt'), 'hello from disk');
    const confirmer = new RecordingConfirmer(() => 'once');
    const host = await env.started({
      settings: settings({ servers: [referenceServer('fs', 'server-filesystem', [root])], autoApprove: ['fs/list_*'] }),
      confirmer,
    });
    const tools = listedTools(host, 'fs');
    const read = tools.find((t) => t.name === 'read_text_file')!;
    const write = tools.find((t) => t.name === 'write_file')!;
    assert.equal(read.annotations?.readOnlyHint, true);
    assert.equal(write.annotations?.destructiveHint, true);

    const list = await host.call({ name: 'fs__list_directory', args: { path: root } });
    assert.equal(list.outcome, 'ok');
    assert.equal(list.confirmedBy, 'policy');
    assert.match(list.modelText, /\[FILE\] hello\.txt/);

    const readResult = await host.call({ name: 'fs__read_text_file', args: { path: path.join(root, 'hello.txt') } });
    assert.equal(readResult.outcome, 'ok');
    assert.equal(readResult.confirmedBy, 'user', 'readOnlyHint does not skip confirmation');
    assert.match(readResult.modelText, /hello from disk/);

    const target = path.join(root, 'out.txt');
    const writeResult = await host.call({ name: 'fs__write_file', args: { path: target, content: 'written by the host' } });
    assert.equal(writeResult.outcome, 'ok', writeResult.modelText);
    assert.equal(writeResult.confirmedBy, 'user');
    assert.equal(fs.readFileSync(target, 'utf8'), 'written by the host');
    assert.deepEqual(confirmer.asked(), ['fs__read_text_file', 'fs__write_file']);
    assert.deepEqual(confirmer.requests[1].annotations?.destructiveHint, true, 'the user is shown the server’s claim');
    assert.deepEqual(confirmer.requests[1].args, { path: target, content: 'written by the host' });

    // Denied: nothing is written. Outside the allowed dir: the server's isError comes back.
    confirmer.answer = () => 'deny';
    const denied = await host.call({ name: 'fs__write_file', args: { path: path.join(root, 'no.txt'), content: 'x' } });
    assert.equal(denied.outcome, 'denied');
    assert.equal(fs.existsSync(path.join(root, 'no.txt')), false);
    const outside = await host.call({ name: 'fs__list_directory', args: { path: '/' } });
    assert.equal(outside.outcome, 'isError');
    assert.match(outside.modelText, /denied|outside|not allowed/i);
  });

  it('server-memory: create_entities, then read_graph', async () => {
    const memoryFile = env.file('memory.jsonl');
    const host = await env.started({
      settings: settings({ servers: [referenceServer('memory', 'server-memory', [], { MEMORY_FILE_PATH: memoryFile })], autoApprove: ['*/*'] }),
    });
    assert.equal(listedTools(host, 'memory').length, 9);
    const created = await host.call({
      name: 'memory__create_entities',
      args: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    });
    assert.equal(created.outcome, 'ok', created.modelText);
    const graph = await host.call({ name: 'memory__read_graph', args: {} });
    assert.equal(graph.outcome, 'ok');
    assert.match(graph.modelText, /Ada/);
    assert.match(graph.modelText, /wrote the first program/);
    assert.match(fs.readFileSync(memoryFile, 'utf8'), /Ada/);
  });

  it('server-everything: instructions kept; echo, get-tiny-image, get-resource-links, get-structured-content', async () => {
    const host = await env.started({ settings: settings({ servers: [referenceServer('everything', 'server-everything', ['stdio'])], autoApprove: ['*/*'] }) });
    // initialize's instructions are kept with the connection state.
    const state = serverView(host, 'everything').state as Any;
    assert.equal(state.kind, 'connected');
    assert.equal(state.info.serverInfo.name, 'mcp-servers/everything');
    assert.equal(typeof state.info.instructions, 'string');
    assert.ok(state.info.instructions.length > 20, 'instructions kept');

    const echo = await host.call({ name: 'everything__echo', args: { message: 'hi there' } });
    assert.equal(echo.outcome, 'ok');
    assert.equal(echo.modelText, 'Echo: hi there');

    const image = await host.call({ name: 'everything__get-tiny-image' });
    assert.equal(image.outcome, 'ok');
    const data = image.parts.find((p) => p.type === 'data') as Any;
    assert.equal(data.mimeType, 'image/png');
    assert.deepEqual([...data.data.subarray(0, 4)], [137, 80, 78, 71]);
    assert.ok(image.modelText.includes(placeholder(data)), image.modelText);
    assert.match(image.modelText, /^Here's the image you requested:\n\[image image\/png, [\d.]+ KB\]\n/);

    const links = await host.call({ name: 'everything__get-resource-links', args: { count: 2 } });
    assert.equal(links.outcome, 'ok');
    const linkLines = links.modelText.split('\n').filter((l) => l.startsWith('[resource link: '));
    assert.equal(linkLines.length, 2, links.modelText);
    for (const l of linkLines) assert.match(l, /demo:\/\/resource\//);

    const structured = await host.call({ name: 'everything__get-structured-content', args: { location: 'Chicago' } });
    assert.equal(structured.outcome, 'ok');
    assert.deepEqual(structured.structuredContent, { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    assert.deepEqual(JSON.parse(structured.modelText), structured.structuredContent);

    const bad = await host.call({ name: 'everything__get-structured-content', args: { location: 'Paris' } });
    assert.equal(bad.outcome, 'invalidArgs', 'the enum is checked before the server');
    assert.match(bad.modelText, /must be one of \["New York","Chicago","Los Angeles"\]/);
  });
});
