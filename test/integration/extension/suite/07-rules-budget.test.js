'use strict';
// Issue 15 in a real VS Code: argument rules (role "writer": server-filesystem, writes outside the
// workspace ask) and the tool budget (role "budget": 400 tools from four many-tools fixtures).
// Modal dialogs are refused in this mode, so "asks" shows as a denial that names the rule.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const h = require('../helpers');

async function useRole(name, servers) {
  await vscode.workspace.getConfiguration('mcpHost').update('activeRole', name, vscode.ConfigurationTarget.Workspace);
  const { host } = await h.hostApi();
  await h.waitFor(`role ${name} with ${servers.join(', ')} connected`, () => {
    const s = host.snapshot();
    return s.role === name && servers.every((n) => s.server(n) && s.server(n).connected) ? s : undefined;
  }, { timeout: 40000, describe: () => JSON.stringify(host.snapshot().servers.map((s) => [s.name, s.state.kind])) });
  return host;
}

describe('argument rules and the tool budget', () => {
  after(async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('activeRole', 'full', vscode.ConfigurationTarget.Workspace);
  });

  it('one call of write_file runs (inside the workspace), another asks because of its path; the refusal names the rule', async () => {
    await useRole('writer', ['files']);
    const ws = h.workspaceFolder();
    const inside = path.join(ws, 'inside-rule.txt');
    const outside = path.join(ws, '..', 'outside-rule.txt');
    const run = await h.chatRun({
      query: '@mcp write two files',
      turns: [
        { toolCalls: [{ name: 'files__write_file', input: { path: inside, content: 'in' }, callId: 'w-in' }] },
        { toolCalls: [{ name: 'files__write_file', input: { path: `${ws}/../outside-rule.txt`, content: 'out' }, callId: 'w-out' }] },
        { text: 'One written, one refused.' },
      ],
      audit: 2,
    });
    const recs = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual(recs.map((r) => [r.tool, r.outcome, r.confirmedBy]), [['write_file', 'ok', 'policy'], ['write_file', 'denied', null]]);
    assert.strictEqual(recs[0].rule, undefined);
    assert.deepStrictEqual(recs[1].rule, { setting: 'mcpHost.roles.writer.rules[0]', action: 'confirm', reason: 'writes outside the workspace' });
    assert.strictEqual(fs.readFileSync(inside, 'utf8'), 'in');
    assert.strictEqual(fs.existsSync(outside), false, 'the server was never asked to write outside');
    const refused = h.toolResults(run.model[2]).find((r) => r.callId === 'w-out');
    assert.match(refused.text, /denied the call to tool "files__write_file" \(asked because of rule mcpHost\.roles\.writer\.rules\[0\]: writes outside the workspace\)/);
  });

  it('a deny rule whose condition cannot be evaluated denies: nobody is asked, the server is not called (issue 25)', async () => {
    await useRole('writer', ['files']);
    const ws = h.workspaceFolder();
    const run = await h.chatRun({
      query: '@mcp make a folder',
      turns: [
        { toolCalls: [{ name: 'files__create_directory', input: { path: '%2e%2e/escaped-dir' }, callId: 'd-1' }] },
        { text: 'Refused.' },
      ],
      audit: 1,
    });
    const recs = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual(recs.map((r) => [r.tool, r.outcome, r.confirmedBy]), [['create_directory', 'denied', null]]);
    assert.deepStrictEqual([recs[0].rule.setting, recs[0].rule.action, recs[0].rule.reason], ['mcpHost.roles.writer.rules[1]', 'deny', 'folders outside the workspace']);
    assert.match(recs[0].rule.error, /inside .* under one reading and outside under another/);
    for (const p of [path.join(ws, '..', 'escaped-dir'), path.join(ws, '%2e%2e')]) assert.strictEqual(fs.existsSync(p), false, p);
    const refused = h.toolResults(run.model[1]).find((r) => r.callId === 'd-1');
    assert.match(refused.text, /refused by the host's policy \(rule mcpHost\.roles\.writer\.rules\[1\]: folders outside the workspace — /);
  });

  it('a role of 400 tools: requests carry at most 128 definitions, and the model reaches any tool through search_tools', async () => {
    const host = await useRole('budget', ['crm', 'billing', 'support', 'devops']);
    assert.strictEqual(host.snapshot().exposed.length, 400);
    const run = await h.chatRun({
      query: '@mcp refund payment p-9',
      turns: [
        { toolCalls: [{ name: 'search_tools', input: { query: 'assign recipe owner', limit: 3 }, callId: 's-1' }] },
        { toolCalls: [{ name: 'devops__assign_recipe', input: { id: 'r-1' }, callId: 'a-1' }] },
        { text: 'Assigned.' },
      ],
      audit: 1,
    });
    assert.strictEqual(run.model.length, 3);
    for (const req of run.model) {
      assert.ok(req.toolNames.length <= 128, `${req.toolNames.length} tools sent`);
      assert.ok(req.toolNames.includes('search_tools'));
    }
    assert.strictEqual(run.model[0].toolNames.length, 128);
    assert.ok(run.model[0].toolNames.includes('billing__refund_payment'), 'ranked by the request');
    assert.ok(!run.model[0].toolNames.includes('devops__assign_recipe'));
    const found = h.toolResults(run.model[1]).find((r) => r.callId === 's-1');
    assert.match(found.text, /- devops__assign_recipe: Assigns an owner to a recipe/);
    assert.ok(run.model[1].toolNames.includes('devops__assign_recipe'), 'offered from the next round on');
    const calls = run.fixture.filter((l) => l.event === 'call');
    assert.deepStrictEqual(calls.map((c) => [c.tool, c.args]), [['assign_recipe', { id: 'r-1' }]]);
    const recs = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual(recs.map((r) => [r.name, r.outcome, r.role]), [['devops__assign_recipe', 'ok', 'budget']]);
  });
});
