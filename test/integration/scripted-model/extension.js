// @ts-check
'use strict';
/*
 * Test-only language model provider: vendor "mcp-host-test", model id "scripted".
 *
 * Script: JSON file at $MCP_HOST_TEST_MODEL_SCRIPT, re-read on every request. Either a list of
 * turns, or { "select": "toolRounds" | "assistantMessages" | "sequential", "turns": [...] }.
 *   turn = {
 *     "text"?:      string | string[]         streamed as LanguageModelTextPart(s), before tool calls
 *     "toolCalls"?: [{ "name": string, "input": object, "callId"?: string }]
 *     "delayMs"?:   number                     wait before answering (honours cancellation)
 *     "error"?:     string                     throw instead of answering
 *     "errorCode"?: "Blocked" | "NoPermissions" | "NotFound"   throw a vscode.LanguageModelError
 *   }
 * Which turn answers a request:
 *   toolRounds (default): turn index = number of tool-result rounds in the request, i.e. runs of
 *     consecutive messages carrying LanguageModelToolResultParts. First request -> turns[0]; after
 *     the caller sends back the results of turns[0]'s tool calls -> turns[1]; and so on.
 *   assistantMessages: turn index = number of assistant messages in the request.
 *   sequential: the Nth request since the script file's content last changed gets turns[N].
 * An index past the end answers with the text "[scripted-model] script exhausted at turn N"
 * (no tool calls, so tool loops end). No script file: the answer is "[scripted-model] no script".
 *
 * Log: every request is appended as one JSON line to $MCP_HOST_TEST_MODEL_LOG:
 *   { seq, time, model, select, turnIndex, toolNames, tools, toolMode, messages: [{ role, name?,
 *     parts: [{ type: "text", text } | { type: "toolCall", callId, name, input }
 *             | { type: "toolResult", callId, isError?, text, content: [...] } | { type: "data", mimeType, bytes, text? }] }],
 *     response: { text, toolCalls } | { error } }
 *
 * Command mcpHostTest.ping -> { ok: true, vendor, model, requests, script, log }.
 * Extension exports: { getRequests(), clearRequests() } (in-memory copy of the log records).
 */

const vscode = require('vscode');
const fs = require('fs');
const crypto = require('crypto');

const VENDOR = 'mcp-host-test';
const MODEL_ID = 'scripted';

/** @type {any[]} */
const requests = [];
let seq = 0;
let sequential = { hash: '', next: 0 };

function roleName(role) {
  for (const [k, v] of Object.entries(vscode.LanguageModelChatMessageRole)) if (v === role) return k.toLowerCase();
  return String(role);
}

function flattenContentItem(p) {
  if (p == null) return { type: 'unknown' };
  if (p instanceof vscode.LanguageModelTextPart || (typeof p.value === 'string' && !('callId' in p))) {
    return { type: 'text', text: p.value };
  }
  if (typeof p.mimeType === 'string' && p.data) {
    const bytes = p.data.byteLength ?? p.data.length ?? 0;
    /** @type {any} */
    const o = { type: 'data', mimeType: p.mimeType, bytes };
    if (/^text\/|json/.test(p.mimeType)) o.text = Buffer.from(p.data).toString('utf8');
    return o;
  }
  if (p instanceof vscode.LanguageModelPromptTsxPart) return { type: 'promptTsx', value: p.value };
  return { type: 'unknown', value: safeJson(p) };
}

function flattenPart(p) {
  if (p && typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p) {
    return { type: 'toolCall', callId: p.callId, name: p.name, input: p.input };
  }
  if (p && typeof p.callId === 'string' && Array.isArray(p.content)) {
    const content = p.content.map(flattenContentItem);
    /** @type {any} */
    const o = {
      type: 'toolResult',
      callId: p.callId,
      text: content.filter((c) => typeof c.text === 'string').map((c) => c.text).join(''),
      content,
    };
    if (typeof p.isError === 'boolean') o.isError = p.isError;
    return o;
  }
  return flattenContentItem(p);
}

function safeJson(v) {
  try {
    return JSON.parse(JSON.stringify(v));
  } catch {
    return String(v);
  }
}

function flattenMessages(messages) {
  return messages.map((m) => {
    /** @type {any} */
    const o = { role: roleName(m.role), parts: (m.content || []).map(flattenPart) };
    if (m.name) o.name = m.name;
    return o;
  });
}

function countToolRounds(flat) {
  let rounds = 0;
  let prev = false;
  for (const m of flat) {
    const has = m.parts.some((p) => p.type === 'toolResult');
    if (has && !prev) rounds++;
    prev = has;
  }
  return rounds;
}

function readScript() {
  const file = process.env.MCP_HOST_TEST_MODEL_SCRIPT;
  if (!file || !fs.existsSync(file)) return { raw: '', script: null };
  const raw = fs.readFileSync(file, 'utf8');
  const parsed = JSON.parse(raw);
  const script = Array.isArray(parsed) ? { select: 'toolRounds', turns: parsed } : { select: parsed.select || 'toolRounds', turns: parsed.turns || [] };
  return { raw, script };
}

function appendLog(record) {
  requests.push(record);
  const file = process.env.MCP_HOST_TEST_MODEL_LOG;
  if (file) fs.appendFileSync(file, JSON.stringify(record) + '\n');
}

function delay(ms, token) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, ms);
    const sub = token.onCancellationRequested(() => {
      clearTimeout(t);
      sub.dispose();
      reject(new vscode.CancellationError());
    });
  });
}

/** @type {vscode.LanguageModelChatInformation & { isUserSelectable?: boolean }} */
const MODEL_INFO = {
  id: MODEL_ID,
  name: 'Scripted Test Model',
  family: 'scripted',
  version: '1.0.0',
  tooltip: 'Answers from the JSON script in $MCP_HOST_TEST_MODEL_SCRIPT (tests only)',
  detail: 'test',
  maxInputTokens: 128000,
  maxOutputTokens: 16000,
  capabilities: { toolCalling: true, imageInput: false },
  isUserSelectable: true,
};

/** @type {vscode.LanguageModelChatProvider} */
const provider = {
  provideLanguageModelChatInformation() {
    return [MODEL_INFO];
  },

  async provideLanguageModelChatResponse(model, messages, options, progress, token) {
    const mySeq = ++seq;
    const flat = flattenMessages(messages);
    const tools = (options.tools || []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    /** @type {any} */
    const record = {
      seq: mySeq,
      time: new Date().toISOString(),
      model: model.id,
      toolNames: tools.map((t) => t.name),
      tools,
      toolMode: options.toolMode,
      messages: flat,
    };

    let turn;
    try {
      const { raw, script } = readScript();
      if (!script) {
        turn = { text: '[scripted-model] no script' };
        record.select = 'none';
        record.turnIndex = -1;
      } else {
        let index;
        if (script.select === 'sequential') {
          const hash = crypto.createHash('sha1').update(raw).digest('hex');
          if (hash !== sequential.hash) sequential = { hash, next: 0 };
          index = sequential.next++;
        } else if (script.select === 'assistantMessages') {
          index = flat.filter((m) => m.role === 'assistant').length;
        } else {
          index = countToolRounds(flat);
        }
        record.select = script.select;
        record.turnIndex = index;
        turn = script.turns[index] || { text: `[scripted-model] script exhausted at turn ${index}` };
      }
    } catch (e) {
      turn = { error: `[scripted-model] bad script: ${/** @type {any} */ (e).message}` };
    }

    const texts = turn.text == null ? [] : Array.isArray(turn.text) ? turn.text.map(String) : [String(turn.text)];
    const toolCalls = (turn.toolCalls || []).map((c, i) => ({
      callId: c.callId || `call_${mySeq}_${i}`,
      name: c.name,
      input: c.input || {},
    }));
    record.response = turn.error ? { error: turn.error, errorCode: turn.errorCode } : { text: texts.join(''), toolCalls };
    appendLog(record);

    if (turn.delayMs) await delay(turn.delayMs, token);
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (turn.error) {
      const f = turn.errorCode && /** @type {any} */ (vscode.LanguageModelError)[turn.errorCode];
      throw typeof f === 'function' ? f(turn.error) : new Error(turn.error);
    }
    for (const t of texts) progress.report(new vscode.LanguageModelTextPart(t));
    for (const c of toolCalls) progress.report(new vscode.LanguageModelToolCallPart(c.callId, c.name, c.input));
  },

  async provideTokenCount(_model, text) {
    const s = typeof text === 'string' ? text : JSON.stringify(flattenMessages([text]));
    return Math.ceil(s.length / 4);
  },
};

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, provider),
    vscode.commands.registerCommand('mcpHostTest.ping', () => ({
      ok: true,
      vendor: VENDOR,
      model: MODEL_ID,
      requests: requests.length,
      script: process.env.MCP_HOST_TEST_MODEL_SCRIPT || null,
      log: process.env.MCP_HOST_TEST_MODEL_LOG || null,
    })),
  );
  // The workbench resolves a vendor's models lazily; until something asks, the Chat view has no
  // model and its first request fails with "Language model unavailable". Ask once right away.
  setTimeout(() => {
    vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, () => {});
  }, 0);
  return {
    getRequests: () => requests.slice(),
    clearRequests: () => {
      requests.length = 0;
    },
  };
}

function deactivate() {}

module.exports = { activate, deactivate };
