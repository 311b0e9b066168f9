// @ts-check
'use strict';
/*
 * The workbench page: Debian's chromium (never a downloaded browser) driven by playwright-core,
 * headless with a fresh profile in the run's tmp tree, and openWorkbench(), which starts
 * code-server and the browser together and opens the workbench on a folder.
 */
const path = require('path');
const { cleanupAll, installSignalHandlers, registerCleanup } = require('./cleanup');
const { ensureCache, startCodeServer } = require('./codeServer');
const { installExtensionFolders, workbenchUrl } = require('./payload');
const { makeTmpDirs, writeUserSettings } = require('./tmpTree');

/** Flags that keep chromium from reaching out or needing a GPU, a sandbox or a big /dev/shm. */
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
module.exports = { CHROMIUM_ARGS, launchBrowser, openWorkbench };
