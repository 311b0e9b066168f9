'use strict';
const assert = require('assert');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');
const h = require('../helpers');

const calls = (fixture, tool) => fixture.filter((l) => l.event === 'call' && (!tool || l.tool === tool));
const lastResults = (run) => h.toolResults(run.model[run.model.length - 1]);

describe('@mcp tool calls through the scripted model', () => {
  it('calls the tool on its server with the model\'s arguments and gives the result to the model', async () => {
    const run = await h.chatRun({
      query: '@mcp echo something',
      turns: [{ text: 'Echoing. ', toolCalls: [{ name: 'basic__echo', input: { text: 'hello from VS Code' }, callId: 'c-echo' }] }, { text: 'Done.' }],
      audit: 1,
    });
    // Server side: exactly this call with exactly these arguments.
    const seen = calls(run.fixture);
    assert.deepStrictEqual(seen.map((c) => [c.tool, c.args]), [['echo', { text: 'hello from VS Code' }]]);
    // Model side: the second request carries the tool result for the same call id.
    assert.strictEqual(run.model.length, 2);
    const [result] = lastResults(run);
    assert.strictEqual(result.callId, 'c-echo');
    assert.strictEqual(result.text, 'echo: hello from VS Code');
    const assistant = run.model[1].messages.find((m) => m.role === 'assistant');
    assert.deepStrictEqual(assistant.parts.find((p) => p.type === 'toolCall'), { type: 'toolCall', callId: 'c-echo', name: 'basic__echo', input: { text: 'hello from VS Code' } });
    // Audit.
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.server, 'basic');
    assert.strictEqual(rec.tool, 'echo');
    assert.strictEqual(rec.name, 'basic__echo');
    assert.deepStrictEqual(rec.args, { text: 'hello from VS Code' });
    assert.strictEqual(rec.outcome, 'ok');
    assert.strictEqual(rec.isError, false);
    assert.strictEqual(rec.confirmedBy, 'policy');
    assert.strictEqual(rec.role, 'full');
    assert.match(rec.result, /echo: hello from VS Code/);
    assert.strictEqual(typeof rec.durationMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(rec.ts)), `bad ts ${rec.ts}`);
  });

  it('passes an isError result back to the model unchanged, and the run goes on', async () => {
    const run = await h.chatRun({
      query: '@mcp try the failing tool',
      turns: [{ toolCalls: [{ name: 'basic__fail', input: { reason: 'disk on fire' } }] }, { text: 'It failed, trying something else. ', toolCalls: [{ name: 'basic__add', input: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }],
      audit: 2,
    });
    assert.deepStrictEqual(calls(run.fixture).map((c) => [c.tool, c.args]), [['fail', { reason: 'disk on fire' }], ['add', { a: 2, b: 3 }]]);
    assert.strictEqual(run.model.length, 3, 'the isError result did not stop the agent loop');
    const failResult = h.toolResults(run.model[1]).pop();
    assert.strictEqual(failResult.text, 'something failed: disk on fire');
    const addResult = h.toolResults(run.model[2]).pop();
    assert.strictEqual(addResult.text, '5');
    const recs = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual(recs.map((r) => [r.name, r.outcome, r.isError]), [['basic__fail', 'isError', true], ['basic__add', 'ok', false]]);
  });

  it('answers an unknown tool name with "not available" and never reaches a server', async () => {
    const run = await h.chatRun({
      query: '@mcp call a tool that does not exist',
      turns: [{ toolCalls: [{ name: 'basic__does_not_exist', input: {} }] }, { text: 'No such tool.' }],
      audit: 1,
    });
    assert.deepStrictEqual(calls(run.fixture), []);
    const [result] = lastResults(run);
    assert.match(result.text, /Tool "basic__does_not_exist" is not available/);
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.outcome, 'notFound');
    assert.strictEqual(rec.server, null);
  });

  it('refuses arguments that do not match the input schema before calling the server', async () => {
    const run = await h.chatRun({
      query: '@mcp add with bad arguments',
      turns: [{ toolCalls: [{ name: 'basic__add', input: { a: 'two', b: 3 } }] }, { text: 'Bad arguments.' }],
      audit: 1,
    });
    assert.deepStrictEqual(calls(run.fixture), []);
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.outcome, 'invalidArgs');
    const [result] = lastResults(run);
    assert.match(result.text, /\ba\b/);
  });

  it('times out a slow tool (timeoutMs 1500), cancels it on the server and tells the model', async () => {
    const t0 = Date.now();
    const run = await h.chatRun({
      query: '@mcp sleep for a long time',
      turns: [{ toolCalls: [{ name: 'slow__sleep', input: { ms: 30000 } }] }, { text: 'That timed out.' }],
      audit: 1,
    });
    const elapsed = Date.now() - t0;
    extLog('    timed out and answered after %d ms', elapsed);
    assert.ok(elapsed < 15000, `the run took ${elapsed} ms: the 1500 ms timeout did not apply`);
    const [result] = lastResults(run);
    assert.match(result.text, /timed out after 1500 ms/);
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.outcome, 'timeout');
    assert.ok(rec.durationMs >= 1400 && rec.durationMs < 10000, `durationMs ${rec.durationMs}`);
    // Server side: the call, then notifications/cancelled for the same request id, then the handler stopped.
    const fixture = await h.waitFor('the cancellation at the slow server', () => {
      const all = h.readJsonl(h.files.fixtureLog);
      const call = all.filter((l) => l.event === 'call' && l.tool === 'sleep').pop();
      const cancelled = call && all.find((l) => l.event === 'cancelled' && l.requestId === call.requestId && l.pid === call.pid);
      const aborted = call && all.find((l) => l.event === 'aborted' && l.requestId === call.requestId && l.pid === call.pid);
      return cancelled && aborted ? { call, cancelled, aborted } : undefined;
    });
    assert.deepStrictEqual(fixture.call.args, { ms: 30000 });
    assert.ok(fixture.cancelled.ts - fixture.call.ts >= 1400, `cancelled after ${fixture.cancelled.ts - fixture.call.ts} ms`);
  });

  it('Stop in the Chat view cancels the running call: the server is told, the audit says "cancelled"', async () => {
    h.setScript([{ toolCalls: [{ name: 'basic__wait', input: { ms: 15000 } }] }, { text: 'should not be reached' }]);
    const m = h.mark();
    await h.sendChat('@mcp wait a while');
    const call = await h.waitFor('the wait call at the server', () => m.since().fixture.find((l) => l.event === 'call' && l.tool === 'wait'));
    const t = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const rec = await h.waitFor('the audit record', () => m.since().audit.find((r) => r.kind === 'call'), { describe: () => JSON.stringify(m.since()) });
    assert.strictEqual(rec.outcome, 'cancelled');
    assert.ok(Date.now() - t < 5000, `took ${Date.now() - t} ms after Stop`);
    await h.waitFor('notifications/cancelled at the server', () =>
      h.readJsonl(h.files.fixtureLog).some((l) => l.event === 'cancelled' && l.requestId === call.requestId && l.pid === call.pid),
    );
    await h.sleep(500);
    assert.strictEqual(m.since().model.length, 1, 'the model was asked again after Stop');
  });

  it('denies a call that needs confirmation when the dialog cannot be shown (refusal is never consent)', async () => {
    // In this test mode the workbench refuses modal dialogs (test/integration/README.md): basic/noop is in
    // mcpHost.confirm, so the call must end "denied" and never reach the server.
    const run = await h.chatRun({
      query: '@mcp run noop',
      turns: [{ toolCalls: [{ name: 'basic__noop', input: {} }] }, { text: 'Not allowed.' }],
      audit: 1,
    });
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.outcome, 'denied');
    assert.strictEqual(rec.confirmedBy, null);
    assert.deepStrictEqual(calls(run.fixture, 'noop'), []);
    const [result] = lastResults(run);
    assert.match(result.text, /denied/);
  });

  it('runs two tools of @modelcontextprotocol/server-everything in one round', async () => {
    const run = await h.chatRun({
      query: '@mcp use the everything server',
      turns: [
        {
          toolCalls: [
            { name: 'everything__echo', input: { message: 'hi everything' }, callId: 'e1' },
            { name: 'everything__get-sum', input: { a: 20, b: 22 }, callId: 'e2' },
          ],
        },
        { text: 'Both done.' },
      ],
      audit: 2,
    });
    const results = lastResults(run);
    const byId = Object.fromEntries(results.map((r) => [r.callId, r.text]));
    assert.match(byId.e1, /hi everything/);
    assert.match(byId.e2, /42/);
    const recs = run.audit.filter((r) => r.kind === 'call').sort((a, b) => a.name.localeCompare(b.name));
    assert.deepStrictEqual(recs.map((r) => [r.server, r.tool, r.outcome]), [['everything', 'echo', 'ok'], ['everything', 'get-sum', 'ok']]);
  });
});
