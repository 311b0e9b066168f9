/**
 * Behaviour 11: the agent loop with a scripted model (a test double of the MODEL only) and real
 * servers: calls are routed, every outcome is fed back, a round's calls run in parallel, maxRounds
 * stops the run with a message, Stop aborts it.
 */
import * as assert from 'node:assert/strict';
import { AgentLoop, toModelTools, type ChatModelPort, type ResponseSink } from '../../../../src/core/agent/agentLoop';
import type { AgentMessage, ModelStreamPart, ModelToolDefinition, ToolCallIntent } from '../../../../src/core/agent/agentMessages';
import { nextToolsChanged, role, settings, useTestEnv, waitFor, type Any } from '../helpers';

type Step = (messages: readonly AgentMessage[], tools: readonly ModelToolDefinition[], signal: AbortSignal) => ModelStreamPart[] | Promise<ModelStreamPart[]>;

/** Plays one scripted step per model request and records what the model was sent. */
class ScriptedModel implements ChatModelPort {
  readonly requests: { messages: AgentMessage[]; tools: ModelToolDefinition[] }[] = [];
  constructor(private readonly steps: Step[], private readonly fallback?: Step) {}

  async *send(messages: readonly AgentMessage[], tools: readonly ModelToolDefinition[], signal: AbortSignal): AsyncIterable<ModelStreamPart> {
    this.requests.push({ messages: [...messages], tools: [...tools] });
    const step = this.steps[this.requests.length - 1] ?? this.fallback ?? (() => [text('done')]);
    for (const part of await step(messages, tools, signal)) yield part;
  }
}

/** Records what the loop reports to the user. */
function sink(): ResponseSink & { texts: string[]; progressMessages: string[] } {
  const texts: string[] = [];
  const progressMessages: string[] = [];
  return { texts, progressMessages, text: (c) => void texts.push(c), progress: (m) => void progressMessages.push(m) };
}

const text = (t: string): ModelStreamPart => ({ type: 'text', text: t });
let nextId = 0;
const call = (name: string, input: unknown = {}): ModelStreamPart => ({ type: 'toolCall', call: { callId: `c${++nextId}`, name, input } });
const user = (t: string): AgentMessage => ({ role: 'user', text: t });
const lastToolResults = (messages: readonly AgentMessage[]) => {
  const m = messages.at(-1)!;
  assert.equal(m.role, 'tool');
  return (m as Extract<AgentMessage, { role: 'tool' }>).results.map((r) => ({
    name: r.name,
    outcome: r.outcome,
    text: r.parts.map((p) => (p.type === 'text' ? p.text : `<${p.mimeType}>`)).join('|'),
  }));
};

describe('AgentLoop with real servers', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  const start = (extra: Record<string, unknown> = {}, withDynamic = false) =>
    env.started({
      settings: settings({
        servers: [env.stdio('basic', 'basic'), ...(withDynamic ? [env.stdio('dynamic', 'dynamic')] : [])],
        autoApprove: ['*/*'],
        ...extra,
      }),
    });

  it('routes tool calls, feeds every result (ok, isError, notFound, invalidArgs) back and ends when the model answers', async () => {
    const host = await start({ roles: [role('r', { exclude: ['dynamic/control'] })], activeRole: 'r' }, true);
    const model = new ScriptedModel([
      (_m, tools) => {
        assert.deepEqual(
          tools.map((t) => t.name),
          host.snapshot().exposed.map((t) => t.entry.name),
        );
        assert.ok(!tools.some((t) => t.name === 'dynamic__control'), 'the role filter applies to what the model sees');
        const echo = tools.find((t) => t.name === 'basic__echo')!;
        assert.match(echo.description, /Echoes its text/);
        assert.deepEqual((echo.inputSchema as Any).required, ['text']);
        return [
          text('Let me check. '),
          call('basic__echo', { text: 'hi' }),
          call('basic__fail', { reason: 'nope' }),
          call('ghost__tool'),
          call('basic__add', '{"a": 1}'),
          call('basic__image'),
        ];
      },
      (messages) => {
        assert.deepEqual(lastToolResults(messages), [
          { name: 'basic__echo', outcome: 'ok', text: 'echo: hi' },
          { name: 'basic__fail', outcome: 'isError', text: 'something failed: nope' },
          { name: 'ghost__tool', outcome: 'notFound', text: 'Tool "ghost__tool" is not available. Use only the tools offered in this request.' },
          { name: 'basic__add', outcome: 'invalidArgs', text: lastToolResults(messages)[3].text },
          { name: 'basic__image', outcome: 'ok', text: 'before image|<image/png>|after image' },
        ]);
        assert.match(lastToolResults(messages)[3].text, /missing required property "b"/);
        const assistant = messages.at(-2) as Extract<AgentMessage, { role: 'assistant' }>;
        assert.equal(assistant.role, 'assistant');
        assert.equal(assistant.text, 'Let me check. ');
        assert.equal(assistant.toolCalls.length, 5);
        return [text('All done.')];
      },
    ]);
    const out = sink();
    const result = await new AgentLoop(model, host, out, 5).run([user('go')], new AbortController().signal);
    assert.equal(result.stopReason, 'done');
    assert.equal(result.rounds.length, 1);
    assert.deepEqual(
      result.rounds[0].results.map((r) => [r.callId, r.outcome]),
      result.rounds[0].toolCalls.map((c: ToolCallIntent, i) => [c.callId, ['ok', 'isError', 'notFound', 'invalidArgs', 'ok'][i]]),
    );
    assert.equal(out.texts.join(''), 'Let me check. All done.');
    assert.equal(out.progressMessages.length, 5);
    assert.equal(model.requests.length, 2);
    assert.deepEqual(model.requests[0].messages, [user('go')]);
  });

  it('runs the calls of one round in parallel', async () => {
    const host = await start();
    const model = new ScriptedModel([() => [call('basic__wait', { ms: 1500 }), call('basic__wait', { ms: 1501 }), call('basic__wait', { ms: 1502 })]]);
    const t0 = Date.now();
    const result = await new AgentLoop(model, host, sink(), 5).run([user('wait')], new AbortController().signal);
    const elapsed = Date.now() - t0;
    assert.deepEqual(
      result.rounds[0].results.map((r) => r.outcome),
      ['ok', 'ok', 'ok'],
    );
    // Generous bound for a loaded 2-core machine: sequential would be ≥ 4503 ms.
    assert.ok(elapsed < 4000, `3 × 1500 ms took ${elapsed} ms (sequential ≥ 4503 ms)`);
    const calls = env.events('basic').filter((e) => e.event === 'call');
    assert.equal(calls.length, 3);
    assert.ok(Math.max(...calls.map((c) => c.ts)) - Math.min(...calls.map((c) => c.ts)) < 1200, 'all three reached the server together');
  });

  it('stops after maxRounds with a message', async () => {
    const host = await start();
    const model = new ScriptedModel([], () => [call('basic__noop')]);
    const out = sink();
    const result = await new AgentLoop(model, host, out, 2).run([user('loop forever')], new AbortController().signal);
    assert.equal(result.stopReason, 'maxRounds');
    assert.equal(result.rounds.length, 2);
    assert.equal(model.requests.length, 3);
    assert.equal(env.events('basic').filter((e) => e.event === 'call').length, 2, 'the third round’s call is not run');
    assert.match(out.texts.join(''), /Stopped after 2 tool rounds .*basic__noop/);
  });

  it('Stop aborts a running call and ends the run', async () => {
    const host = await start();
    const ac = new AbortController();
    const model = new ScriptedModel([() => [call('basic__wait', { ms: 30_000 }), call('basic__echo', { text: 'quick' })]]);
    const run = new AgentLoop(model, host, sink(), 5).run([user('long')], ac.signal);
    await waitFor('the long call to reach the server', () => env.events('basic').some((e) => e.event === 'call' && e.tool === 'wait'));
    await host.log.waitForLine(/call basic__echo → ok/);
    const t0 = Date.now();
    ac.abort();
    const result = await run;
    assert.ok(Date.now() - t0 < 3000, 'Stop does not wait for the 30 s call');
    assert.equal(result.stopReason, 'cancelled');
    assert.deepEqual(
      result.rounds[0].results.map((r) => r.outcome),
      ['cancelled', 'ok'],
    );
    assert.equal(model.requests.length, 1, 'the model is not asked again');
    await waitFor('the server to log the cancellation', () => env.events('basic').some((e) => e.event === 'cancelled'));
    const aborted = await new AgentLoop(new ScriptedModel([]), host, sink(), 5).run([user('x')], ac.signal);
    assert.equal(aborted.stopReason, 'cancelled');
  });

  it('a tool removed mid-run answers notFound and disappears from the next round’s tools', async () => {
    const host = await start({}, true);
    const changed = nextToolsChanged(host, 'dynamic');
    const model = new ScriptedModel([
      (_m, tools) => {
        assert.ok(tools.some((t) => t.name === 'dynamic__alpha'));
        return [call('dynamic__control', { action: 'remove', name: 'alpha' })];
      },
      async () => {
        // The model still holds the old list; the host has meanwhile processed list_changed.
        await changed;
        return [call('dynamic__alpha')];
      },
      (messages, tools) => {
        assert.deepEqual(lastToolResults(messages), [{ name: 'dynamic__alpha', outcome: 'notFound', text: 'Tool "dynamic__alpha" is not available. Use only the tools offered in this request.' }]);
        assert.ok(!tools.some((t) => t.name === 'dynamic__alpha'), 'the next round offers the new list');
        return [text('ok')];
      },
    ]);
    const result = await new AgentLoop(model, host, sink(), 5).run([user('x')], new AbortController().signal);
    assert.equal(result.stopReason, 'done');
    assert.equal(result.rounds.length, 2);
  });

  it('toModelTools converts registry entries into neutral definitions', async () => {
    const host = await start();
    const tools = toModelTools(host.snapshot().exposed);
    const noop = tools.find((t) => t.name === 'basic__noop')!;
    assert.equal(noop.description, 'Does nothing and returns "ok" (for benchmarks).');
    assert.equal((noop.inputSchema as Any).type, 'object');
    for (const t of tools) assert.match(t.name, /^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('an app-only tool (MCP Apps) is in no model request, not found by search_tools, and a call of it is notFound', async () => {
    const host = await env.started({ settings: settings({ servers: [env.stdio('apps', 'apps')], autoApprove: ['*/*'], toolBudget: { maxTools: 2 } }) });
    const model = new ScriptedModel([
      (_m, tools) => {
        assert.ok(tools.some((t) => t.name === 'search_tools'), 'over budget: search_tools is offered');
        return [call('search_tools', { query: 'only the view calls this refresh' })];
      },
      (messages, tools) => {
        assert.doesNotMatch(lastToolResults(messages)[0].text, /apps__refresh/);
        assert.ok(!tools.some((t) => t.name === 'apps__refresh'));
        return [call('apps__refresh')];
      },
      (messages) => {
        assert.deepEqual(lastToolResults(messages), [{ name: 'apps__refresh', outcome: 'notFound', text: 'Tool "apps__refresh" is not available. Use only the tools offered in this request.' }]);
        return [text('done')];
      },
    ]);
    const result = await new AgentLoop(model, host, sink(), 5).run([user('refresh the view')], new AbortController().signal);
    assert.equal(result.stopReason, 'done');
    assert.equal(model.requests.length, 3);
    assert.ok(host.appToolName('apps', 'refresh'), 'the tool is loaded: only the model may not see it');
    assert.deepEqual(env.events('apps').filter((e: Any) => e.event === 'call'), [], 'the server was never called');
  });
});
