// @ts-check
'use strict';
/*
 * code-server: its installation (scripts/code-server/ensure.sh, cached), its environment, and a
 * start on 127.0.0.1 in its own process group behind a dead-man switch, so the whole tree it
 * starts (server, extension host, the MCP servers the extension spawns) goes at the end, even when
 * the runner is killed with SIGKILL.
 */
const fs = require('fs');
const path = require('path');
const http = require('http');
const { spawn, execFileSync } = require('child_process');
const { listProcesses } = require('../lib/procfs');
const { sleep } = require('../lib/wait');
const { registerCleanup } = require('./cleanup');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const ENSURE_SCRIPT = path.join(REPO_ROOT, 'scripts', 'code-server', 'ensure.sh');


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
 * @param {ReturnType<typeof import('./tmpTree').makeTmpDirs>} o.tmp
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

module.exports = { REPO_ROOT, ensureCache, codeServerEnv, startCodeServer, killProcessGroup };
