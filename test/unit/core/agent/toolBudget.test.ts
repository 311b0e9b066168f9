/**
 * The tool budget: a role of 400 tools (four real SDK servers in this process) never sends more
 * than the budget, the model reaches any tool through search_tools, and routing, role, rules and
 * confirmation are unchanged for tools found that way.
 */
import * as assert from 'node:assert/strict';
import { McpServer } from '@modelcontextprotocol/server';
import { AgentLoop, toModelTools, type ChatModelPort, type ResponseSink } from '../../../../src/core/agent/agentLoop';
import type { AgentMessage, ModelStreamPart, ModelToolDefinition } from '../../../../src/core/agent/agentMessages';
import { RoundTools, SEARCH_TOOL_NAME } from '../../../../src/core/agent/roundTools';
import { definitionText, describeMeasure, measureTools, selectWithinBudget, TokenCountCache } from '../../../../src/core/agent/toolBudget';
import { ToolSearch, toolWords } from '../../../../src/core/agent/toolSearch';
import { O200K_COUNTER } from '../../../../src/cli/o200kTokenCounter';
import type { HostSettings } from '../../../../src/core/settings/hostSettings';
import { InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, RecordingConfirmer, role, settings, useTestEnv } from '../helpers';
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore plain ESM fixture module without types
import { manyToolDefinitions, registerManyTools } from '../../../fixtures/servers/lib/manyTools.mjs';

const SERVERS = ['crm', 'billing', 'support', 'devops'];

/** Server i holds the tools i*100 … i*100+99 of the fixture's 400 (ten nouns each). */
function manyToolsServer(name: string, index: number): () => McpServer {
  return () => {
    const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
    registerManyTools(server.server, 100, index * 100);
    return server;
  };
}

type Step = (tools: readonly ModelToolDefinition[], messages: readonly AgentMessage[]) => ModelStreamPart[];

/** A test double of the model only: plays steps, records what each request carried. */
class ScriptedModel implements ChatModelPort {
  readonly requests: { tools: ModelToolDefinition[]; messages: AgentMessage[] }[] = [];
  constructor(
    private readonly steps: Step[],
    readonly tokenCounter?: ChatModelPort['tokenCounter'],
  ) {}
  async *send(messages: readonly AgentMessage[], tools: readonly ModelToolDefinition[]): AsyncIterable<ModelStreamPart> {
    this.requests.push({ tools: [...tools], messages: [...messages] });
    const step = this.steps[this.requests.length - 1] ?? (() => [{ type: 'text', text: 'done' }]);
    for (const p of step(tools, messages)) yield p;
  }
}

const sink = (): ResponseSink & { progress: (m: string) => void; lines: string[] } => {
  const lines: string[] = [];
  return { lines, text: () => undefined, progress: (m) => void lines.push(m) };
};
let id = 0;
const call = (name: string, input: unknown): ModelStreamPart => ({ type: 'toolCall', call: { callId: `c${++id}`, name, input } });
const lastResultText = (messages: readonly AgentMessage[]) => {
  const m = messages.at(-1) as Extract<AgentMessage, { role: 'tool' }>;
  return m.results.map((r) => r.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')).join('\n');
};

describe('tool budget', function () {
  this.timeout(30_000);

  describe('search and selection (pure)', () => {
    const defs: ModelToolDefinition[] = (manyToolDefinitions(400) as ModelToolDefinition[]).map((t) => ({ ...t, name: `crm__${t.name}` }));

    it('words of names and requests: snake_case, camelCase, prefixes, stop words', () => {
      assert.deepEqual(toolWords('crm__refundPayment get-HTTPServer'), ['crm', 'refund', 'payment', 'http', 'server']);
      assert.deepEqual(toolWords('Please give me the invoice'), ['invoice']);
    });

    it('BM25 ranks the tool named by the request first, also for plurals and a typo', () => {
      const search = new ToolSearch(defs);
      assert.equal(search.search('refund the payment p-7')[0].name, 'crm__refund_payment');
      assert.equal(search.search('approve invoices')[0].name, 'crm__approve_invoice');
      assert.equal(search.search('archive the certifcate')[0].name, 'crm__archive_certificate');
      assert.deepEqual(search.search('the and of'), [], 'only stop words');
      const ranked = search.rank('export webhook');
      assert.equal(ranked.length, 400);
      assert.equal(ranked[0].name, 'crm__export_webhook');
    });

    it('selection keeps room for search_tools, honours tokens, puts found tools first, keeps the role order', () => {
      const ranked = new ToolSearch(defs).rank('refund payment');
      const tokens = new Map(defs.map((d) => [d.name, 10]));
      const byCount = selectWithinBudget(defs, ranked, [], { maxTools: 5 }, undefined, 0);
      assert.equal(byCount.length, 4);
      assert.ok(byCount.some((d) => d.name === 'crm__refund_payment'));
      assert.deepEqual(byCount, defs.filter((d) => byCount.includes(d)), 'in the role order');
      const byTokens = selectWithinBudget(defs, ranked, ['crm__get_vehicle'], { maxTools: 128, maxToolTokens: 50 }, tokens, 20);
      assert.equal(byTokens.length, 3, '(50 - 20 reserved) / 10 each');
      assert.ok(byTokens.some((d) => d.name === 'crm__get_vehicle'), 'a found tool comes first');
    });

    it('measures definitions with a tokenizer (cached) and describes the budget', async () => {
      const cache = new TokenCountCache();
      let counted = 0;
      const counter = { key: 'o200k', count: (t: string) => (counted++, O200K_COUNTER.count(t)), cache };
      const m = await measureTools(defs.slice(0, 150), { maxTools: 128 }, counter);
      assert.equal(m.tools, 150);
      assert.equal(m.tokens, defs.slice(0, 150).reduce((n, d) => n + O200K_COUNTER.count(definitionText(d)), 0));
      assert.equal(m.over, true);
      await measureTools(defs.slice(0, 150), { maxTools: 128 }, counter);
      assert.equal(counted, 150, 'the second measure is served from the cache');
      assert.match(describeMeasure(m), /^150 tools · [\d,]+ tokens · over budget \(128 tools\): requests get the most relevant tools \+ search_tools$/);
      assert.match(describeMeasure({ tools: 3, tokens: 1200, budget: { maxTools: 128, maxToolTokens: 5000 }, over: false }), /3 tools · 1,200 tokens · budget 128 tools, 5,000 tokens/);
    });

    it('search_tools validates its input and answers from the role\'s tools only', async () => {
      const rt = new RoundTools({ query: 'x' });
      const pick = await rt.pick(defs, { maxTools: 10 });
      assert.equal(pick.tools.length, 10);
      assert.equal(pick.tools.at(-1)?.name, SEARCH_TOOL_NAME);
      assert.match(rt.search({}).text, /needs a "query"/);
      assert.match(rt.search({ query: 'zzzz' }).text, /No tool matches "zzzz"/);
      const found = rt.search({ query: 'vehicle', limit: 3 });
      assert.equal(found.found.length, 3);
      assert.ok(found.found.every((n) => n.includes('vehicle')));
      const next = await rt.pick(defs, { maxTools: 10 });
      assert.ok(found.found.every((n) => next.tools.some((t) => t.name === n)), 'found tools are offered in the next round');
    });
  });

  describe('the agent loop with a role of 400 tools', () => {
    const env = useTestEnv();
    let servers: InMemoryServers;

    const start = async (partial: Partial<HostSettings> = {}, confirmer = new RecordingConfirmer()) => {
      servers = new InMemoryServers(Object.fromEntries(SERVERS.map((s, i) => [s, manyToolsServer(s, i)])));
      const host = await env.started({
        settings: settings({ servers: SERVERS.map((s) => servers.settings(s)), autoApprove: ['*/*'], ...partial }),
        confirmer,
        ...memoryHostOptions(servers),
      });
      return host;
    };

    it('sends at most 128 tools by default, the relevant ones included, and reaches any tool through search_tools', async () => {
      const host = await start();
      assert.equal(host.snapshot().exposed.length, 400);
      // devops's last tool; nothing in the prompt points at it.
      const target = 'devops__assign_recipe';
      const model = new ScriptedModel([
        (tools) => {
          assert.ok(tools.some((t) => t.name === 'billing__refund_payment'), 'the request names this one');
          assert.ok(!tools.some((t) => t.name === target));
          return [call(SEARCH_TOOL_NAME, { query: 'assign recipe owner' })];
        },
        (tools, messages) => {
          assert.match(lastResultText(messages), new RegExp(`- ${target}: Assigns an owner to a recipe`));
          assert.ok(tools.some((t) => t.name === target), 'offered from the next round on');
          return [call(target, { id: 't-1' }), call('billing__refund_payment', { id: 'p-9' })];
        },
      ]);
      const loop = new AgentLoop(model, host, sink(), 5);
      const result = await loop.run([{ role: 'user', text: 'Please refund payment p-9.' }], new AbortController().signal);
      assert.equal(result.stopReason, 'done');
      for (const r of model.requests) {
        assert.ok(r.tools.length <= 128, `${r.tools.length} tools`);
        assert.equal(r.tools.at(-1)?.name, SEARCH_TOOL_NAME);
      }
      assert.equal(model.requests[0].tools.length, 128);
      assert.deepEqual(servers.calls('devops'), ['assign_recipe'], 'routed like any other call');
      assert.deepEqual(servers.calls('billing'), ['refund_payment']);
      assert.deepEqual(
        result.rounds[1].results.map((r) => r.outcome),
        ['ok', 'ok'],
      );
    });

    it('a token budget: the definitions sent stay within maxToolTokens (counted with the model\'s tokenizer)', async () => {
      const host = await start({ roles: [role('tight', { maxTools: 400, maxToolTokens: 3000 })], activeRole: 'tight' });
      const all = toModelTools(host.snapshot().exposed);
      const full = all.reduce((n, d) => n + O200K_COUNTER.count(definitionText(d)), 0);
      assert.ok(full > 3000 * 5, `the role's definitions cost ${full} tokens`);
      const model = new ScriptedModel([() => [call(SEARCH_TOOL_NAME, { query: 'printer' })], () => []], O200K_COUNTER);
      await new AgentLoop(model, host, sink(), 5).run([{ role: 'user', text: 'export the budget report' }], new AbortController().signal);
      for (const r of model.requests) {
        const sent = r.tools.reduce((n, d) => n + O200K_COUNTER.count(definitionText(d)), 0);
        assert.ok(sent <= 3000, `${sent} tokens sent`);
        assert.ok(r.tools.some((t) => t.name.endsWith('__export_report')));
      }
      assert.ok(model.requests[1].tools.some((t) => t.name.endsWith('__get_printer')), 'found by search');
    });

    it('within budget nothing changes: every tool, no search_tools', async () => {
      const host = await start({ roles: [role('crm', { servers: ['crm'] })], activeRole: 'crm' });
      const model = new ScriptedModel([(tools) => (assert.equal(tools.length, 100), [])]);
      await new AgentLoop(model, host, sink(), 5).run([{ role: 'user', text: 'hi' }], new AbortController().signal);
      assert.ok(!model.requests[0].tools.some((t) => t.name === SEARCH_TOOL_NAME));
    });

    it('search never reveals tools outside the role; calls of found tools still go through rules and confirmation', async () => {
      const confirmer = new RecordingConfirmer(() => 'deny');
      const host = await start(
        {
          roles: [role('ops', { exclude: ['billing/refund_*'], maxTools: 20 })],
          activeRole: 'ops',
          rules: [{ tools: ['support/delete_*'], when: "args.id.startsWith('vip-')", action: 'confirm', reason: 'VIP records', setting: 'mcpHost.rules[0]' }],
        },
        confirmer,
      );
      const model = new ScriptedModel([
        () => [call(SEARCH_TOOL_NAME, { query: 'refund', limit: 25 })],
        (_tools, messages) => {
          const text = lastResultText(messages);
          assert.ok(!text.includes('billing__refund'), text);
          assert.ok(text.includes('devops__refund_'));
          return [call('billing__refund_payment', { id: 'x' }), call('support__delete_incident', { id: 'vip-1' })];
        },
      ]);
      const result = await new AgentLoop(model, host, sink(), 5).run([{ role: 'user', text: 'clean up' }], new AbortController().signal);
      assert.deepEqual(
        result.rounds[1].results.map((r) => r.outcome),
        ['notFound', 'denied'],
      );
      assert.deepEqual(confirmer.requests.map((r) => r.rule?.setting), ['mcpHost.rules[0]']);
      assert.deepEqual(servers.calls('billing'), []);
      assert.deepEqual(servers.calls('support'), []);
    });

    it('a server tool already named search_tools keeps its name; the host tool takes another', async () => {
      const rt = new RoundTools({ query: '' });
      const defs = [{ name: SEARCH_TOOL_NAME, description: 'a server tool', inputSchema: {} }, ...toModelTools((await start()).snapshot().exposed)];
      const pick = await rt.pick(defs, { maxTools: 10 });
      assert.equal(pick.tools.at(-1)?.name, 'search_tools_2');
      assert.equal(rt.handles('search_tools_2'), true);
      assert.equal(rt.handles(SEARCH_TOOL_NAME), false);
    });
  });
});
