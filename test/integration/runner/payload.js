// @ts-check
'use strict';
/*
 * What the workbench is told to load. With the smoke-test driver, the URL's `payload` names the
 * development extensions and the test module as vscode-remote:// URIs; without it (UI tests,
 * demos), extension folders are "installed" by symlinking them into the extensions folder.
 */
const fs = require('fs');
const path = require('path');


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
 * @param {ReturnType<typeof import('./tmpTree').makeTmpDirs>} tmp
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
 * @param {ReturnType<typeof import('./tmpTree').makeTmpDirs>} tmp
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
module.exports = { remoteUri, workbenchUrl, developmentExtensionPaths, installExtensionFolders };
