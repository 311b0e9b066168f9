#!/usr/bin/env node
'use strict';
/*
 * MCP Apps suite: Playwright drives a real VS Code workbench (code-server, WITHOUT the smoke-test
 * driver, so the host's modal dialogs show as a person meets them). MCP Host (dist/extension.js) and
 * the scripted model are installed; the workspace is a fresh copy of ./workspace with the fixture
 * app server (test/fixtures/servers/probe-view.mjs) and the published example servers basic-vanillajs,
 * system-monitor and pdf (pinned devDependencies), all in role "apps". Two HTTP servers on
 * 127.0.0.1 stand for a domain the fixture's view declares and one it does not. The lockfile is
 * written by `mcp-host lock` before the workbench opens; each server asks for consent at its first start.
 *
 *   node test/integration/apps/run.js [--screenshots DIR] [--artifacts DIR] [--headed] [--keep-tmp] [--verbose]
 *
 * Writes app-basic.png, app-system-monitor.png, app-pdf.png and app-probe.png to --screenshots
 * (docs/screenshots by default). Last line: "N passed, N failed"; exit code 0 only when every test passed.
 */
const assert = require('assert');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { cleanupAll } = require('../runner/cleanup');
const { openWorkbench } = require('../runner/workbench');
const { prepareWorkspace, REPO, SCRIPTED_MODEL } = require('../extension/run');
const ui = require('../ui/lib');

/** A one-page PDF with one line of text (Helvetica), its cross-reference offsets computed. */
function pdf(text) {
  const stream = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objs.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('')}`;
  return `${out}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

/** An HTTP server on 127.0.0.1 that answers every path (CORS open, a 1×1 PNG for *.png) and remembers the paths. */
async function origin() {
  const hits = [];
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  const server = http.createServer((req, res) => {
    hits.push(req.url);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.url.endsWith('.png')) res.end(png);
    else res.end('pong');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, hits, close: () => new Promise((r) => server.close(r)) };
}

async function main() {
  const o = ui.parseSuiteOptions(process.argv.slice(2));
  const t0 = Date.now();
  if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  const declared = await origin();
  const undeclared = await origin();
  const ws = prepareWorkspace(path.join(__dirname, 'workspace'));
  fs.writeFileSync(path.join(ws.workspace, 'pdfs', 'hello.pdf'), pdf('Hello from MCP Host'));
  const env = { APP_DECLARED_ORIGIN: declared.url, APP_UNDECLARED_ORIGIN: undeclared.url };
  ui.lockWorkspace(ws, env);
  const f = ui.suiteFiles(ws);
  const wb = await openWorkbench({
    folder: ws.workspace,
    extensions: [REPO, SCRIPTED_MODEL],
    env: { MCP_HOST_TEST_REPO: REPO, MCP_HOST_TEST_FIXTURE_LOG: f.fixtureLog, MCP_HOST_TEST_MODEL_SCRIPT: f.modelScript, MCP_HOST_TEST_MODEL_LOG: f.modelLog, ...env },
    headless: !o.headed,
    keepTmp: o.keepTmp,
  });
  const { page } = wb;
  if (o.verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
  process.stderr.write(`[apps] workbench open (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);

  const { mark, callRecord, toolResultIn, warmUp } = ui.logMarks(f);
  const shot = async (name) => ui.screenshot(page, path.join(o.screenshots, name));
  /** The app's document inside the newest webview (VS Code's two frames, then the relay's sandboxed iframe). */
  const appFrame = () => page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame').frameLocator('iframe.app');
  const closeEditors = async () => {
    // Keys typed while a view has the focus go to the view: give it back to the workbench first.
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await ui.runCommand(page, 'View: Close All Editors');
    await page.locator('iframe.webview.ready').first().waitFor({ state: 'detached', timeout: 15000 }).catch(() => undefined);
  };
  /** Asks @mcp, the scripted model calls `tool`, then the answer's "Open the app view" button is clicked. */
  const openFromChat = async (prompt, tool, input, answer) => {
    ui.setScript(f.modelScript, [{ toolCalls: [{ name: tool, input }] }, { text: answer }]);
    const since = mark();
    await ui.sendChat(page, `@mcp ${prompt}`);
    await ui.waitForResponse(page, answer, 60000);
    const button = page.locator('.interactive-response', { hasText: answer }).last().locator('.monaco-button', { hasText: /^Open the app view of / });
    await button.first().click();
    return since;
  };

  let artifacts = o.artifacts;
  const onFailure = async (name) => {
    artifacts = artifacts || fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-apps-artifacts-'));
    await ui.screenshot(page, path.join(artifacts, `${ui.slug(name)}.png`));
  };

  const tests = [
    {
      name: 'each server asks for consent at its first start; "Allow" starts them',
      fn: async () => {
        const asked = await ui.allowServers(page, ['app', 'basic', 'monitor', 'pdf']);
        assert.deepStrictEqual(Object.keys(asked).sort(), ['app', 'basic', 'monitor', 'pdf']);
      },
    },
    {
      name: '@mcp answers with the scripted model (warm-up); app-only tools are not offered to it',
      fn: async () => {
        const offered = (await warmUp(page)).toolNames;
        assert.ok(offered.includes('app__show_probe') && offered.includes('pdf__display_pdf'), JSON.stringify(offered));
        for (const appOnly of ['app__app_write', 'app__app_report', 'pdf__read_pdf_bytes', 'monitor__poll-system-stats']) assert.ok(!offered.includes(appOnly), `${appOnly} offered: ${JSON.stringify(offered)}`);
      },
    },
    {
      name: "the fixture's view: its declared origin answers, the undeclared one is blocked by the view's CSP; it gets the call's result and the editor's theme",
      fn: async () => {
        const since = await openFromChat('show the probe', 'app__show_probe', {}, 'The probe is shown.');
        const report = await ui.waitFor('the view to report its probes', () => since().fixture.find((e) => e.event === 'report'), { timeout: 60000 });
        const r = report.results;
        assert.match(r['fetch-declared'], /^ok pong$/, JSON.stringify(r));
        assert.match(r['fetch-undeclared'], /^blocked /, JSON.stringify(r));
        assert.equal(r['img-declared'], 'ok', JSON.stringify(r));
        assert.equal(r['img-undeclared'], 'blocked', JSON.stringify(r));
        assert.equal(r['tool-result'], 'probe ready', JSON.stringify(r));
        assert.match(r.theme, /^(dark|light)$/, JSON.stringify(r));
        assert.deepStrictEqual([...declared.hits].sort(), ['/fetch-declared', '/img-declared.png']);
        assert.deepStrictEqual(undeclared.hits, [], 'nothing reached the undeclared origin');
        // The view's own call went through the router, audited with the app as actor.
        const rec = await callRecord(since, 'app__app_report');
        assert.deepStrictEqual(rec.actor, { kind: 'app', server: 'app', view: 'ui://app/probe.html', tool: 'show_probe' });
        await appFrame().locator('#probe-img-declared').waitFor({ timeout: 10000 });
        await shot('app-probe.png');
      },
    },
    {
      name: "a view's call to a tool that needs confirmation shows the host's dialog; allowed, it runs and is audited with the app as actor",
      fn: async () => {
        const since = mark();
        await appFrame().locator('#write').click();
        const box = await ui.waitForDialog(page, 30000);
        const text = await box.innerText();
        assert.match(text, /app_write/);
        assert.match(text, /ui:\/\/app\/probe\.html/);
        await ui.clickDialogButton(page, 'Allow');
        await appFrame().locator('#out', { hasText: 'write: written: from the view' }).waitFor({ timeout: 30000 });
        const rec = await callRecord(since, 'app__app_write');
        assert.deepStrictEqual([rec.outcome, rec.confirmedBy], ['ok', 'user']);
        assert.deepStrictEqual(rec.actor, { kind: 'app', server: 'app', view: 'ui://app/probe.html', tool: 'show_probe' });
        assert.ok(since().fixture.some((e) => e.event === 'call' && e.tool === 'app_write'));
      },
    },
    {
      name: "a view's call to a tool outside the role is refused: the server never sees it, the audit has it",
      fn: async () => {
        const since = mark();
        await appFrame().locator('#secret').click();
        const out = appFrame().locator('#out', { hasText: /^secret: error / });
        await out.waitFor({ timeout: 30000 });
        assert.doesNotMatch(await out.innerText(), /the secret/);
        const rec = await callRecord(since, 'app__app_secret');
        assert.notEqual(rec.outcome, 'ok');
        assert.deepStrictEqual(rec.actor, { kind: 'app', server: 'app', view: 'ui://app/probe.html', tool: 'show_probe' });
        assert.ok(!since().fixture.some((e) => e.event === 'call' && e.tool === 'app_secret'));
        await closeEditors();
      },
    },
    {
      name: 'server-basic-vanillajs renders its view in an editor panel',
      fn: async () => {
        await openFromChat('what time is it on the server?', 'basic__get-time', {}, 'Here is the server time.');
        await appFrame().locator('body', { hasText: /\S/ }).waitFor({ timeout: 60000 });
        await appFrame().locator('button').first().waitFor({ timeout: 60000 });
        await shot('app-basic.png');
        await closeEditors();
      },
    },
    {
      name: 'server-system-monitor renders its view, polling its app-only tool through the host',
      fn: async () => {
        const since = await openFromChat('show the system monitor', 'monitor__get-system-info', {}, 'Here is the system monitor.');
        await ui.waitFor('a poll of the app-only tool', () => since().audit.find((r) => r.kind === 'call' && r.name === 'monitor__poll-system-stats' && r.outcome === 'ok'), { timeout: 60000 });
        await appFrame().locator('canvas, svg').first().waitFor({ timeout: 60000 });
        await shot('app-system-monitor.png');
        await closeEditors();
      },
    },
    {
      name: "server-pdf's viewer opens a local PDF, and its model-facing interact tool then works end to end",
      fn: async () => {
        const file = path.join(fs.realpathSync(ws.workspace), 'pdfs', 'hello.pdf');
        const since = await openFromChat('show hello.pdf', 'pdf__display_pdf', { url: file }, 'The PDF is open.');
        const shown = await ui.waitFor('the display_pdf result', () => toolResultIn(since, 1), { timeout: 30000 });
        const uuid = /viewUUID: ([0-9a-f-]{36})/.exec(shown);
        assert.ok(uuid, shown);
        // The viewer's resource asks for clipboardWrite: granted only after the person agrees, per server.
        const asked = await ui.waitForDialog(page, 30000);
        assert.match(await asked.innerText(), /The app view of MCP server "pdf" asks for: writing to the clipboard/);
        await ui.clickDialogButton(page, 'Grant');
        await ui.waitFor('the viewer to read the PDF through the host', () => since().audit.find((r) => r.kind === 'call' && r.name === 'pdf__read_pdf_bytes' && r.outcome === 'ok'), { timeout: 60000 });
        await appFrame().locator('canvas').first().waitFor({ timeout: 60000 });
        await shot('app-pdf.png');
        // The model asks the viewer for the page's text: the server relays it to the open viewer.
        ui.setScript(f.modelScript, [{ toolCalls: [{ name: 'pdf__interact', input: { viewUUID: uuid[1], action: 'get_text', page: 1 } }] }, { text: 'The page says hello.' }]);
        const question = mark();
        await ui.sendChat(page, '@mcp what does the page say?');
        await ui.waitForResponse(page, 'The page says hello.', 90000);
        const text = toolResultIn(question, 1);
        assert.match(text, /Hello from MCP Host/);
        const rec = await callRecord(question, 'pdf__submit_page_data');
        assert.equal(rec.actor.kind, 'app');
        // The viewer's context for the model reaches the next request, marked as the view's.
        ui.setScript(f.modelScript, [{ text: 'Noted.' }]);
        const next = mark();
        await ui.sendChat(page, '@mcp thanks');
        await ui.waitForResponse(page, 'Noted.');
        const texts = next().model[0].messages.flatMap((m) => m.parts || []).filter((p) => p.type === 'text').map((p) => p.text);
        assert.ok(texts.some((t) => /^Context from the app view ui:\/\/pdf-viewer\/mcp-app\.html of MCP server "pdf" \(sent by the view, not written by the user/.test(t)), JSON.stringify(texts).slice(0, 2000));
      },
    },
  ];

  let result;
  try {
    result = await ui.runTests('MCP Apps in the editor', tests, { onFailure });
  } finally {
    if (result && result.failed && artifacts) {
      for (const [k, p] of Object.entries(f)) if (fs.existsSync(p)) fs.copyFileSync(p, path.join(artifacts, `${k}${path.extname(p)}`));
      process.stderr.write(`[apps] failure artifacts: ${artifacts}\n`);
    }
    await wb.close();
    await declared.close();
    await undeclared.close();
    if (!o.keepTmp) ws.remove();
  }
  process.stderr.write(`[apps] ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exitCode = result.failed ? 1 : 0;
}

main().catch(async (e) => {
  process.stderr.write(`[apps] fatal: ${(e && e.stack) || e}\n`);
  await cleanupAll();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
