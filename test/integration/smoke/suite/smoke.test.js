'use strict';
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');

/** Model registration can lag behind startup: retry selectChatModels for a while. */
async function selectScriptedModel(timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const models = await vscode.lm.selectChatModels({ vendor: 'mcp-host-test' });
    if (models.length || Date.now() > deadline) return models;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function collect(response) {
  const texts = [];
  const calls = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text: texts.join(''), calls };
}

function readModelLog() {
  const f = process.env.MCP_HOST_TEST_MODEL_LOG;
  if (!f || !fs.existsSync(f)) return [];
  return fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('smoke: real VS Code extension host', () => {
  it('runs VS Code 1.139 with a Node extension host', () => {
    extLog('vscode %s, uiKind %s, remoteName %s, node %s', vscode.version, vscode.env.uiKind, vscode.env.remoteName, process.version);
    assert.ok(vscode.version.startsWith('1.139'), `vscode.version is ${vscode.version}`);
    assert.strictEqual(vscode.env.uiKind, vscode.UIKind.Web);
  });

  it('opened the workspace folder, trusted as requested', () => {
    const folders = vscode.workspace.workspaceFolders || [];
    assert.strictEqual(folders.length, 1);
    assert.strictEqual(folders[0].uri.fsPath, process.env.MCP_HOST_TEST_WORKSPACE);
    assert.strictEqual(vscode.workspace.isTrusted, process.env.MCP_HOST_TEST_TRUST !== '0');
  });

  it('activates the extension under test', async () => {
    const ext = vscode.extensions.getExtension('mcp-host-dev.mcp-host-smoke');
    assert.ok(ext, 'smoke extension not found');
    await ext.activate();
    assert.strictEqual(await vscode.commands.executeCommand('mcpHostSmoke.hello', 'runner'), 'hello runner');
  });

  it('has the scripted model extension loaded', async () => {
    const pong = await vscode.commands.executeCommand('mcpHostTest.ping');
    assert.strictEqual(pong && pong.ok, true);
  });

  it('finds the scripted model via vscode.lm.selectChatModels', async () => {
    const models = await selectScriptedModel();
    assert.strictEqual(models.length, 1, `models: ${JSON.stringify(models.map((m) => m.id))}`);
    const [m] = models;
    assert.strictEqual(m.id, 'scripted');
    assert.strictEqual(m.name, 'Scripted Test Model');
    assert.strictEqual(m.vendor, 'mcp-host-test');
  });

  it('streams the scripted tool call, then the scripted text after the tool result', async () => {
    fs.writeFileSync(
      process.env.MCP_HOST_TEST_MODEL_SCRIPT,
      JSON.stringify([
        { text: 'Let me add those. ', toolCalls: [{ name: 'get-sum', input: { a: 2, b: 3 } }] },
        { text: 'The sum is 5.' },
      ]),
    );
    const [model] = await selectScriptedModel();
    const tools = [{ name: 'get-sum', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }];
    const messages = [vscode.LanguageModelChatMessage.User('What is 2 + 3?')];
    const cts = new vscode.CancellationTokenSource();

    const first = await collect(await model.sendRequest(messages, { tools }, cts.token));
    assert.strictEqual(first.text, 'Let me add those. ');
    assert.strictEqual(first.calls.length, 1);
    assert.strictEqual(first.calls[0].name, 'get-sum');
    assert.deepStrictEqual(first.calls[0].input, { a: 2, b: 3 });
    assert.ok(first.calls[0].callId);

    messages.push(vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelTextPart(first.text), ...first.calls]));
    messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(first.calls[0].callId, [new vscode.LanguageModelTextPart('5')])]));
    const second = await collect(await model.sendRequest(messages, { tools }, cts.token));
    assert.strictEqual(second.text, 'The sum is 5.');
    assert.strictEqual(second.calls.length, 0);

    const log = readModelLog();
    assert.strictEqual(log.length, 2);
    assert.deepStrictEqual(log[0].toolNames, ['get-sum']);
    assert.strictEqual(log[0].turnIndex, 0);
    assert.strictEqual(log[1].turnIndex, 1);
    const lastMsg = log[1].messages[log[1].messages.length - 1];
    assert.strictEqual(lastMsg.role, 'user');
    assert.strictEqual(lastMsg.parts[0].type, 'toolResult');
    assert.strictEqual(lastMsg.parts[0].callId, first.calls[0].callId);
    assert.strictEqual(lastMsg.parts[0].text, '5');
    const asst = log[1].messages[1];
    assert.strictEqual(asst.role, 'assistant');
    assert.deepStrictEqual(asst.parts.map((p) => p.type), ['text', 'toolCall']);
  });

  it('routes a Chat view request to a chat participant that answers with the scripted model', async () => {
    fs.writeFileSync(process.env.MCP_HOST_TEST_MODEL_SCRIPT, JSON.stringify({ select: 'sequential', turns: [{ text: 'pong from the script' }] }));
    await selectScriptedModel(); // the Chat view needs the model resolved, else "Language model unavailable"
    const api = await vscode.extensions.getExtension('mcp-host-dev.mcp-host-smoke').activate();
    const before = api.chatRequests.length;
    // Returns before the participant's handler has finished: wait for its effect.
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@smoke ping' });
    const deadline = Date.now() + 20000;
    while (!(api.chatRequests[before] && api.chatRequests[before].done) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const rec = api.chatRequests[before];
    assert.ok(rec && rec.done, 'participant did not answer within 20 s');
    assert.strictEqual(rec.prompt, 'ping');
    assert.deepStrictEqual(rec.model, { vendor: 'mcp-host-test', id: 'scripted' });
    assert.strictEqual(rec.error, undefined);
    assert.strictEqual(rec.answer, 'pong from the script');
  });
});
