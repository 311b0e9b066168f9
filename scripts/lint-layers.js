#!/usr/bin/env node
// Layer rule: nothing under src/core/ or src/cli/ may import 'vscode'.
// (The core must run under plain mocha and drive the CLI; only src/vscode/ adapts it to the editor.)
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const guarded = ['src/core', 'src/cli'];
const importsVscode = /(?:from\s+['"]vscode['"])|(?:require\(\s*['"]vscode['"]\s*\))|(?:import\(\s*['"]vscode['"]\s*\))|(?:import\s+['"]vscode['"])/;
const importsEditorLayer = /from\s+['"][./]*(?:\.\.\/)+vscode\//;

const failures = [];
function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (/\.(ts|js|mjs|cjs)$/.test(entry.name)) {
      const lines = fs.readFileSync(p, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (importsVscode.test(line) || importsEditorLayer.test(line)) {
          failures.push(`${path.relative(root, p)}:${i + 1}: imports the editor layer: ${line.trim()}`);
        }
      });
    }
  }
}
for (const g of guarded) {
  const dir = path.join(root, g);
  if (fs.existsSync(dir)) walk(dir);
}
if (failures.length) {
  console.error('Layer violations (src/core and src/cli must not import vscode):');
  for (const f of failures) console.error('  ' + f);
  process.exit(1);
}
console.log(`lint-layers: ${guarded.join(', ')} are free of 'vscode' imports`);
