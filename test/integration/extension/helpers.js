'use strict';
/*
 * Helpers for the extension-host suites (test/integration/extension, test/integration/untrusted).
 * They run INSIDE the VS Code extension host (required by *.test.js files), so `vscode` is available.
 *
 * Everything a test asserts on is an observable effect written to a file:
 *   - the fixture servers' FIXTURE_LOG ($MCP_HOST_TEST_FIXTURE_LOG): initialize / call / cancelled / aborted
 *   - the scripted model's request log ($MCP_HOST_TEST_MODEL_LOG): what the model was offered and given
 *   - the extension's audit file (<workspace>/.mcp-host/audit.jsonl, from mcpHost.audit.path)
 */
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const vscode = require('vscode');
const { sleep, readJsonl, waitFor } = require('../lib/wait');

const EXTENSION_ID = 'mcp-host-dev.mcp-host';
const MODEL_VENDOR = 'mcp-host-test';

function workspaceFolder() {
  const f = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!f) throw new Error('no workspace folder is open');
  return f.uri.fsPath;
}

const files = {
  get fixtureLog() {
    const f = process.env.MCP_HOST_TEST_FIXTURE_LOG;
    if (!f) throw new Error('MCP_HOST_TEST_FIXTURE_LOG is not set (run the suite through its run.js)');
    return f;
  },
  get modelLog() {
    return process.env.MCP_HOST_TEST_MODEL_LOG;
  },
  get modelScript() {
    return process.env.MCP_HOST_TEST_MODEL_SCRIPT;
  },
  get audit() {
    return path.join(workspaceFolder(), '.mcp-host', 'audit.jsonl');
  },
};

/** A position in the three logs; `.since()` returns what was appended after it. */
function mark() {
  const m = { fixture: readJsonl(files.fixtureLog).length, model: readJsonl(files.modelLog).length, audit: readJsonl(files.audit).length };
  return {
    ...m,
    since() {
      return {
        fixture: readJsonl(files.fixtureLog).slice(m.fixture),
        model: readJsonl(files.modelLog).slice(m.model),
        audit: readJsonl(files.audit).slice(m.audit),
      };
    },
  };
}

/** Model registration can lag behind startup: retry selectChatModels for a while. */
async function scriptedModel(timeout = 20000) {
  const models = await waitFor('the scripted model (vendor mcp-host-test)', async () => {
    const m = await vscode.lm.selectChatModels({ vendor: MODEL_VENDOR });
    return m.length ? m : undefined;
  }, { timeout, interval: 250 });
  return models[0];
}

/**
 * Writes the scripted model's script. `select: "sequential"`: the Nth model request after this
 * write gets turns[N]. A nonce makes every script distinct, so the model restarts its count.
 */
function setScript(turns, select = 'sequential') {
  const nonce = crypto.randomBytes(6).toString('hex');
  fs.writeFileSync(files.modelScript, JSON.stringify({ select, turns, nonce }, null, 1));
}

/** The extension under test, activated. */
async function mcpHostExtension() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  return ext;
}

/**
 * The extension's test API, if activate() returns one: `{ host }` (the McpHost) or `{ controller }`
 * (whose `.host` is the McpHost). Undefined otherwise.
 */
async function hostApi() {
  const ext = await mcpHostExtension();
  const api = ext.exports;
  if (!api) return undefined;
  const host = api.host || (api.controller && api.controller.host);
  return host ? { api, host } : undefined;
}

let chatCount = 0;

/**
 * Sends `query` to the Chat view in a fresh chat session (no history from earlier tests) and
 * returns at once: `workbench.action.chat.open` does not wait for the participant.
 */
async function sendChat(query) {
  await scriptedModel();
  // A new session, so the history of earlier tests does not reach the participant.
  if (chatCount++ > 0) {
    try {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
    } catch {
      /* older/newer command id: history then accumulates, the sequential script copes */
    }
  }
  await vscode.commands.executeCommand('workbench.action.chat.open', { query });
}

/**
 * One `@mcp` chat request driven by a scripted model: writes the script, sends the query, waits
 * until the model got `requests` requests (default: turns.length) and, if `audit` is given, until
 * that many call records were appended to the audit file. Returns the appended log lines.
 */
async function chatRun({ query, turns, requests = turns.length, audit = 0, timeout = 30000 }) {
  setScript(turns);
  const m = mark();
  await sendChat(query);
  await waitFor(`${requests} request(s) to the scripted model for ${JSON.stringify(query)}`, () => m.since().model.length >= requests, {
    timeout,
    describe: () => JSON.stringify(m.since().model.map((r) => ({ turnIndex: r.turnIndex, toolNames: r.toolNames, response: r.response }))),
  });
  if (audit) {
    await waitFor(`${audit} audit record(s) of calls for ${JSON.stringify(query)}`, () => m.since().audit.filter((r) => r.kind === 'call').length >= audit, {
      timeout,
      describe: () => JSON.stringify(m.since().audit),
    });
  }
  // The handler ends right after the last model answer (text only): give it a moment.
  await sleep(300);
  return m.since();
}

/** Tool results (flattened by the scripted model) in the messages of a model request. */
function toolResults(request) {
  const out = [];
  for (const msg of request.messages || []) for (const p of msg.parts || []) if (p.type === 'toolResult') out.push(p);
  return out;
}

/** The "MCP Host" output channel's log file(s) (VS Code writes every log output channel to the window's log folder). */
function outputChannelLog() {
  const root = path.join(process.env.MCP_HOST_TEST_TMP || '', 'user-data', 'logs');
  const found = [];
  const walk = (dir) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/MCP Host\.log$/.test(e.name)) found.push(p);
    }
  };
  walk(root);
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

module.exports = {
  outputChannelLog,
  EXTENSION_ID,
  MODEL_VENDOR,
  sleep,
  workspaceFolder,
  files,
  readJsonl,
  mark,
  waitFor,
  scriptedModel,
  setScript,
  mcpHostExtension,
  hostApi,
  sendChat,
  chatRun,
  toolResults,
};
