#!/usr/bin/env node
// Turns run.sh's summary.tsv (version, scenario, result, details per line; version "-" for a scenario
// run without one, e.g. an extension) into a markdown table: one row per scenario, one column per spec
// version, pass/FAIL in each cell ("" where the scenario does not apply), the totals per column, then
// the failed checks of each failing run.
//   node scripts/conformance/summary.mjs <summary.tsv> <suite version>
import * as fs from 'node:fs';

const [file, suite] = process.argv.slice(2);
const rows = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [version, scenario, result, details = ''] = line.split('\t');
    return { version, scenario, result, details };
  });

const columnName = (v) => (v === '-' ? 'no version / extension' : v);
const versions = [...new Set(rows.map((r) => r.version))].sort((a, b) => (a === '-') - (b === '-') || a.localeCompare(b));
const scenarios = [...new Set(rows.map((r) => r.scenario))];
const cell = new Map(rows.map((r) => [`${r.version}|${r.scenario}`, r]));

const out = [];
out.push(`Conformance suite ${suite}, client scenarios — measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`, '');
out.push(`| scenario | ${versions.map(columnName).join(' | ')} |`);
out.push(`| --- | ${versions.map(() => '---').join(' | ')} |`);
for (const s of scenarios) {
  out.push(`| ${s} | ${versions.map((v) => cell.get(`${v}|${s}`)?.result ?? '').join(' | ')} |`);
}
const total = (v, result) => rows.filter((r) => r.version === v && (!result || r.result === result)).length;
out.push(`| **passed** | ${versions.map((v) => `**${total(v, 'pass')} of ${total(v)}**`).join(' | ')} |`);
const failed = rows.filter((r) => r.result !== 'pass');
if (failed.length) {
  out.push('', 'Failed runs:', '');
  for (const r of failed) out.push(`- ${columnName(r.version)} ${r.scenario}: ${r.details}`);
}
process.stdout.write(out.join('\n') + '\n');
