'use strict';
const assert = require('assert');
const { extLog } = require('../../runner/mochaInExtensionHost');
const h = require('../helpers');

const outputChannelLog = h.outputChannelLog;

describe('progress and tasks from @mcp (server-everything)', () => {
  it('trigger-long-running-operation reports progress and, with resetTimeoutOnProgress, outlives timeoutMs (3000)', async () => {
    const run = await h.chatRun({
      query: '@mcp run the long operation',
      turns: [{ toolCalls: [{ name: 'everything__trigger-long-running-operation', input: { duration: 6, steps: 6 }, callId: 'long' }] }, { text: 'It finished.' }],
      audit: 1,
      timeout: 60000,
    });
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.strictEqual(rec.outcome, 'ok', JSON.stringify(rec));
    assert.ok(rec.durationMs > 3000, `durationMs ${rec.durationMs}: the call did not run past timeoutMs`);
    extLog('    the 6 s operation ended ok after %d ms against a 3000 ms timeout', rec.durationMs);
    const [result] = h.toolResults(run.model[1]);
    assert.match(result.text, /Long running operation completed\. Duration: 6 seconds, Steps: 6\./);
    // The same progress the chat shows goes to the output channel.
    const log = await h.waitFor('progress lines in the output channel', () => {
      const text = outputChannelLog();
      return /call everything__trigger-long-running-operation: 6\/6 \(100%\)/.test(text) || /call everything__trigger-long-running-operation: [1-5]\/6/.test(text) ? text : undefined;
    });
    assert.match(log, /call everything__trigger-long-running-operation: \d\/6 \(\d+%\)/);
  });

  it('simulate-research-query (taskSupport "required") runs as a task and its result reaches the model', async () => {
    const run = await h.chatRun({
      query: '@mcp research MCP tasks',
      turns: [{ toolCalls: [{ name: 'everything__simulate-research-query', input: { topic: 'MCP tasks' } }] }, { text: 'Here is the report.' }],
      audit: 1,
      timeout: 60000,
    });
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual([rec.tool, rec.outcome], ['simulate-research-query', 'ok'], JSON.stringify(rec));
    const [result] = h.toolResults(run.model[1]);
    assert.match(result.text, /# Research Report: MCP tasks/);
    await h.waitFor('the task status in the output channel', () => /call everything__simulate-research-query: task working · Gathering sources/.test(outputChannelLog()));
  });
});
