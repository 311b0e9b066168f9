/** `mcp-host session`: servers' questions become events the driver answers with ops. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childPidsOf, isProcessAlive } from '../../fixtures/fixtureServers';
import { CliSession, fixtureServer, makeWorkspace, removeTempDirs, runCli, tempDir, type Json, trackSessions } from './cliHarness';

const everything = () => ({ command: process.execPath, args: [path.join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'] });

describe('mcp-host session: elicitation and sampling answered by the driver', function () {
  this.timeout(40_000);
  const sessions = trackSessions();

  const start = (settings: Record<string, unknown>, extraArgs: string[] = []) => {
    const dir = makeWorkspace({ 'mcpHost.servers': { asks: fixtureServer('asks') }, 'mcpHost.autoApprove': ['asks/*'], ...settings });
    const audit = path.join(tempDir(), 'audit.jsonl');
    const s = new CliSession(['--workspace', dir, '--audit', audit, ...extraArgs]);
    sessions.push(s);
    return { s, dir, audit: () => fs.readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) };
  };

  it('a form: the event carries server, message, schema, defaults and the call; the answer goes to the server', async () => {
    const { s, audit } = start({});
    s.send({ id: 1, op: 'call', name: 'asks__ask_form' });
    const ev = await s.waitFor('the elicitation event', (l) => l.event === 'elicitation');
    assert.equal(ev.request, 'elicitation-1');
    assert.equal(ev.mode, 'form');
    assert.equal(ev.server, 'asks');
    assert.deepEqual(ev.duringCall, ['ask_form']);
    assert.equal(ev.message, 'Tell us about yourself');
    assert.deepEqual(ev.content, { name: 'Ada', age: 36, color: 'blue', newsletter: false, tags: ['a'] });
    assert.deepEqual(ev.requestedSchema.required, ['name']);

    // Content that does not fit: an error answer, and the question stays open.
    s.send({ id: 2, op: 'elicitation', request: ev.request, action: 'accept', content: { age: 'old' } });
    const bad = await s.answer(2);
    assert.match(bad.error, /the content does not match the form: Age: must be integer/);

    s.send({ id: 3, op: 'elicitation', request: ev.request, action: 'accept', content: { name: 'Grace' } });
    assert.deepEqual(await s.answer(3), { id: 3, op: 'elicitation', request: 'elicitation-1', action: 'accept' });
    const call = await s.answer(1);
    assert.equal(call.outcome, 'ok');
    assert.deepEqual(JSON.parse(call.modelText).content, { name: 'Grace', age: 36, color: 'blue', newsletter: false, tags: ['a'] });

    s.send({ id: 4, op: 'elicitation', request: ev.request, action: 'decline' });
    assert.match((await s.answer(4)).error, /no open request "elicitation-1" \(none is open\)/);
    s.end();
    assert.equal((await s.exited).code, 0);
    const rec = audit().find((r) => r.kind === 'elicitation');
    assert.deepEqual([rec.outcome, rec.decidedBy, rec.server, rec.duringCall], ['accepted', 'user', 'asks', ['ask_form']]);
  });

  it('URL mode and decline; sampling refused by default never becomes an event', async () => {
    const { s } = start({});
    s.send({ id: 1, op: 'call', name: 'asks__ask_url', args: { url: 'https://example.org/link' } });
    const ev = await s.waitFor('the URL event', (l) => l.event === 'elicitation');
    assert.deepEqual([ev.mode, ev.url, ev.elicitationId], ['url', 'https://example.org/link', 'link-1']);
    s.send({ id: 2, op: 'elicitation', request: ev.request, action: 'decline' });
    await s.answer(2);
    assert.deepEqual(JSON.parse((await s.answer(1)).modelText), { action: 'decline' });

    s.send({ id: 3, op: 'call', name: 'asks__sample', args: { prompt: 'hi' } });
    assert.match((await s.answer(3)).modelText, /Sampling is not allowed: mcpHost\.sampling does not allow server "asks"/);
    assert.ok(!s.lines.some((l) => l.event === 'sampling'));
  });

  it('sampling allowed by the settings: the driver is the model; a wrong op is an error', async () => {
    const { s, audit } = start({ 'mcpHost.sampling': { servers: ['asks'] } });
    s.send({ id: 1, op: 'call', name: 'asks__sample', args: { prompt: 'Name a colour', maxTokens: 7, systemPrompt: 'Be terse' } });
    const ev = await s.waitFor('the sampling event', (l) => l.event === 'sampling');
    assert.equal(ev.request, 'sampling-1');
    assert.deepEqual([ev.server, ev.maxTokens, ev.systemPrompt], ['asks', 7, 'Be terse']);
    assert.deepEqual(ev.messages, [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }]);
    s.send({ id: 2, op: 'elicitation', request: 'sampling-1', action: 'accept' });
    assert.match((await s.answer(2)).error, /"sampling-1" is a sampling request: answer it with \{"op":"sampling"\}/);
    s.send({ id: 3, op: 'sampling', request: 'sampling-1', action: 'accept' });
    assert.match((await s.answer(3)).error, /needs "text"/);
    s.send({ id: 4, op: 'sampling', request: 'sampling-1', action: 'accept', text: 'Teal', model: 'driver-1' });
    await s.answer(4);
    const result = JSON.parse((await s.answer(1)).modelText);
    assert.deepEqual(result, { model: 'driver-1', stopReason: 'endTurn', role: 'assistant', content: { type: 'text', text: 'Teal' } });
    s.end();
    await s.exited;
    const rec = audit().find((r) => r.kind === 'sampling');
    assert.deepEqual([rec.outcome, rec.answer.model, rec.answer.text], ['accepted', 'driver-1', 'Teal']);
  });

  it('end of input declines the open question, the call finishes, nothing is left', async () => {
    const { s } = start({});
    s.send({ id: 1, op: 'call', name: 'asks__ask_form' });
    const ev = await s.waitFor('the elicitation event', (l) => l.event === 'elicitation');
    const children = childPidsOf(s.pid);
    s.end();
    const call = await s.answer(1);
    assert.deepEqual(JSON.parse(call.modelText), { action: 'decline' });
    assert.ok(s.lines.some((l) => l.event === 'requestClosed' && l.request === ev.request));
    assert.equal((await s.exited).code, 0);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(children.every((p) => !isProcessAlive(p)), 'the server is gone');
  });

  it('malformed answers are explained', async () => {
    const { s } = start({});
    s.send({ id: 1, op: 'elicitation', action: 'accept' });
    assert.equal((await s.answer(1)).error, '"elicitation" needs "request": the id of the elicitation event it answers');
    s.send({ id: 2, op: 'sampling', request: 'x', action: 'maybe' });
    assert.equal((await s.answer(2)).error, '"action" must be "accept", "decline" or "cancel"');
    s.send({ id: 3, op: 'elicitation', request: 'x', action: 'accept', content: [1] });
    assert.equal((await s.answer(3)).error, '"content" must be an object of field values, got an array');
  });

  it("server-everything's elicitation, sampling and roots tools through a session", async () => {
    const dir = makeWorkspace({ 'mcpHost.servers': { everything: everything() }, 'mcpHost.autoApprove': ['everything/*'], 'mcpHost.sampling': { servers: ['everything'] } });
    const s = new CliSession(['--workspace', dir]);
    sessions.push(s);
    // It registers these tools right after initialize and says list_changed; a refresh reads them for sure.
    s.send({ id: 0, op: 'refresh' });
    const tools = (await s.answer(0)).tools.map((t: Json) => t.name);
    for (const n of ['everything__trigger-elicitation-request', 'everything__trigger-sampling-request', 'everything__get-roots-list']) assert.ok(tools.includes(n), n);

    s.send({ id: 1, op: 'call', name: 'everything__trigger-elicitation-request' });
    const el = await s.waitFor('the elicitation', (l) => l.event === 'elicitation');
    s.send({ id: 2, op: 'elicitation', request: el.request, action: 'accept', content: { ...el.content, name: 'Ada Lovelace' } });
    assert.match((await s.answer(1)).modelText, /- Name: Ada Lovelace/);

    s.send({ id: 3, op: 'call', name: 'everything__trigger-sampling-request', args: { prompt: 'Say hi', maxTokens: 20 } });
    const sa = await s.waitFor('the sampling request', (l) => l.event === 'sampling');
    s.send({ id: 4, op: 'sampling', request: sa.request, action: 'accept', text: 'Hi!', model: 'driver' });
    assert.match((await s.answer(3)).modelText, /Hi!/);

    s.send({ id: 5, op: 'call', name: 'everything__get-roots-list' });
    assert.ok((await s.answer(5)).modelText.includes(pathToFileURL(dir).href));
    s.end();
    assert.equal((await s.exited).code, 0);
  });
});

describe('mcp-host call: a server that asks, without a terminal', function () {
  this.timeout(40_000);
  after(removeTempDirs);

  it('declines the question with a line on stderr (nobody to ask)', async () => {
    const dir = makeWorkspace({ 'mcpHost.servers': { asks: fixtureServer('asks') }, 'mcpHost.autoApprove': ['asks/*'] });
    const r = await runCli(['call', 'asks__ask_form', '--workspace', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { action: 'decline' });
    assert.match(r.stderr, /server "asks" asks for information \("Tell us about yourself"\) and there is no terminal to ask on: declined/);
  });
});
