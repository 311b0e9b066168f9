// @ts-check
'use strict';
/*
 * Throwaway folders of a run: one /tmp/mcp-host-it-* tree per code-server (user data with its
 * settings.json, extensions, XDG folders, browser profile, logs), owned by this process and
 * swept by a later run if this one dies by SIGKILL.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { processStat } = require('../lib/procfs');
const { registerCleanup } = require('./cleanup');
const { log } = require('./log');

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
    // No port forwarding: an MCP server or the test's own listener on 127.0.0.1 would otherwise
    // raise "Your application running on port … is available", which can cover the chat input.
    'remote.autoForwardPorts': false,
    'remote.restoreForwardedPorts': false,
    'remote.otherPortsAttributes': { onAutoForward: 'ignore' },
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

module.exports = { TMP_PREFIX, writeOwnerFile, sweepStaleTmpDirs, makeTmpDirs, writeUserSettings };
