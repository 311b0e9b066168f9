'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const h = require('../helpers');

const STATIC_DOC = 'demo://resource/static/document/architecture.md';
const userTexts = (request) => (request.messages || []).filter((m) => m.role === 'user').flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => p.text));
const assistantTexts = (request) => (request.messages || []).filter((m) => m.role === 'assistant').flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => p.text));

describe('resources and prompts in the editor (server-everything, role "full")', () => {
  it('the host lists every resource, template and prompt of server-everything for the role', async () => {
    const { host } = await h.hostApi();
    // The suite before this one changed the settings: wait until server-everything is connected with its catalog.
    await h.waitFor('server-everything connected with its resources', () => host.snapshot().resources('everything').length > 0, { timeout: 30000, describe: () => JSON.stringify(host.snapshot().server('everything')?.state) });
    const s = host.snapshot();
    assert.strictEqual(s.resources('everything').length, 7);
    assert.strictEqual(s.resourceTemplates('everything').length, 2);
    assert.deepStrictEqual(s.visiblePrompts().filter((p) => p.server === 'everything').map((p) => p.prompt.name), ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
  });

  it('opens a resource of the tree as a read-only document; the read is audited', async () => {
    const m = h.mark();
    // What a click on the resource's row in the MCP Host view runs (the row passes its node).
    const { host } = await h.hostApi();
    const view = await h.waitFor('the resource in the snapshot', () => host.snapshot().resources('everything').find((r) => r.resource.uri === STATIC_DOC));
    const node = { kind: 'resource', role: 'full', ...view };
    const opened = await vscode.commands.executeCommand('mcpHost.openResource', node);
    assert.ok(opened, `the command failed: ${h.outputChannelLog().split('\n').filter((l) => /openResource/.test(l)).join('\n')}`);
    const editor = await h.waitFor('the resource editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === opened.toString()), {
      describe: () => JSON.stringify({ opened: opened.toString(), visible: vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()), docs: vscode.workspace.textDocuments.map((d) => d.uri.toString()) }),
    });
    assert.strictEqual(editor.document.uri.scheme, 'mcp-host-resource');
    assert.match(editor.document.getText(), /^# Everything Server/);
    assert.strictEqual(editor.document.languageId, 'markdown');
    assert.match(editor.document.uri.path, /\/everything\/architecture\.md$/);
    const rec = await h.waitFor('the resource audit record', () => m.since().audit.find((r) => r.kind === 'resource'));
    assert.deepStrictEqual([rec.server, rec.uri, rec.purpose, rec.outcome, rec.role], ['everything', STATIC_DOC, 'view', 'ok', 'full']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('opens an image resource in the image viewer (a temporary file)', async () => {
    const opened = await vscode.commands.executeCommand('mcpHost.openResource', { server: 'catalog', uri: 'fixture://catalog/image.png' });
    assert.ok(opened, `the command failed: ${h.outputChannelLog().split('\n').filter((l) => /openResource/.test(l)).join('\n')}`);
    assert.strictEqual(opened.scheme, 'file');
    assert.match(opened.path, /\/image\.png$/);
    assert.strictEqual(fs.readFileSync(opened.fsPath).subarray(1, 4).toString('ascii'), 'PNG');
    const tab = await h.waitFor('the image tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input && t.input.uri && t.input.uri.toString() === opened.toString()),
    );
    assert.strictEqual(tab.input.viewType, 'imagePreview.previewEditor', `opened with ${JSON.stringify(tab.input)}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('"#mcp:server/uri" in a request attaches the resource for the model; the read is audited as "chat"', async () => {
    const run = await h.chatRun({ query: `@mcp summarize #mcp:everything/${STATIC_DOC} please`, turns: [{ text: 'A summary.' }] });
    const texts = userTexts(run.model[0]);
    const attached = texts.find((t) => t.startsWith(`The user attached the resource ${STATIC_DOC} of MCP server "everything"`));
    assert.ok(attached, JSON.stringify(texts));
    assert.match(attached, /# Everything Server/);
    assert.ok(texts.indexOf(attached) < texts.findIndex((t) => t.includes('summarize #mcp:')), 'the resource comes before the request');
    const rec = run.audit.find((r) => r.kind === 'resource' && r.purpose === 'chat');
    assert.ok(rec, JSON.stringify(run.audit));
    assert.deepStrictEqual([rec.uri, rec.outcome], [STATIC_DOC, 'ok']);
  });

  it('"/resources" lists what the role may attach', async () => {
    const m = h.mark();
    await h.sendChat('@mcp /resources');
    // No model request: the answer is the list. Its effect we can observe is none at the servers; the
    // list itself is asserted in the UI suite. Here: nothing was read or called.
    await h.sleep(1500);
    assert.deepStrictEqual(m.since().audit, []);
    assert.deepStrictEqual(m.since().model, []);
  });

  it('"/prompt server/name arg=value text" inserts the prompt\'s messages before the text; the use is audited', async () => {
    const run = await h.chatRun({ query: '@mcp /prompt everything/args-prompt city=Lisbon state="Portugal region" keep it short', turns: [{ text: 'Sunny.' }] });
    const texts = userTexts(run.model[0]);
    const prompt = texts.find((t) => /Lisbon/.test(t));
    assert.ok(prompt, JSON.stringify(texts));
    assert.match(prompt, /Portugal region/);
    assert.strictEqual(texts[texts.length - 1], 'keep it short');
    const rec = await h.waitFor('the prompt audit record', () => h.readJsonl(h.files.audit).reverse().find((r) => r.kind === 'prompt' && r.prompt === 'args-prompt'));
    assert.deepStrictEqual([rec.server, rec.outcome, rec.role], ['everything', 'ok', 'full']);
    assert.deepStrictEqual(rec.args, { city: 'Lisbon', state: 'Portugal region' });
  });

  it('a prompt with an embedded resource and an assistant message keeps roles and content', async () => {
    const run = await h.chatRun({ query: '@mcp /prompt resource-prompt resourceType=Text resourceId=2', turns: [{ text: 'Analysed.' }] });
    const texts = userTexts(run.model[0]);
    assert.ok(texts.some((t) => t.startsWith('[resource demo://resource/dynamic/text/2]')), JSON.stringify(texts));
    assert.deepStrictEqual(assistantTexts(run.model[0]), []);
  });
});

describe('resources and prompts are gated by the role (role "reader": static documents only, no prompts)', () => {
  after(async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('activeRole', 'full', vscode.ConfigurationTarget.Workspace);
    const { host } = await h.hostApi();
    await h.waitFor('role full again', () => host.snapshot().role === 'full' && host.snapshot().server('basic').connected, { timeout: 20000 });
  });

  it('a resource outside the globs is refused and audited; a prompt without prompt globs too; matching ones work', async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('activeRole', 'reader', vscode.ConfigurationTarget.Workspace);
    const { host } = await h.hostApi();
    await h.waitFor('role reader', () => host.snapshot().role === 'reader' && host.snapshot().server('everything').connected, { timeout: 20000 });
    const s = host.snapshot();
    assert.strictEqual(s.visibleResources().length, 7);
    assert.deepStrictEqual(s.visibleResourceTemplates(), []);
    assert.deepStrictEqual(s.visiblePrompts(), []);

    const run = await h.chatRun({ query: '@mcp compare #mcp:everything/demo://resource/dynamic/text/1 and #mcp:everything/demo://resource/static/document/features.md', turns: [{ text: 'Compared.' }] });
    const texts = userTexts(run.model[0]);
    assert.ok(texts.some((t) => t.includes('demo://resource/static/document/features.md of MCP server')), JSON.stringify(texts));
    assert.ok(!texts.some((t) => t.startsWith('The user attached the resource demo://resource/dynamic/text/1')), 'the refused resource never reached the model');
    const recs = await h.waitFor('two resource records', () => {
      const r = h.readJsonl(h.files.audit).filter((x) => x.kind === 'resource' && x.role === 'reader');
      return r.length >= 2 ? r : undefined;
    });
    assert.deepStrictEqual(
      recs.map((r) => [r.uri, r.outcome]),
      [
        ['demo://resource/dynamic/text/1', 'notAllowed'],
        ['demo://resource/static/document/features.md', 'ok'],
      ],
    );

    const m = h.mark();
    await h.sendChat('@mcp /prompt everything/simple-prompt');
    await h.sleep(1500);
    assert.deepStrictEqual(m.since().model, [], 'a prompt the role may not use never reaches the model');
    const direct = await host.catalog.getPrompt({ server: 'everything', name: 'simple-prompt' });
    assert.strictEqual(direct.outcome, 'notAllowed');
  });

  it('"..", "%2e%2e" and "%2F" in an attached URI do not leave the globs: refused, audited with the canonical URI, never sent', async () => {
    const { host } = await h.hostApi();
    const m = h.mark();
    const run = await h.chatRun({
      query: '@mcp compare #mcp:everything/demo://resource/static/../dynamic/text/1 #mcp:everything/demo://resource/static/%2e%2e/dynamic/text/2 #mcp:everything/demo://resource/static/document/./features.md',
      turns: [{ text: 'Compared.' }],
    });
    const texts = userTexts(run.model[0]);
    const attached = texts.filter((t) => t.startsWith('The user attached the resource '));
    assert.strictEqual(attached.length, 1, 'the refused resources never reached the model');
    assert.ok(attached[0].startsWith('The user attached the resource demo://resource/static/document/./features.md'), JSON.stringify(texts));
    const recs = await h.waitFor('three resource records', () => {
      const r = m.since().audit.filter((x) => x.kind === 'resource');
      return r.length >= 3 ? r : undefined;
    });
    assert.deepStrictEqual(
      recs.map((r) => [r.uri, r.requestedUri, r.outcome]),
      [
        ['demo://resource/dynamic/text/1', 'demo://resource/static/../dynamic/text/1', 'notAllowed'],
        ['demo://resource/dynamic/text/2', 'demo://resource/static/%2e%2e/dynamic/text/2', 'notAllowed'],
        ['demo://resource/static/document/features.md', 'demo://resource/static/document/./features.md', 'ok'],
      ],
    );
    const encoded = await host.catalog.readResource({ server: 'everything', uri: 'demo://resource/static/..%2Fdynamic/text/1' });
    assert.strictEqual(encoded.outcome, 'notAllowed');
    assert.match(encoded.text, /contains an encoded "\/" \(%2F\) in its path/);
  });
});
