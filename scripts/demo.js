#!/usr/bin/env node
'use strict';
/*
 * npm run demo: MCP Host in a real VS Code in your browser.
 *
 * Builds the extension (npm run build), starts code-server 4.139.1 (VS Code 1.139.1; installed into
 * ~/.cache/mcp-host-test on first use by scripts/code-server/ensure.sh) on 127.0.0.1 with MCP Host
 * installed from this folder, opens the demo workspace demo/ (server-everything, server-memory,
 * server-filesystem on demo/files; roles support and operations), prints the URL, and runs until
 * Ctrl-C. Then code-server's process group goes (extension host and the MCP servers it started
 * included) and its throwaway folders in /tmp are removed.
 *
 * The editor profile (user data: which servers you allowed to start, the layout, the chosen role)
 * is kept between runs in <cache>/demo-profile, and the demo reuses its last port when it is free
 * (the browser keeps the workbench's state per address), so MCP Host asks once per server, not on
 * every run. --fresh removes that profile first and starts clean.
 *
 *   npm run demo [-- --port 8080] [-- --no-build] [-- --scripted-model] [-- --fresh]
 *   MCP_HOST_DEMO_SCRIPTED_MODEL=1 npm run demo    also install a scripted test model, so @mcp can be
 *                                                  tried in the Chat view without a real model
 * Env: MCP_HOST_DEMO_PORT (default 0: the last run's port if free, else any free port),
 * MCP_HOST_DEMO_PROFILE (the profile folder, default <cache>/demo-profile), MCP_HOST_CACHE (see ensure.sh).
 *
 * With the scripted model, every @mcp question gets the next of a few canned answers (list and
 * read demo/files, a sum with server-everything, the memory graph); a tool outside the active role
 * is answered "not available", as with a real model. It is a test double, not an AI.
 */
const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawnSync } = require('child_process');
const { parseArgs } = require('util');

const REPO = path.resolve(__dirname, '..');
const DEMO = path.join(REPO, 'demo');
const RUNNER = path.join(REPO, 'test', 'integration', 'runner');
const { cleanupAll, installSignalHandlers } = require(path.join(RUNNER, 'cleanup.js'));
const { ensureCache, startCodeServer } = require(path.join(RUNNER, 'codeServer.js'));
const { installExtensionFolders, workbenchUrl } = require(path.join(RUNNER, 'payload.js'));
const { makeTmpDirs, writeUserSettings } = require(path.join(RUNNER, 'tmpTree.js'));
const SCRIPTED_MODEL = path.join(REPO, 'test', 'integration', 'scripted-model');

function parseOptions(args) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: process.env.MCP_HOST_DEMO_PORT || '0' },
      'no-build': { type: 'boolean' },
      'scripted-model': { type: 'boolean' },
      fresh: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const port = /^\d+$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new Error(`--port expects a port number, got ${JSON.stringify(values.port)}`);
  return {
    port,
    build: !values['no-build'],
    scriptedModel: !!values['scripted-model'] || process.env.MCP_HOST_DEMO_SCRIPTED_MODEL === '1',
    help: !!values.help,
    fresh: !!values.fresh,
    portGiven: values.port !== '0',
  };
}

function log(s) {
  process.stderr.write(`[demo] ${s}\n`);
}

/**
 * Canned @mcp answers, selected by the number of assistant messages in the request, so each new
 * question in a chat (whose history replays the earlier answers) gets the next block.
 */
function demoScript() {
  const files = path.join(DEMO, 'files');
  const block = [
    { text: 'Let me look at the demo files. ', toolCalls: [{ name: 'files__list_directory', input: { path: files } }] },
    { text: 'There is a welcome note; reading it. ', toolCalls: [{ name: 'files__read_text_file', input: { path: path.join(files, 'welcome.md') } }] },
    { text: 'The folder holds `welcome.md` and `orders.csv`. The welcome note says the *support* role may only read and list these files, while *operations* may write them, asking you first.' },
    { text: 'Adding with the everything server. ', toolCalls: [{ name: 'everything__get-sum', input: { a: 19, b: 23 } }] },
    { text: '19 + 23 = 42, computed by `everything__get-sum`.' },
    { text: 'Checking the knowledge graph. ', toolCalls: [{ name: 'memory__read_graph', input: {} }] },
    { text: 'That is what the memory server knows so far. (This is the scripted demo model: ask again for the next canned answer.)' },
  ];
  const turns = [];
  for (let i = 0; i < 10; i++) turns.push(...block);
  return { select: 'assistantMessages', turns };
}

/**
 * The demo's editor profile, kept between runs under the cache folder (--fresh: removed first).
 * Returns its user-data folder and the file that remembers the last port.
 */
function demoProfile(cacheDir, fresh) {
  const root = process.env.MCP_HOST_DEMO_PROFILE || path.join(cacheDir, 'demo-profile');
  if (fresh && fs.existsSync(root)) {
    log(`--fresh: removing the demo profile ${root}`);
    fs.rmSync(root, { recursive: true, force: true });
  }
  const userData = path.join(root, 'user-data');
  fs.mkdirSync(userData, { recursive: true, mode: 0o700 });
  return { root, userData, portFile: path.join(root, 'port') };
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** The port to start on: the one asked for, else the last run's when it is free (same address, same browser state), else any. */
async function pickPort(o, portFile) {
  if (o.portGiven) return o.port;
  const last = Number(fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').trim() : NaN);
  if (Number.isInteger(last) && last > 0 && last <= 65535 && (await portIsFree(last))) return last;
  return 0;
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  if (o.help) {
    const src = fs.readFileSync(__filename, 'utf8');
    process.stdout.write(src.slice(src.indexOf('/*') + 2, src.indexOf('*/')).replace(/^ \* ?/gm, '').trim() + '\n');
    return;
  }
  installSignalHandlers(); // Ctrl-C: kill code-server's process group, remove the tmp tree, exit

  if (o.build) {
    log('building the extension (npm run build)');
    const r = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status})`);
  } else if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: run without --no-build');
  }

  log('checking code-server (the first run installs it: a few minutes)');
  const cache = ensureCache();
  const tmp = makeTmpDirs({ prefix: 'mcp-host-it-demo-' });
  const profile = demoProfile(cache.MCP_HOST_CACHE, o.fresh);
  tmp.userData = profile.userData; // kept: consent, layout and the chosen role survive Ctrl-C
  log(`editor profile: ${profile.root} (npm run demo -- --fresh starts clean)`);
  writeUserSettings(tmp.userData, {
    trust: true,
    extra: { 'workbench.colorTheme': 'Default Dark Modern' },
  });
  const extensions = [REPO];
  const env = {};
  if (o.scriptedModel) {
    extensions.push(SCRIPTED_MODEL);
    env.MCP_HOST_TEST_MODEL_SCRIPT = path.join(tmp.root, 'demo-model-script.json');
    env.MCP_HOST_TEST_MODEL_LOG = path.join(tmp.root, 'demo-model-log.jsonl');
    fs.writeFileSync(env.MCP_HOST_TEST_MODEL_SCRIPT, JSON.stringify(demoScript(), null, 1));
  }
  installExtensionFolders(tmp, extensions);
  const port = await pickPort(o, profile.portFile);
  const server = await startCodeServer({ cache, tmp, trust: true, smokeTestDriver: false, port, env });
  fs.writeFileSync(profile.portFile, `${server.port}\n`);
  const url = workbenchUrl({ baseUrl: server.baseUrl, authority: server.authority, folder: DEMO });
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => (stopping = true));
  server.proc.on('exit', (code, sig) => {
    if (stopping) return;
    log(`code-server exited unexpectedly (code ${code}, signal ${sig})`);
    cleanupAll().finally(() => process.exit(1));
  });

  process.stdout.write(
    [
      '',
      `MCP Host demo: VS Code 1.139 (code-server ${cache.CODE_SERVER_VERSION || '4.139.1'}) with the demo workspace ${DEMO}`,
      '',
      `  Open ${url}`,
      '',
      '  - the "MCP Host" icon in the activity bar: servers, their tools (auto / asks) and tool-list events',
      '  - the status bar "MCP: support": click it to switch the role (or type "@mcp /role operations" in the Chat);',
      '    the choice is kept for you in this workspace; demo/.vscode/settings.json keeps the team default',
      `  - ${o.scriptedModel ? 'Chat view: ask "@mcp what is in the demo files?" (scripted demo model)' : 'Chat view: @mcp with any chat model you have (MCP_HOST_DEMO_SCRIPTED_MODEL=1 adds a scripted one)'}`,
      '  - audit log: demo/.mcp-host/audit.jsonl (MCP Host: Open Audit Log)',
      '',
      'Press Ctrl-C to stop (everything it started is stopped with it).',
      '',
    ].join('\n'),
  );
  // Run until a signal: the runner's handlers clean up and exit.
  await new Promise(() => {});
}

main().catch(async (e) => {
  log(`failed: ${(e && e.message) || e}`);
  await cleanupAll();
  process.exit(1);
});
