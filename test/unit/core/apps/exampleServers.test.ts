/**
 * MCP Apps (issue 28, the core half) against the published example servers, run over stdio from
 * node_modules (server-pdf on a PDF file made here; no internet): app-only tools are never offered
 * to a model and a model's call to one is an unknown tool; views are fetched through the audited
 * resource path; a view calls only its own server's app tools, through the same confirmation and
 * audit as the model, with the app recorded as the actor.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { CallActor } from '../../../../src/core/audit/callActor';
import { readToolUi } from '../../../../src/core/apps/toolUi';
import { referenceServer, RecordingConfirmer, role, settings, useSharedTestEnv, type Any } from '../helpers';

/** The smallest PDF pdf.js opens: one empty page. */
function writePdf(file: string): void {
  const objects = ['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[3 0 R]/Count 1>>', '<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  fs.writeFileSync(file, body);
}

const PDF_APP_ONLY = ['poll_pdf_commands', 'read_pdf_bytes', 'save_pdf', 'submit_page_data', 'submit_save_data', 'submit_viewer_state'];

describe('MCP Apps with the published example servers', function () {
  this.timeout(60_000);
  const env = useSharedTestEnv();
  const audit = new MemorySink();
  const confirmer = new RecordingConfirmer();
  let host: Any;

  before(async () => {
    const pdf = env.file('sample.pdf');
    writePdf(pdf);
    host = await env.started({
      settings: settings({
        servers: [
          referenceServer('pdf', 'server-pdf', ['--stdio', pdf]),
          referenceServer('monitor', 'server-system-monitor', ['--stdio']),
          referenceServer('basic', 'server-basic-vanillajs', ['--stdio']),
        ],
        autoApprove: ['monitor/get-system-info'],
      }),
      auditSinks: [audit],
      confirmer,
    });
    for (const s of ['pdf', 'monitor', 'basic']) assert.equal(host.snapshot().server(s)?.connected, true, `${s}: ${host.snapshot().server(s)?.description}`);
  });

  it("offers no app-only tool to the model (6 of server-pdf's, 1 of server-system-monitor's) and marks them in the snapshot", () => {
    const s = host.snapshot();
    const offered = s.exposed.map((t: Any) => `${t.entry.server}/${t.entry.tool.name}`);
    assert.deepEqual(offered.filter((n: string) => n.startsWith('pdf/')).sort(), ['pdf/display_pdf', 'pdf/interact', 'pdf/list_pdfs']);
    assert.deepEqual(offered.filter((n: string) => n.startsWith('monitor/')), ['monitor/get-system-info']);
    assert.deepEqual(offered.filter((n: string) => n.startsWith('basic/')), ['basic/get-time']);
    const appOnly = (server: string) => s.tools(server).filter((t: Any) => t.appOnly).map((t: Any) => t.tool.name).sort();
    assert.deepEqual(appOnly('pdf'), PDF_APP_ONLY);
    assert.deepEqual(appOnly('monitor'), ['poll-system-stats']);
    assert.equal(s.server('pdf').toolCount, 9);
    assert.equal(s.server('pdf').visibleToolCount, 3);
    assert.equal(s.tool('pdf', 'display_pdf').ui.resourceUri, 'ui://pdf-viewer/mcp-app.html');
    assert.equal(s.tool('pdf', 'read_pdf_bytes').ui, undefined, 'an app-only tool without a view of its own');
  });

  it('answers a model call to an app-only tool exactly like an unknown tool, and audits it', async () => {
    const name = host.appToolName('pdf', 'save_pdf');
    assert.ok(name);
    const hidden = await host.call({ name, args: { url: 'x' } });
    const unknown = await host.call({ name: 'no_such_tool', args: {} });
    assert.equal(hidden.outcome, 'notFound');
    assert.equal(hidden.modelText, unknown.modelText.replace('no_such_tool', name));
    assert.equal(hidden.server, undefined, 'the answer does not say whose tool it is');
    const gateway = await host.call({ name: host.appToolName('monitor', 'poll-system-stats'), args: {}, actor: { kind: 'upstream', client: 'claude-code', transport: 'stdio' } });
    assert.equal(gateway.outcome, 'notFound');
    const recs = audit.records.filter((r: Any) => r.kind === 'call' && r.name === name);
    assert.deepEqual(recs.map((r: Any) => r.outcome), ['notFound']);
  });

  it('fetches each view as HTML through the audited resource path, with what its resource declares', async () => {
    const pdfUi = readToolUi(host.snapshot().tool('pdf', 'display_pdf').tool)!;
    const view = await host.readAppView('pdf', pdfUi.resourceUri, { tool: 'display_pdf' });
    assert.match(view.html, /<html/i);
    assert.deepEqual(view.meta, { csp: { connectDomains: ['https://unpkg.com'], resourceDomains: ['https://unpkg.com'] }, permissions: { clipboardWrite: true } });
    for (const [server, tool] of [['monitor', 'get-system-info'], ['basic', 'get-time']]) {
      const uri = host.snapshot().tool(server, tool).ui.resourceUri;
      const v = await host.readAppView(server, uri);
      assert.match(v.html, /<html/i, `${server}'s view is HTML`);
      assert.deepEqual(v.meta, {});
    }
    const rec = audit.records.find((r: Any) => r.kind === 'resource' && r.uri === 'ui://pdf-viewer/mcp-app.html') as Any;
    assert.deepEqual([rec.purpose, rec.outcome, rec.actor], ['app', 'ok', { kind: 'app', server: 'pdf', view: 'ui://pdf-viewer/mcp-app.html', tool: 'display_pdf' }]);
  });

  it("lets a view call its own server's app-only tool, asking first as for the model and auditing the app as actor", async () => {
    const actor: CallActor = { kind: 'app', server: 'monitor', view: 'ui://system-monitor/mcp-app.html', tool: 'get-system-info' };
    const asked = confirmer.requests.length;
    const r = await host.call({ name: host.appToolName('monitor', 'poll-system-stats'), args: {}, actor });
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(confirmer.requests.length, asked + 1, 'the host asked');
    assert.deepEqual(confirmer.requests.at(-1)!.actor, actor);
    const rec = audit.records.filter((x: Any) => x.kind === 'call' && x.tool === 'poll-system-stats').at(-1) as Any;
    assert.deepEqual([rec.outcome, rec.confirmedBy, rec.actor], ['ok', 'user', actor]);
  });

  it("refuses a view's call to another server's tool and audits the refusal; the other server is not called", async () => {
    const actor: CallActor = { kind: 'app', server: 'basic', view: 'ui://get-time/mcp-app.html' };
    const asked = confirmer.requests.length;
    const r = await host.call({ name: host.appToolName('pdf', 'list_pdfs'), args: {}, actor });
    assert.equal(r.outcome, 'denied');
    assert.match(r.modelText, /a view may call only its own server's tools/);
    assert.equal(confirmer.requests.length, asked, 'nobody was asked');
    const rec = audit.records.filter((x: Any) => x.kind === 'call' && x.tool === 'list_pdfs').at(-1) as Any;
    assert.deepEqual([rec.outcome, rec.server, rec.actor], ['denied', 'pdf', actor]);
  });

  it("refuses a view's read of another server's resource", async () => {
    const r = await host.catalog.readResource({ server: 'pdf', uri: 'ui://pdf-viewer/mcp-app.html', purpose: 'app', actor: { kind: 'app', server: 'basic', view: 'ui://get-time/mcp-app.html' } });
    assert.equal(r.outcome, 'notAllowed');
    assert.match(r.text, /a view may read only its own server's resources/);
  });

  it('a view cannot widen its role: a tool outside the role is unknown to it too', async () => {
    await host.applySettings({ ...host.settings, roles: [role('monitor-only', { tools: ['monitor/get-system-info'] })], activeRole: 'monitor-only' });
    try {
      const actor: CallActor = { kind: 'app', server: 'monitor', view: 'ui://system-monitor/mcp-app.html' };
      const r = await host.call({ name: host.appToolName('monitor', 'poll-system-stats'), args: {}, actor });
      assert.equal(r.outcome, 'notFound');
      const v = await host.readAppView('monitor', 'ui://system-monitor/mcp-app.html').then(() => 'read', (e: Error) => e.message);
      assert.match(v, /cannot show view ui:\/\/system-monitor\/mcp-app.html of server "monitor": notAllowed/);
    } finally {
      await host.applySettings({ ...host.settings, roles: [], activeRole: undefined });
    }
  });
});
