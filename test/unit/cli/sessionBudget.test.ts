/**
 * `mcp-host session` driven by a model: the role's tools within its budget plus search_tools, as
 * `@mcp` offers them (RoundTools), against a real server of 400 tools.
 */
import * as assert from 'node:assert/strict';
import { CliSession, fixtureServer, makeWorkspace, type Json, trackSessions } from './cliHarness';

describe('mcp-host session: the tool budget', function () {
  // One session, one server of 400 tools: a bound for a busy machine, not a speed claim.
  this.timeout(120_000);
  const sessions = trackSessions();

  it('a role of 400 tools with maxTools 20 is offered 19 of them + search_tools; search_tools finds one outside them, offered and callable from then on', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': { many: fixtureServer('many-tools', { FIXTURE_TOOL_COUNT: '400' }) },
      'mcpHost.roles': { lean: { servers: ['many'], maxTools: 20 } },
      'mcpHost.activeRole': 'lean',
      'mcpHost.autoApprove': ['many/*'],
    });
    const s = new CliSession(['--workspace', ws]);
    sessions.push(s);
    const names = (answer: Json): string[] => answer.tools.map((t: Json) => t.name);

    s.send({ id: 1, op: 'tools', query: 'refund the invoice' });
    const offer = await s.answer(1, 60_000);
    assert.equal(offer.tools.length, 20, JSON.stringify(names(offer)));
    assert.deepEqual(offer.budget, { available: 400, offered: 19 });
    const search = offer.tools.at(-1);
    assert.deepEqual([search.name, search.server, search.tool, search.host], ['search_tools', null, null, true]);
    assert.match(search.description, /This request offers 19 of the 400 tools you may use/);
    assert.deepEqual(search.inputSchema.required, ['query']);
    assert.ok(names(offer).includes('many__refund_invoice'), 'ranked by the query');
    const server = offer.tools.find((t: Json) => t.name === 'many__refund_invoice');
    assert.deepEqual([server.server, server.tool, server.confirm], ['many', 'refund_invoice', 'auto']);
    assert.ok(!names(offer).includes('many__archive_recipe'));

    s.send({ id: 2, op: 'call', name: 'search_tools', args: { query: 'archive a recipe', limit: 3 } });
    const found = await s.answer(2);
    assert.equal(found.outcome, 'ok', JSON.stringify(found));
    assert.equal(found.found[0], 'many__archive_recipe');
    assert.match(found.modelText, /^3 tools matching "archive a recipe"; they are available from your next step on, call them by name:\n- many__archive_recipe: Moves to the archive a recipe record/);
    assert.deepEqual(found.content, [{ type: 'text', text: found.modelText }]);

    s.send({ id: 3, op: 'tools' });
    const next = await s.answer(3);
    assert.equal(next.tools.length, 20);
    assert.ok(names(next).includes('many__archive_recipe'), 'what search_tools found is offered next');
    assert.ok(names(next).includes('many__refund_invoice'), 'still ranked by the last query');

    s.send({ id: 4, op: 'call', name: 'many__archive_recipe', args: { id: 'r1' } });
    const called = await s.answer(4);
    assert.equal(called.outcome, 'ok', JSON.stringify(called));
    assert.equal(called.modelText, 'archive_recipe done for r1');

    s.send({ id: 5, op: 'tools', all: true });
    const all = await s.answer(5);
    assert.equal(all.tools.length, 400);
    assert.ok(!names(all).includes('search_tools'));
    assert.equal(all.budget, undefined);
    const order = names(offer).slice(0, -1).map((n) => names(all).indexOf(n));
    assert.deepEqual(order, [...order].sort((a, b) => a - b), 'the offer keeps the role\'s order');

    s.send({ id: 6, op: 'tools', query: 7 });
    assert.equal((await s.answer(6)).error, '"query" must be a string (what the model is asked to do), got number 7');
    s.end();
    assert.equal((await s.exited).code, 0);
  });
});
