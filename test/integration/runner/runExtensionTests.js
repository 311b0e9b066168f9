#!/usr/bin/env node
// @ts-check
'use strict';
/*
 * Runs VS Code extension tests inside a real VS Code (code-server 4.139.1 = VS Code 1.139.1, a real
 * Node extension host) driven by headless Debian chromium through playwright-core.
 * See /work/shared/TESTING.md for the measured facts this relies on.
 *
 * CLI (plain Node CommonJS, runs on Node 20):
 *   node test/integration/runner/runExtensionTests.js \
 *     --extension <dir> --tests <test index.js> --workspace <dir> \
 *     [--extra-extension <dir>]... [--timeout 300] [--trust|--no-trust] \
 *     [--grep <mocha grep>] [--env KEY=VALUE]... [--settings <settings.json to merge>] \
 *     [--artifacts <dir>] [--keep-tmp] [--verbose] [--headed]
 *
 *   --extra-extension  more development extensions (e.g. test/integration/scripted-model)
 *   --no-trust         workspace trust enabled and the folder untrusted (restricted mode);
 *                      default --trust: the trust feature is off, everything trusted
 *   --grep             mocha grep, passed to the extension host as MCP_HOST_TEST_GREP
 *   --env K=V          extra env for code-server and so the extension host (MCP_HOST_TEST_*
 *                      variables of this process pass through anyway)
 *   --artifacts DIR    keep code-server.log, the window's logs, model-log.jsonl and, on failure,
 *                      a screenshot of the workbench
 *   --verbose          also print the workbench console and code-server output (stderr)
 *   --headed           visible browser (needs a display, e.g. xvfb-run)
 *
 * The extension host gets MCP_HOST_TEST_TRUST (1/0), MCP_HOST_TEST_TMP, MCP_HOST_TEST_WORKSPACE,
 * MCP_HOST_TEST_MODEL_SCRIPT and MCP_HOST_TEST_MODEL_LOG (files in the tmp tree unless set).
 *
 * Exit code: the one the workbench hands to codeAutomationExit (0 = all tests passed), or 1 on
 * timeout / startup failure. Last line: "N passed, N failed".
 *
 * The functions are exported (startCodeServer, launchBrowser, openWorkbench, ...) so Playwright UI
 * tests and demo scripts can reuse them; every started process is registered for cleanup, which
 * also runs on SIGINT/SIGTERM/SIGHUP and (synchronously, best effort) on process exit.
 */

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, execFileSync } = require('child_process');
const { listProcesses, processStat } = require('../lib/procfs');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const ENSURE_SCRIPT = path.join(REPO_ROOT, 'scripts', 'code-server', 'ensure.sh');
const EXT_TEST_PREFIX = '[ext-test] ';
const EXT_EVENT_PREFIX = '[ext-test:event] ';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function log(...args) {
  process.stderr.write(`[runner] ${args.join(' ')}\n`);
}

// ------------------------------------------------------------------------------------------------
// Cleanup registry: everything started here is torn down at the end, on signals and on exit.

/** @type {{ name: string, async: () => Promise<void>, sync: () => void }[]} */
const cleanups = [];
let cleaningUp = null;

/** Register a cleanup; `sync` must be safe to call from process.on('exit'). Returns an unregister fn. */
function registerCleanup(name, asyncFn, syncFn) {
  const entry = { name, async: asyncFn, sync: syncFn || (() => {}) };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** Runs all cleanups (last registered first). Idempotent. */
function cleanupAll() {
  if (!cleaningUp) {
    cleaningUp = (async () => {
      while (cleanups.length) {
        const c = cleanups.pop();
        const t = Date.now();
        try {
          await c.async();
          if (process.env.MCP_HOST_TEST_VERBOSE === '1') log(`cleanup ${c.name}: ${Date.now() - t} ms`);
        } catch (e) {
          log(`cleanup ${c.name} failed: ${e && e.message}`);
        }
      }
    })().finally(() => {
      cleaningUp = null;
    });
  }
  return cleaningUp;
}

let signalHandlersInstalled = false;
function installSignalHandlers() {
  if (signalHandlersInstalled) return;
  signalHandlersInstalled = true;
  const onSignal = (sig, code) => {
    log(`${sig} received, cleaning up`);
    const hard = setTimeout(() => process.exit(code), 10000);
    hard.unref();
    cleanupAll().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => onSignal('SIGINT', 130));
  process.on('SIGTERM', () => onSignal('SIGTERM', 143));
  process.on('SIGHUP', () => onSignal('SIGHUP', 129));
  process.on('exit', () => {
    for (const c of cleanups.slice().reverse()) {
      try {
        c.sync();
      } catch {
        /* best effort */
      }
    }
  });
}

// ------------------------------------------------------------------------------------------------
// Cache (Node 24 + code-server + chromium) via scripts/code-server/ensure.sh

/**
 * @returns {{ MCP_HOST_CACHE: string, NODE24_DIR: string, NODE24_BIN: string, CODE_SERVER_DIR: string,
 *   CODE_SERVER_ENTRY: string, CODE_SERVER_VERSION: string, CHROMIUM: string }}
 */
function ensureCache() {
  const out = execFileSync('bash', [ENSURE_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  /** @type {any} */
  const env = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  for (const k of ['NODE24_BIN', 'CODE_SERVER_ENTRY', 'CHROMIUM']) {
    if (!env[k]) throw new Error(`ensure.sh did not report ${k}`);
  }
  return env;
}

// ------------------------------------------------------------------------------------------------
// Throwaway folders and settings

const TMP_PREFIX = 'mcp-host-it-';
const OWNER_FILE = 'owner.json';

/** Start time of a process (clock ticks since boot, from /proc), or null if it does not exist. */
function processStartTime(pid) {
  const p = processStat(pid);
  return p ? Number(p.startTime) : null;
}

/** Marks a tmp tree as this process's, so a later run sweeps it if we die by SIGKILL. */
function writeOwnerFile(root) {
  fs.writeFileSync(path.join(root, OWNER_FILE), JSON.stringify({ pid: process.pid, start: processStartTime(process.pid) }));
}

/**
 * Removes tmp trees of earlier runs whose runner process is gone (killed with SIGKILL, say; its
 * code-server group was already ended by the dead-man switch). Trees without an owner file, or
 * whose owner still runs, are left alone: other runs may share this machine.
 */
function sweepStaleTmpDirs() {
  let names;
  try {
    names = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(TMP_PREFIX));
  } catch {
    return;
  }
  for (const n of names) {
    const dir = path.join(os.tmpdir(), n);
    try {
      const owner = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
      if (owner.pid === process.pid) continue;
      const start = processStartTime(owner.pid);
      if (start !== null && start === owner.start) continue; // still running
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      /* no owner file or unreadable: not ours to judge */
    }
  }
}

/**
 * Creates a tmp tree: userData (with User/settings.json written later), extensions, xdgConfig,
 * xdgData, browserProfile, config.yaml path, logs. Registered for removal unless keep=true.
 */
function makeTmpDirs({ prefix = TMP_PREFIX, keep = false } = {}) {
  sweepStaleTmpDirs();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  writeOwnerFile(root);
  const dirs = {
    root,
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    xdgConfig: path.join(root, 'xdg-config'),
    xdgData: path.join(root, 'xdg-data'),
    browserProfile: path.join(root, 'browser-profile'),
    logs: path.join(root, 'logs'),
    runtime: path.join(root, 'run'),
    configFile: path.join(root, 'code-server.yaml'),
  };
  for (const [k, d] of Object.entries(dirs)) if (k !== 'root' && k !== 'configFile') fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  fs.writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
  const rm = () => fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  registerCleanup(
    `tmp ${root}`,
    async () => {
      if (keep) log(`kept tmp folder ${root}`);
      else rm();
    },
    () => {
      if (!keep) rm();
    },
  );
  return dirs;
}

/**
 * Writes <userData>/User/settings.json. trust=true: workspace trust disabled (everything trusted);
 * trust=false: trust enabled, no prompt, so the opened folder stays untrusted (restricted mode).
 */
function writeUserSettings(userDataDir, { trust = true, extra = {} } = {}) {
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'update.mode': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'git.autoRepositoryDetection': false,
    // trust=true: the trust feature is off, so everything counts as trusted. trust=false: the
    // feature is on and nothing was ever trusted, so the folder opens in restricted mode.
    'security.workspace.trust.enabled': !trust,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.emptyWindow': false,
    'security.workspace.trust.untrustedFiles': 'open',
    ...extra,
  };
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  return settings;
}

/** Environment for code-server (and so the extension host): ours minus things that would confuse it. */
function codeServerEnv(tmp, extraEnv = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VSCODE_|ELECTRON_)/.test(k) || k === 'NODE_OPTIONS' || k === 'PORT' || k === 'PASSWORD' || k === 'HASHED_PASSWORD') continue;
    env[k] = v; // includes every MCP_HOST_TEST_* variable
  }
  // Keep everything code-server/VS Code writes inside the tmp tree: code-server's config and logs
  // (XDG_*), VS Code's IPC sockets (XDG_RUNTIME_DIR, else os.tmpdir()) and other temp files.
  env.XDG_CONFIG_HOME = tmp.xdgConfig;
  env.XDG_DATA_HOME = tmp.xdgData;
  env.XDG_RUNTIME_DIR = tmp.runtime;
  env.TMPDIR = tmp.runtime;
  return { ...env, ...extraEnv };
}

// ------------------------------------------------------------------------------------------------
// code-server

/**
 * True while a non-zombie process of the group exists. Zombies are ignored: once code-server's
 * main process dies, its children are reparented and linger as <defunct> until init reaps them,
 * which `kill(-pgid, 0)` would still count as alive.
 */
function processGroupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if (/** @type {any} */ (e).code !== 'EPERM') return false;
  }
  const processes = listProcesses();
  if (!processes) return true; // no procfs: trust kill(0)
  return processes.some((p) => p.pgrp === pgid && p.state !== 'Z' && p.state !== 'X');
}

async function killProcessGroup(pgid, { graceMs = 3000 } = {}) {
  if (!processGroupAlive(pgid)) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    /* gone */
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && processGroupAlive(pgid)) await sleep(100);
  if (processGroupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
    const d2 = Date.now() + 2000;
    while (Date.now() < d2 && processGroupAlive(pgid)) await sleep(50);
  }
}

/**
 * Starts code-server on 127.0.0.1 in its own process group.
 * @param {object} o
 * @param {ReturnType<typeof ensureCache>} o.cache
 * @param {ReturnType<typeof makeTmpDirs>} o.tmp
 * @param {boolean} [o.trust]            default true: --disable-workspace-trust
 * @param {boolean} [o.smokeTestDriver]  default true: honours the `payload` test parameters; false for UI tests with real dialogs
 * @param {number}  [o.port]             default 0 (code-server picks a free port and reports it)
 * @param {Record<string,string>} [o.env]
 * @param {string[]} [o.extraArgs]
 * @param {number}  [o.startTimeoutMs]
 * @returns {Promise<{ port: number, baseUrl: string, authority: string, proc: import('child_process').ChildProcess,
 *   pid: number, logFile: string, output: () => string, stop: () => Promise<void> }>}
 */
async function startCodeServer(o) {
  const { cache, tmp, trust = true, smokeTestDriver = true, port = 0, env = {}, extraArgs = [], startTimeoutMs = 60000 } = o;
  const args = [
    cache.CODE_SERVER_ENTRY,
    '--config', tmp.configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--user-data-dir', tmp.userData,
    '--extensions-dir', tmp.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
  ];
  if (trust) args.push('--disable-workspace-trust');
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  args.push(...extraArgs);

  const logFile = path.join(tmp.logs, 'code-server.log');
  const logStream = fs.createWriteStream(logFile);
  let output = '';
  let pendingLine = '';
  // Own process group (detached), so the whole tree (server, extension host, MCP servers it spawns)
  // is killed at the end. The group leader is a bash that execs code-server after forking a
  // dead-man switch holding our stdin pipe: if this Node process dies, even by SIGKILL, the pipe
  // closes and the switch kills the group (TERM, then KILL once code-server is gone or after 3 s).
  const deadManSwitch = [
    'exec 3<&0',
    '( trap "" TERM; cat <&3 >/dev/null; kill -TERM 0 2>/dev/null;',
    '  for i in $(seq 30); do kill -0 $$ 2>/dev/null || break; sleep 0.1; done; kill -KILL 0 ) &',
    'exec "$@" </dev/null 3<&-',
  ].join('\n');
  const proc = spawn('bash', ['-c', deadManSwitch, 'code-server', cache.NODE24_BIN, ...args], {
    cwd: tmp.root,
    env: codeServerEnv(tmp, env),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = /** @type {number} */ (proc.pid);
  let exited = false;
  proc.on('exit', () => (exited = true));
  const stop = async () => {
    await killProcessGroup(pid);
    proc.stdin.destroy();
    await new Promise((r) => logStream.end(r));
  };
  registerCleanup(`code-server pgid ${pid}`, stop, () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  });

  const onData = (/** @type {Buffer} */ b) => {
    const s = b.toString();
    output += s;
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    logStream.write(s);
    if (process.env.MCP_HOST_TEST_VERBOSE === '1') {
      pendingLine += s;
      const lines = pendingLine.split('\n');
      pendingLine = /** @type {string} */ (lines.pop());
      for (const l of lines) process.stderr.write(`[code-server] ${l}\n`);
    }
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);

  const actualPort = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const check = () => {
      const m = /HTTP server listening on https?:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        proc.stdout.off('data', check);
        proc.stderr.off('data', check);
        resolve(Number(m[1]));
      }
    };
    proc.stdout.on('data', check);
    proc.stderr.on('data', check);
    proc.on('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited early (code ${code}, signal ${sig}):\n${output}`));
    });
  });
  // Wait until it actually answers HTTP.
  const baseUrl = `http://127.0.0.1:${actualPort}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    const status = await httpStatus(`${baseUrl}/healthz`).catch(() => 0);
    if (status === 200) break;
    if (exited) throw new Error(`code-server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`code-server /healthz not ready:\n${output}`);
    await sleep(100);
  }
  return { port: actualPort, baseUrl, authority: `127.0.0.1:${actualPort}`, proc, pid, logFile, output: () => output, stop };
}

function httpStatus(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode || 0);
    });
    req.on('error', reject);
    req.setTimeout(2000, () => req.destroy(new Error('timeout')));
  });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// ------------------------------------------------------------------------------------------------
// Browser

/**
 * Launches Debian chromium headless via playwright-core with a fresh profile under tmp.
 * @param {object} o
 * @param {ReturnType<typeof makeTmpDirs>} o.tmp
 * @param {string} [o.executablePath]
 * @param {boolean} [o.headless]
 * @param {{width:number,height:number}} [o.viewport]
 * @returns {Promise<{ context: import('playwright-core').BrowserContext, page: import('playwright-core').Page, close: () => Promise<void> }>}
 */
async function launchBrowser(o) {
  const { tmp, executablePath = process.env.MCP_HOST_CHROMIUM || '/usr/bin/chromium', headless = true, viewport = { width: 1400, height: 900 } } = o;
  const { chromium } = require('playwright-core');
  const context = await chromium.launchPersistentContext(tmp.browserProfile, {
    executablePath,
    headless,
    args: CHROMIUM_ARGS,
    viewport,
    // We run our own cleanup on signals (code-server must die too).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 60000,
    // Debian's chromium starts a crashpad handler writing to $XDG_CONFIG_HOME/chromium: keep that
    // (and its temp files) inside the tmp tree too.
    env: { ...process.env, XDG_CONFIG_HOME: tmp.xdgConfig, XDG_CACHE_HOME: path.join(tmp.root, 'xdg-cache'), TMPDIR: tmp.runtime },
  });
  const page = context.pages()[0] || (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    let timer;
    await Promise.race([context.close().catch(() => {}), new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
  };
  // playwright-core itself kills launched browsers synchronously on process exit.
  registerCleanup('browser', close);
  return { context, page, close };
}

// ------------------------------------------------------------------------------------------------
// Workbench URL

function remoteUri(authority, absPath) {
  const p = path.resolve(absPath);
  return `vscode-remote://${authority}${p.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * @param {object} o
 * @param {string} o.baseUrl
 * @param {string} o.authority
 * @param {string} [o.folder]
 * @param {string[]} [o.extensionDevelopmentPaths]
 * @param {string} [o.extensionTestsPath]
 * @param {Record<string,string>} [o.extensionEnvironment]  extra env for the extension host (payload key)
 * @param {[string,string][]} [o.extraPayload]
 */
function workbenchUrl(o) {
  const payload = [];
  for (const p of o.extensionDevelopmentPaths || []) payload.push(['extensionDevelopmentPath', remoteUri(o.authority, p)]);
  if (o.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(o.authority, o.extensionTestsPath)]);
  if (payload.length) {
    payload.push(['enableProposedApi', '']);
    payload.push(['skipWelcome', 'true']);
  }
  if (o.extensionEnvironment) payload.push(['extensionEnvironment', JSON.stringify(o.extensionEnvironment)]);
  payload.push(...(o.extraPayload || []));
  const q = new URLSearchParams();
  if (o.folder) q.set('folder', path.resolve(o.folder));
  else q.set('ew', 'true');
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${o.baseUrl}/?${q.toString()}`;
}

/**
 * The workbench reads the `payload` into a Map, so only the LAST `extensionDevelopmentPath` pair
 * survives. A development path without package.json is scanned as a folder of extensions, though:
 * for more than one extension we pass one tmp folder holding a symlink per extension.
 * @param {ReturnType<typeof makeTmpDirs>} tmp
 * @param {string[]} dirs extension folders (each with package.json)
 * @returns {string[]} the paths to put in the payload (one element)
 */
function developmentExtensionPaths(tmp, dirs) {
  const abs = dirs.map((d) => path.resolve(d));
  for (const p of abs) {
    if (!fs.existsSync(path.join(p, 'package.json'))) throw new Error(`no package.json in extension folder ${p}`);
  }
  if (abs.length <= 1) return abs;
  const folder = path.join(tmp.root, 'dev-extensions');
  fs.mkdirSync(folder, { recursive: true });
  abs.forEach((p, i) => fs.symlinkSync(p, path.join(folder, `${i}-${path.basename(p)}`), 'dir'));
  return [folder];
}

/**
 * "Installs" extension folders for a run WITHOUT the smoke-test driver (UI tests, demos), where the
 * payload's extensionDevelopmentPath is ignored: each folder is symlinked into the fresh
 * --extensions-dir as <publisher>.<name>-<version>. With no extensions.json there yet, VS Code's
 * server scans that folder at startup ("initializing default profile extensions") and registers
 * what it finds, like an install from a .vsix.
 * @param {ReturnType<typeof makeTmpDirs>} tmp
 * @param {string[]} dirs
 */
function installExtensionFolders(tmp, dirs) {
  return dirs.map((d) => {
    const abs = path.resolve(d);
    const pkg = JSON.parse(fs.readFileSync(path.join(abs, 'package.json'), 'utf8'));
    const id = `${pkg.publisher}.${pkg.name}`;
    fs.symlinkSync(abs, path.join(tmp.extensions, `${id}-${pkg.version}`), 'dir');
    return id.toLowerCase();
  });
}

/**
 * Everything a Playwright UI test or a demo needs in one call: cache, tmp tree, settings,
 * code-server, chromium, and the workbench opened on `folder`. close() tears it all down.
 * smokeTestDriver=false (default here) keeps modal dialogs working; extensions are then installed
 * from folders (installExtensionFolders). With smokeTestDriver=true, pass extensionTestsPath etc.
 * through `payload`-style options instead (see runExtensionTests).
 * @param {object} o
 * @param {string} [o.folder]
 * @param {string[]} [o.extensions]        extension folders to install
 * @param {boolean} [o.trust]
 * @param {boolean} [o.smokeTestDriver]
 * @param {Record<string,string>} [o.env]
 * @param {Record<string,any>} [o.settings]
 * @param {boolean} [o.headless]
 * @param {boolean} [o.keepTmp]
 * @param {boolean} [o.waitForWorkbench] default true: waits for the .monaco-workbench element
 */
async function openWorkbench(o = {}) {
  installSignalHandlers();
  const trust = o.trust !== false;
  const cache = ensureCache();
  const tmp = makeTmpDirs({ keep: !!o.keepTmp });
  writeUserSettings(tmp.userData, { trust, extra: o.settings || {} });
  const extensionIds = installExtensionFolders(tmp, o.extensions || []);
  const env = {
    MCP_HOST_TEST_TRUST: trust ? '1' : '0',
    MCP_HOST_TEST_TMP: tmp.root,
    MCP_HOST_TEST_MODEL_SCRIPT: process.env.MCP_HOST_TEST_MODEL_SCRIPT || path.join(tmp.root, 'model-script.json'),
    MCP_HOST_TEST_MODEL_LOG: process.env.MCP_HOST_TEST_MODEL_LOG || path.join(tmp.root, 'model-log.jsonl'),
    ...(o.folder ? { MCP_HOST_TEST_WORKSPACE: path.resolve(o.folder) } : {}),
    ...(o.env || {}),
  };
  const serverP = startCodeServer({ cache, tmp, trust, env, smokeTestDriver: !!o.smokeTestDriver });
  const browserP = launchBrowser({ tmp, headless: o.headless !== false });
  serverP.catch(() => {});
  browserP.catch(() => {});
  const server = await serverP;
  const browser = await browserP;
  const url = workbenchUrl({ baseUrl: server.baseUrl, authority: server.authority, folder: o.folder });
  await browser.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  if (o.waitForWorkbench !== false) await browser.page.waitForSelector('.monaco-workbench', { timeout: 60000 });
  return { cache, tmp, env, server, browser, page: browser.page, url, extensionIds, close: cleanupAll };
}

// ------------------------------------------------------------------------------------------------
// The test run

/**
 * Parses console lines coming from the page. Lines of the extension-host harness carry
 * EXT_TEST_PREFIX (printed) or EXT_EVENT_PREFIX (JSON events, counted).
 */
function createConsoleSink({ verbose = false, out = process.stdout } = {}) {
  const state = { passed: 0, failed: 0, pending: 0, summary: /** @type {any} */ (null) };
  const t0 = Date.now();
  /** @type {{ state: typeof state, handle: (text: string) => void, onFirstLine: null | (() => void) }} */
  const sink = { state, handle: () => {}, onFirstLine: null };
  let seenFirst = false;
  const handle = (/** @type {string} */ text) => {
    if (!seenFirst && text.includes(EXT_TEST_PREFIX)) {
      seenFirst = true;
      if (sink.onFirstLine) sink.onFirstLine();
    }
    let printedAny = false;
    for (const line of text.split(/\r?\n/)) {
      let i = line.indexOf(EXT_EVENT_PREFIX);
      if (i >= 0) {
        printedAny = true;
        try {
          const ev = JSON.parse(line.slice(i + EXT_EVENT_PREFIX.length));
          if (ev.type === 'pass') state.passed++;
          else if (ev.type === 'fail') state.failed++;
          else if (ev.type === 'pending') state.pending++;
          else if (ev.type === 'end') state.summary = ev;
        } catch {
          /* ignore */
        }
        continue;
      }
      i = line.indexOf(EXT_TEST_PREFIX);
      if (i >= 0) {
        printedAny = true;
        out.write(line.slice(i + EXT_TEST_PREFIX.length) + '\n');
      }
    }
    if (!printedAny && verbose) process.stderr.write(`[page +${((Date.now() - t0) / 1000).toFixed(1)}s] ${text}\n`);
  };
  sink.handle = handle;
  return sink;
}

/**
 * Runs one extension test suite. Returns { code, passed, failed, pending, timedOut, durationMs }.
 * @param {object} o
 * @param {string} o.extension             main extension folder (package.json)
 * @param {string[]} [o.extraExtensions]   more extension folders loaded as development extensions
 * @param {string} o.tests                 test module (index.js exporting run())
 * @param {string} o.workspace             folder to open
 * @param {number} [o.timeoutSec]
 * @param {boolean} [o.trust]
 * @param {Record<string,string>} [o.env]  env for code-server / extension host
 * @param {Record<string,any>} [o.settings] extra user settings
 * @param {string} [o.artifacts]           folder to copy logs/screenshot into
 * @param {boolean} [o.keepTmp]
 * @param {boolean} [o.verbose]
 * @param {boolean} [o.headless]
 */
async function runExtensionTests(o) {
  const t0 = Date.now();
  installSignalHandlers();
  const trust = o.trust !== false;
  const timeoutMs = (o.timeoutSec || 300) * 1000;
  const cache = ensureCache();
  const tmp = makeTmpDirs({ keep: !!o.keepTmp });
  writeUserSettings(tmp.userData, { trust, extra: o.settings || {} });

  const env = {
    MCP_HOST_TEST_TRUST: trust ? '1' : '0',
    MCP_HOST_TEST_TMP: tmp.root,
    MCP_HOST_TEST_WORKSPACE: path.resolve(o.workspace),
    MCP_HOST_TEST_MODEL_SCRIPT: process.env.MCP_HOST_TEST_MODEL_SCRIPT || path.join(tmp.root, 'model-script.json'),
    MCP_HOST_TEST_MODEL_LOG: process.env.MCP_HOST_TEST_MODEL_LOG || path.join(tmp.root, 'model-log.jsonl'),
    ...(o.env || {}),
  };
  const extensionPaths = developmentExtensionPaths(tmp, [o.extension, ...(o.extraExtensions || [])]);
  const testsPath = path.resolve(o.tests);
  if (!fs.existsSync(testsPath)) throw new Error(`tests module not found: ${testsPath}`);

  const sink = createConsoleSink({ verbose: !!o.verbose });
  let result = { code: 1, timedOut: false };
  let server;
  let browser;
  try {
    // Start both at once (about 1-2 s saved); each registers its own cleanup.
    const serverP = startCodeServer({ cache, tmp, trust, env });
    const browserP = launchBrowser({ tmp, headless: o.headless !== false });
    serverP.catch(() => {});
    browserP.catch(() => {});
    server = await serverP;
    log(`code-server ${cache.CODE_SERVER_VERSION} on ${server.baseUrl} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    browser = await browserP;
    const { page } = browser;

    /** @type {(v: {code:number, timedOut:boolean}) => void} */
    let finish = () => {};
    let settled = false;
    const finished = new Promise((r) => {
      finish = (v) => {
        if (!settled) r(v);
        settled = true;
      };
    });
    let windowLogs = null;
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (o.verbose) process.stderr.write(`[workbench:${type}] ${typeof args === 'string' ? args : JSON.stringify(args)}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      windowLogs = logs;
      finish({ code: typeof code === 'number' ? code : 1, timedOut: false });
    });
    page.on('console', (msg) => sink.handle(msg.text()));
    page.on('pageerror', (err) => {
      if (o.verbose) process.stderr.write(`[page error] ${err.message}\n`);
    });
    const timer = setTimeout(() => finish({ code: 1, timedOut: true }), timeoutMs);
    // Fail fast instead of waiting for the timeout when the page or the server dies.
    page.on('crash', () => {
      if (!settled) log('the workbench page crashed');
      finish({ code: 1, timedOut: false });
    });
    server.proc.on('exit', (code, sig) => {
      if (!settled) log(`code-server exited during the run (code ${code}, signal ${sig})`);
      finish({ code: 1, timedOut: false });
    });

    const url = workbenchUrl({
      baseUrl: server.baseUrl,
      authority: server.authority,
      folder: o.workspace,
      extensionDevelopmentPaths: extensionPaths,
      extensionTestsPath: testsPath,
    });
    if (o.verbose) log(`opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    log(`workbench loading (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    sink.onFirstLine = () => log(`tests started (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    result = await finished;
    clearTimeout(timer);
    if (result.timedOut) log(`TIMEOUT after ${timeoutMs / 1000} s`);

    if (o.artifacts) {
      fs.mkdirSync(o.artifacts, { recursive: true });
      if (result.code !== 0) await page.screenshot({ path: path.join(o.artifacts, 'workbench.png') }).catch(() => {});
      for (const l of windowLogs || []) {
        const f = path.join(o.artifacts, 'window-logs', l.relativePath);
        fs.mkdirSync(path.dirname(f), { recursive: true });
        fs.writeFileSync(f, l.contents);
      }
    }
  } catch (e) {
    log(`ERROR: ${e && /** @type {any} */ (e).stack || e}`);
    result = { code: 1, timedOut: false };
  } finally {
    if (o.artifacts && server) {
      try {
        fs.mkdirSync(o.artifacts, { recursive: true });
        fs.writeFileSync(path.join(o.artifacts, 'code-server.log'), server.output());
        for (const f of ['model-log.jsonl']) {
          const src = path.join(tmp.root, f);
          if (fs.existsSync(src)) fs.copyFileSync(src, path.join(o.artifacts, f));
        }
      } catch {
        /* ignore */
      }
    }
    if (result.code !== 0 && server && !sink.state.summary) {
      const tail = server.output().split('\n').slice(-30).join('\n');
      log(`code-server output (tail):\n${tail}`);
    }
    await cleanupAll();
  }

  const s = sink.state;
  let passed = s.summary ? s.summary.passes : s.passed;
  let failed = s.summary ? s.summary.failures : s.failed;
  const pending = s.summary ? s.summary.pending : s.pending;
  // A non-zero exit without a failed test (load error, crash, timeout) still counts as a failure.
  if (result.code !== 0 && failed === 0) failed = 1;
  let code = result.code;
  if (code === 0 && (failed > 0 || !s.summary)) code = 1; // no summary: the harness never finished
  if (code === 0 && passed === 0) log('WARNING: no test ran');
  return { code, passed, failed, pending, timedOut: result.timedOut, durationMs: Date.now() - t0 };
}

// ------------------------------------------------------------------------------------------------
// CLI

function parseArgs(argv) {
  /** @type {any} */
  const o = { extraExtensions: [], env: {}, trust: true, timeoutSec: 300 };
  const need = (i) => {
    if (i + 1 >= argv.length) throw new Error(`missing value for ${argv[i]}`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--extension': o.extension = need(i); i++; break;
      case '--extra-extension': o.extraExtensions.push(need(i)); i++; break;
      case '--tests': o.tests = need(i); i++; break;
      case '--workspace': o.workspace = need(i); i++; break;
      case '--timeout': o.timeoutSec = Number(need(i)); i++; break;
      case '--trust': o.trust = true; break;
      case '--no-trust': o.trust = false; break;
      case '--grep': o.env.MCP_HOST_TEST_GREP = need(i); i++; break;
      case '--env': {
        const kv = need(i); i++;
        const eq = kv.indexOf('=');
        if (eq <= 0) throw new Error(`--env expects KEY=VALUE, got ${kv}`);
        o.env[kv.slice(0, eq)] = kv.slice(eq + 1);
        break;
      }
      case '--settings': o.settings = JSON.parse(fs.readFileSync(need(i), 'utf8')); i++; break;
      case '--artifacts': o.artifacts = path.resolve(need(i)); i++; break;
      case '--keep-tmp': o.keepTmp = true; break;
      case '--verbose': o.verbose = true; break;
      case '--headed': o.headless = false; break;
      case '-h': case '--help': o.help = true; break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  if (!o.help) {
    for (const k of ['extension', 'tests', 'workspace']) if (!o[k]) throw new Error(`--${k} is required`);
    if (!(o.timeoutSec > 0)) throw new Error('--timeout must be a positive number of seconds');
  }
  return o;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    log(/** @type {any} */ (e).message);
    process.exitCode = 2;
    return;
  }
  if (opts.help) {
    const src = fs.readFileSync(__filename, 'utf8');
    const doc = src.slice(src.indexOf('/*') + 2, src.indexOf('*/'));
    process.stdout.write(doc.replace(/^ \* ?/gm, '').trim() + '\n');
    return;
  }
  if (opts.verbose) process.env.MCP_HOST_TEST_VERBOSE = '1';
  const r = await runExtensionTests(opts);
  log(`finished in ${(r.durationMs / 1000).toFixed(1)} s, exit code ${r.code}${r.timedOut ? ' (timeout)' : ''}`);
  if (r.pending) process.stdout.write(`(${r.pending} pending)\n`);
  process.stdout.write(`${r.passed} passed, ${r.failed} failed\n`);
  process.exitCode = r.code;
}

module.exports = {
  REPO_ROOT,
  EXT_TEST_PREFIX,
  EXT_EVENT_PREFIX,
  CHROMIUM_ARGS,
  ensureCache,
  makeTmpDirs,
  writeOwnerFile,
  sweepStaleTmpDirs,
  writeUserSettings,
  codeServerEnv,
  startCodeServer,
  launchBrowser,
  remoteUri,
  workbenchUrl,
  developmentExtensionPaths,
  installExtensionFolders,
  openWorkbench,
  createConsoleSink,
  runExtensionTests,
  registerCleanup,
  cleanupAll,
  installSignalHandlers,
  killProcessGroup,
  parseArgs,
};

if (require.main === module) {
  main().catch((e) => {
    log(`fatal: ${e && e.stack || e}`);
    cleanupAll().finally(() => process.exit(1));
  });
}
