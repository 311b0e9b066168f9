'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const h = require('../helpers');

const SUPPORT_TOOLS = ['basic__add', 'basic__echo'];
const settingsFile = () => path.join(h.workspaceFolder(), '.vscode', 'settings.json');
const activeRole = async () => (await h.hostApi()).host.snapshot().role;

describe('roles', () => {
  it('"/role support" switches the role for this person only: .vscode/settings.json is left as it was; the model is offered only that role\'s tools', async () => {
    const before = fs.readFileSync(settingsFile(), 'utf8');
    const m = h.mark();
    await h.sendChat('@mcp /role support');
    await h.waitFor('the host\'s role = support', async () => (await activeRole()) === 'support');
    // The choice is kept in the workspace state: the team's default stays, byte for byte.
    assert.strictEqual(fs.readFileSync(settingsFile(), 'utf8'), before);
    assert.strictEqual(vscode.workspace.getConfiguration('mcpHost').get('activeRole'), 'full');
    // The role uses only "basic": the other servers are stopped.
    await h.waitFor('slow, dynamic, paged and notools to exit', () => {
      const exits = m.since().fixture.filter((l) => l.event === 'exit');
      return exits.length >= 4;
    }, { describe: () => JSON.stringify(m.since().fixture) });
    await h.sleep(500);
    const run = await h.chatRun({ query: '@mcp what can you do?', turns: [{ text: 'Only lookups.' }] });
    assert.deepStrictEqual([...run.model[0].toolNames].sort(), SUPPORT_TOOLS);
    // The preamble names the role.
    assert.match(JSON.stringify(run.model[0].messages[0]), /role \\"support\\"/);
  });

  it('holds the role at call time: a tool outside the role is "not available" even if the model names it', async () => {
    const run = await h.chatRun({
      query: '@mcp try tools outside the role',
      turns: [{ toolCalls: [{ name: 'basic__fail', input: {} }, { name: 'slow__quick', input: {} }] }, { text: 'Not allowed.' }],
      audit: 2,
    });
    assert.deepStrictEqual(run.fixture.filter((l) => l.event === 'call'), []);
    const recs = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual(recs.map((r) => [r.outcome, r.role]), [['notFound', 'support'], ['notFound', 'support']]);
    for (const r of h.toolResults(run.model[1])) assert.match(r.text, /is not available/);
  });

  it('"Use the Team\'s Default Role" switches back to mcpHost.activeRole: every tool is offered again', async () => {
    const before = fs.readFileSync(settingsFile(), 'utf8');
    await vscode.commands.executeCommand('mcpHost.useTeamDefaultRole');
    await h.waitFor('the host\'s role = full', async () => (await activeRole()) === 'full');
    assert.strictEqual(fs.readFileSync(settingsFile(), 'utf8'), before);
    const run = await h.chatRun({ query: '@mcp and now?', turns: [{ text: 'Everything again.' }] });
    const names = run.model[0].toolNames;
    for (const n of ['basic__noop', 'slow__sleep', 'dynamic__control', 'everything__echo']) assert.ok(names.includes(n), `${n} not offered: ${names.join(', ')}`);
  });

  it('a change of mcpHost.activeRole (the team\'s default) takes over from the person\'s earlier choice', async () => {
    await h.sendChat('@mcp /role support');
    await h.waitFor('the host\'s role = support', async () => (await activeRole()) === 'support');
    const config = vscode.workspace.getConfiguration('mcpHost');
    await config.update('activeRole', 'reader', vscode.ConfigurationTarget.Workspace);
    await h.waitFor('the host\'s role = reader', async () => (await activeRole()) === 'reader');
    await config.update('activeRole', 'full', vscode.ConfigurationTarget.Workspace);
    await h.waitFor('the host\'s role = full', async () => (await activeRole()) === 'full');
    // The switches stop and start servers: leave the later suites a settled host, as they expect.
    await h.waitFor('no server of the role still starting', async () => {
      const snapshot = (await h.hostApi()).host.snapshot();
      return snapshot.server('basic').state.kind === 'connected' && snapshot.servers.every((x) => !x.settling);
    });
  });
});
