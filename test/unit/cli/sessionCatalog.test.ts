/**
 * `mcp-host session` and `mcp-host call` for issue 13: resource and prompt ops (role-gated, audited),
 * progress events of a call, and a task-required tool of server-everything.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliSession, REPO_ROOT, describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, tempDir, type Json, trackSessions } from './cliHarness';

const EVERYTHING = { command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'] };
const BASE = 'fixture://catalog';

describe('mcp-host session: resources, prompts, progress', function () {
  this.timeout(40_000);
  const sessions = trackSessions();

  it('lists, reads and subscribes to resources; lists, completes and uses prompts; each read and use is audited', async () => {
    const auditFile = path.join(tempDir(), 'audit.jsonl');
    const ws = makeWorkspace({
      'mcpHost.servers': { catalog: fixtureServer('catalog') },
      'mcpHost.roles': { docs: { resources: [`catalog/${BASE}/doc/*`], prompts: ['catalog/greet'] } },
      'mcpHost.activeRole': 'docs',
      'mcpHost.autoApprove': ['*/*'],
    });
    const s = new CliSession(['--workspace', ws, '--audit', auditFile]);
    sessions.push(s);

    s.send({ id: 1, op: 'resources' });
    const list = await s.answer(1);
    assert.equal(list.role, 'docs');
    assert.deepEqual(list.resources.map((r: Json) => r.uri), [1, 2, 3, 4, 5, 6, 7].map((i) => `${BASE}/doc/${i}`));
    assert.deepEqual(list.resources[0], { server: 'catalog', uri: `${BASE}/doc/1`, name: 'doc-1', title: 'Document 1', mimeType: 'text/plain' });
    assert.deepEqual(list.templates, []);

    s.send({ id: 2, op: 'read', server: 'catalog', uri: `${BASE}/doc/2`, subscribe: true });
    const read = await s.answer(2);
    assert.equal(read.outcome, 'ok');
    assert.equal(read.subscribed, true);
    assert.deepEqual(read.contents, [{ uri: `${BASE}/doc/2`, mimeType: 'text/plain', text: 'doc-2 version 1' }]);
    s.send({ id: 3, op: 'call', name: 'catalog__touch', args: { uri: `${BASE}/doc/2` } });
    await s.waitFor('the resourceUpdated event', (l) => l.event === 'resourceUpdated' && l.uri === `${BASE}/doc/2` && l.server === 'catalog');

    s.send({ id: 4, op: 'read', server: 'catalog', uri: `${BASE}/image.png` });
    const refused = await s.answer(4);
    assert.equal(refused.outcome, 'notAllowed');
    assert.match(refused.error, /not available to role "docs"/);

    s.send({ id: 5, op: 'prompts' });
    assert.deepEqual((await s.answer(5)).prompts, [{ server: 'catalog', name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', description: 'Who', required: true }] }]);
    s.send({ id: 6, op: 'complete', server: 'catalog', prompt: 'greet', argument: { name: 'name', value: 'al' } });
    assert.deepEqual((await s.answer(6)).values, ['Alice', 'Alan']);
    s.send({ id: 7, op: 'prompt', server: 'catalog', name: 'greet', args: { name: 'Ada' } });
    const prompt = await s.answer(7);
    assert.equal(prompt.outcome, 'ok');
    assert.equal(prompt.messages[1].content.text, 'Hello, Ada!');
    s.send({ id: 8, op: 'prompt', server: 'nope', name: 'x' });
    assert.match((await s.answer(8)).error, /no server named "nope"/);
    s.send({ id: 9, op: 'complete', server: 'catalog', argument: { name: 'a', value: '' } });
    assert.match((await s.answer(9)).error, /needs either "prompt"/);

    s.end();
    assert.equal((await s.exited).code, 0);
    const audit = fs.readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const context = audit.filter((r) => r.kind === 'resource' || r.kind === 'prompt');
    assert.deepEqual(
      context.map((r) => [r.kind, r.role, r.uri ?? r.prompt, r.outcome]),
      [
        ['resource', 'docs', `${BASE}/doc/2`, 'ok'],
        ['resource', 'docs', `${BASE}/image.png`, 'notAllowed'],
        ['prompt', 'docs', 'greet', 'ok'],
      ],
    );
  });

  it('reads check the canonical URI and send exactly it: "..", "%2e%2e" and an encoded "/" do not leave the role\'s globs', async () => {
    const auditFile = path.join(tempDir(), 'audit.jsonl');
    const ws = makeWorkspace({
      'mcpHost.servers': { catalog: fixtureServer('catalog') },
      'mcpHost.roles': { items: { resources: [`catalog/${BASE}/item/*`] } },
      'mcpHost.activeRole': 'items',
    });
    const s = new CliSession(['--workspace', ws, '--audit', auditFile]);
    sessions.push(s);
    const read = async (id: number, uri: string) => {
      s.send({ id, op: 'read', server: 'catalog', uri });
      return s.answer(id);
    };
    for (const [id, uri] of [[1, `${BASE}/item/../doc/1`], [2, `${BASE}/item/%2e%2e/doc/1`]] as const) {
      const r = await read(id, uri);
      assert.equal(r.outcome, 'notAllowed', JSON.stringify(r));
      assert.match(r.error, /resource "fixture:\/\/catalog\/doc\/1" of server "catalog" is not available to role "items"/);
    }
    const encoded = await read(3, `${BASE}/item/..%2Fdoc/1`);
    assert.equal(encoded.outcome, 'notAllowed');
    assert.match(encoded.error, /contains an encoded "\/" \(%2F\) in its path/);
    // The fixture answers with the URI it received: the canonical one.
    const dotted = await read(4, `${BASE}/item/./7`);
    assert.equal(dotted.outcome, 'ok', JSON.stringify(dotted));
    assert.deepEqual(dotted.contents, [{ uri: `${BASE}/item/7`, mimeType: 'text/plain', text: 'item 7' }]);
    s.end();
    assert.equal((await s.exited).code, 0);
    const audit = fs.readFileSync(auditFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.kind === 'resource');
    assert.deepEqual(
      audit.map((r) => [r.uri, r.requestedUri, r.outcome]),
      [
        [`${BASE}/doc/1`, `${BASE}/item/../doc/1`, 'notAllowed'],
        [`${BASE}/doc/1`, `${BASE}/item/%2e%2e/doc/1`, 'notAllowed'],
        [`${BASE}/item/..%2Fdoc/1`, undefined, 'notAllowed'],
        [`${BASE}/item/7`, `${BASE}/item/./7`, 'ok'],
      ],
    );
  });

  it('prints progress events of a call, and calls server-everything\'s task-required tool', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { everything: EVERYTHING }, 'mcpHost.autoApprove': ['*/*'] });
    const s = new CliSession(['--workspace', ws]);
    sessions.push(s);
    s.send({ id: 'long', op: 'call', name: 'everything__trigger-long-running-operation', args: { duration: 1, steps: 4 } });
    const done = await s.answer('long');
    assert.equal(done.outcome, 'ok', JSON.stringify(done));
    const progress = s.lines.filter((l) => l.event === 'progress' && l.request === 'long');
    assert.ok(progress.length >= 3, JSON.stringify(progress));
    assert.deepEqual(progress[0], { event: 'progress', request: 'long', name: 'everything__trigger-long-running-operation', progress: 1, total: 4 });
    assert.ok(s.indexOf(progress[0]) < s.indexOf(done));

    s.send({ id: 'task', op: 'call', name: 'everything__simulate-research-query', args: { topic: 'tasks' } });
    const task = await s.answer('task', 20_000);
    assert.equal(task.outcome, 'ok', JSON.stringify(task));
    assert.match(task.modelText, /Research Report: tasks/);
    assert.ok(s.lines.some((l) => l.event === 'progress' && l.request === 'task' && l.taskStatus === 'working' && l.message === 'Gathering sources...'));
    s.end();
    assert.equal((await s.exited).code, 0);
  });
});

describe('mcp-host call: a task-required tool', function () {
  this.timeout(40_000);
  after(removeTempDirs);

  it('server-everything simulate-research-query succeeds; --verbose shows its progress on stderr', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { everything: EVERYTHING }, 'mcpHost.autoApprove': ['*/*'] });
    const r = await runCli(['call', 'everything__simulate-research-query', '--args', '{"topic":"cli"}', '--json', '--verbose', '--workspace', ws]);
    assert.equal(r.code, 0, describeRun(r));
    const doc = parseJson(r);
    assert.equal(doc.outcome, 'ok');
    assert.match(doc.modelText, /# Research Report: cli/);
    assert.match(r.stderr, /call everything__simulate-research-query: task working · Gathering sources\.\.\./);
  });
});
