/**
 * The CLI and MCP Apps (issue 28, item 4): `check` and a session's tool listing mark the tools that
 * have a view and list the app-only ones apart (never as tools of the role's model); `call` tells
 * the person that a result has a view the editor can show. Against the published server-pdf and
 * server-system-monitor over stdio, and the apps fixture.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeEnv } from '../../fixtures/fixtureServers';
import { CliSession, describeRun, fixtureServer, makeWorkspace, parseJson, REPO_ROOT, runCli, tempDir, trackSessions, type Json } from './cliHarness';

const PDF_APP_ONLY = ['poll_pdf_commands', 'read_pdf_bytes', 'save_pdf', 'submit_page_data', 'submit_save_data', 'submit_viewer_state'];

function exampleServer(pkg: string, ...args: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js'), '--stdio', ...args], env: nodeEnv() };
}

describe('mcp-host and MCP Apps', function () {
  this.timeout(60_000);
  const sessions = trackSessions();

  /** `apps`: add the apps fixture (its malformed tools make `check` fail on purpose). */
  const workspace = (apps = false) => {
    const pdf = path.join(tempDir(), 'empty.pdf');
    fs.writeFileSync(pdf, '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    return makeWorkspace({
      'mcpHost.servers': { pdf: exampleServer('server-pdf', pdf), monitor: exampleServer('server-system-monitor'), ...(apps ? { apps: fixtureServer('apps') } : {}) },
      ...(apps ? { 'mcpHost.autoApprove': ['apps/*'] } : {}),
    });
  };

  it('check marks the tools with a view and lists the app-only tools apart from the role\'s', async () => {
    const ws = workspace();
    const r = await runCli(['check', '--workspace', ws]);
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^TOOL\s+SERVER\s+CONFIRM\s+APP\s+DESCRIPTION$/m);
    assert.match(r.stdout, /^pdf__display_pdf\s+pdf\s+ask\s+view\s+/m);
    assert.match(r.stdout, /^pdf__list_pdfs\s+pdf\s+ask\s+-\s+/m);
    assert.match(r.stdout, /^App-only \(only a view of their own server may call them; never offered to a model\):$/m);
    assert.match(r.stdout, /^save_pdf\s+pdf\s+/m);
    assert.match(r.stdout, /^poll-system-stats\s+monitor\s+/m);
    assert.doesNotMatch(r.stdout, /^pdf__save_pdf/m, 'not a tool of the role');
    assert.match(r.stdout, /^pdf\s+connected\s+3\/9\s+/m);
    assert.match(r.stdout, /^OK: 2 of 2 started servers connected, 4 tools for the role \(and 7 app-only\), no problems\.$/m, describeRun(r));

    const doc = parseJson(await runCli(['check', '--workspace', ws, '--json']));
    assert.deepEqual(doc.appOnly.map((t: Json) => `${t.server}/${t.tool}`).sort(), [...PDF_APP_ONLY.map((t) => `pdf/${t}`), 'monitor/poll-system-stats'].sort());
    const tools = doc.tools.map((t: Json) => t.tool);
    for (const t of PDF_APP_ONLY) assert.ok(!tools.includes(t), `${t} is not a tool of the role`);
    assert.equal(doc.tools.find((t: Json) => t.tool === 'display_pdf').view, 'ui://pdf-viewer/mcp-app.html');
    assert.equal(doc.tools.find((t: Json) => t.tool === 'list_pdfs').view, undefined);
  });

  it("a session lists no app-only tool, marks those with a view, and answers a call of one as an unknown tool", async () => {
    const s = new CliSession(['--workspace', workspace(true)]);
    sessions.push(s);
    s.send({ id: 1, op: 'tools', all: true });
    const listed = (await s.answer(1)).tools;
    const names = listed.map((t: Json) => `${t.server}/${t.tool}`);
    for (const t of PDF_APP_ONLY) assert.ok(!names.includes(`pdf/${t}`), t);
    assert.ok(!names.includes('monitor/poll-system-stats'));
    assert.equal(listed.find((t: Json) => t.tool === 'get-system-info').view, 'ui://system-monitor/mcp-app.html');
    s.send({ id: 2, op: 'call', name: 'pdf__save_pdf', args: {} });
    const hidden = await s.answer(2);
    s.send({ id: 3, op: 'call', name: 'pdf__no_such_tool', args: {} });
    const unknown = await s.answer(3);
    assert.deepEqual([hidden.outcome, hidden.server], ['notFound', null]);
    assert.equal(hidden.modelText, unknown.modelText.replace('pdf__no_such_tool', 'pdf__save_pdf'));
    s.send({ id: 4, op: 'call', name: 'apps__show', args: {} });
    const shown = await s.answer(4);
    assert.deepEqual([shown.outcome, shown.view], ['ok', 'ui://apps/view.html']);
    s.end();
    await s.exited;
  });

  it('call says in words that the result has a view; an app-only tool is refused with why', async () => {
    const ws = makeWorkspace({ 'mcpHost.servers': { apps: fixtureServer('apps') }, 'mcpHost.autoApprove': ['apps/*'] });
    const shown = await runCli(['call', 'apps__show', '--workspace', ws]);
    assert.equal(shown.code, 0, describeRun(shown));
    assert.equal(shown.stdout, 'show done\n');
    assert.match(shown.stderr, /^mcp-host: this result has a view \(an MCP App, ui:\/\/apps\/view.html\) that the MCP Host extension shows in VS Code; here you see only its text\.$/m);
    const json = parseJson(await runCli(['call', 'apps__legacy', '--workspace', ws, '--json']));
    assert.equal(json.view, 'ui://apps/blob.html');
    const plain = await runCli(['call', 'apps__model_only', '--workspace', ws]);
    assert.doesNotMatch(plain.stderr, /has a view/);
    const appOnly = await runCli(['call', 'apps__refresh', '--workspace', ws]);
    assert.equal(appOnly.code, 1, describeRun(appOnly));
    assert.match(appOnly.stderr, /tool "apps__refresh" of server "apps" is app-only: only a view \(MCP App\) of its server may call it/);
  });
});
