#!/usr/bin/env node
// Writes package.json's settings schema from the zod schema (src/core/settings/settingsSchema.ts):
// `contributes.configuration` and `capabilities.untrustedWorkspaces.restrictedConfigurations`.
//   node scripts/generate-manifest-schema.js           rewrite package.json   (npm run manifest:write)
//   node scripts/generate-manifest-schema.js --check   exit 1 if it is stale  (npm run manifest:check)
//   --file <path>   another package.json (tests check a drifted copy)
const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual, parseArgs } = require('node:util');
require('tsx/cjs');
const { manifestConfiguration, restrictedSettings } = require('../src/core/settings/manifestConfiguration.ts');

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    file: { type: 'string', default: path.join(__dirname, '..', 'package.json') },
  },
});
const file = values.file;
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));

const wanted = [
  { where: 'contributes.configuration', value: manifestConfiguration() },
  { where: 'capabilities.untrustedWorkspaces.restrictedConfigurations', value: restrictedSettings() },
];

/** The JSON paths at which `a` and `b` differ (key order does not count). */
function differences(a, b, at, out = []) {
  if (isDeepStrictEqual(a, b)) return out;
  const objects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!objects) {
    out.push(at);
    return out;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], `${at}.${k}`, out);
  return out;
}

function get(obj, where) {
  return where.split('.').reduce((o, k) => (o === undefined ? undefined : o[k]), obj);
}

function set(obj, where, value) {
  const keys = where.split('.');
  const last = keys.pop();
  const parent = keys.reduce((o, k) => (o[k] ??= {}), obj);
  parent[last] = value;
}

const stale = wanted.flatMap(({ where, value }) => differences(get(pkg, where), value, where));
if (values.check) {
  if (stale.length) {
    console.error(`${file}: the settings schema is out of date with src/core/settings (run npm run manifest:write):`);
    for (const at of stale) console.error(`  ${at}`);
    process.exit(1);
  }
  console.log(`${file}: the settings schema is up to date`);
} else if (stale.length) {
  for (const { where, value } of wanted) set(pkg, where, value);
  fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`${file}: rewrote ${stale.length} place(s) of the settings schema`);
} else {
  console.log(`${file}: the settings schema is up to date`);
}
