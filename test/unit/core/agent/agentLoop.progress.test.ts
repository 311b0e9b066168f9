/** The agent loop reports a call's progress (and a task's status) to the user as that call's progress line. */
import * as assert from 'node:assert/strict';
import { AgentLoop, type ChatModelPort, type ResponseSink } from '../../../../src/core/agent/agentLoop';
import type { AgentMessage, ModelStreamPart } from '../../../../src/core/agent/agentMessages';
import { referenceServer, settings, useTestEnv } from '../helpers';

class TwoStepModel implements ChatModelPort {
  private n = 0;
  constructor(private readonly first: ModelStreamPart[]) {}
  async *send(): AsyncIterable<ModelStreamPart> {
    for (const p of this.n++ === 0 ? this.first : [{ type: 'text' as const, text: 'done' }]) yield p;
  }
}

describe('AgentLoop: progress of the calls it makes', function () {
  this.timeout(30_000);
  const env = useTestEnv();

  it("shows server-everything's progress and a task's status as the progress of that call", async () => {
    const host = await env.started({ settings: settings({ servers: [referenceServer('everything', 'server-everything')], autoApprove: ['*/*'] }) });
    const progress: string[] = [];
    const sink: ResponseSink = { text: () => undefined, progress: (m) => void progress.push(m) };
    const model = new TwoStepModel([
      { type: 'toolCall', call: { callId: 'a', name: 'everything__trigger-long-running-operation', input: { duration: 1.5, steps: 3 } } },
      { type: 'toolCall', call: { callId: 'b', name: 'everything__simulate-research-query', input: { topic: 'loops' } } },
    ]);
    const history: AgentMessage[] = [{ role: 'user', text: 'go' }];
    const result = await new AgentLoop(model, host, sink, 3).run(history, new AbortController().signal);
    assert.equal(result.stopReason, 'done');
    assert.deepEqual(result.rounds[0].results.map((r) => r.outcome), ['ok', 'ok']);
    assert.ok(progress.includes('Calling everything__trigger-long-running-operation…'), JSON.stringify(progress));
    assert.ok(progress.some((m) => /^Calling everything__trigger-long-running-operation… [12]\/3 \(\d+%\)$/.test(m)), JSON.stringify(progress));
    assert.ok(progress.includes('Calling everything__simulate-research-query… task working · Gathering sources...'), JSON.stringify(progress));
  });
});
