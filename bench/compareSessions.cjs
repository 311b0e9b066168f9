'use strict';
/*
 * Sequential calls/s through `mcp-host session` of several builds of the CLI, side by side: rounds
 * interleaved in rotating orders, each round a fresh session (1,000 warm-up calls, then 4,000
 * timed) against the stdio fixture server basic.mjs, pinning off, audit to a file.
 *
 *   node bench/compareSessions.cjs NAME=path/to/dist/cli.js NAME=path/to/dist/cli.js …
 *
 * E.g. the same checkout at two commits (git worktree add /tmp/a <commit>, npm run build there).
 * Prints each side's calls/s per round and the medians relative to the first side. Not part of
 * `npm run bench`: a tool for before/after questions across commits, where the bench's in-process
 * rows cannot load an older host.
 */
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');

const SERVER = path.join(__dirname, '..', 'test', 'fixtures', 'servers', 'basic.mjs');

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-compare-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  const settings = {
    'mcpHost.servers': { basic: { command: process.execPath, args: [SERVER] } },
    'mcpHost.autoApprove': ['basic/*'],
    'mcpHost.audit.path': '.mcp-host/audit.jsonl',
    'mcpHost.pinning': 'off',
  };
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(settings));
  return dir;
}

function round(cli, ws, warm, n) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [cli, 'session', '--workspace', ws, '--yes'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let id = 0;
    let t0 = 0;
    const send = () => p.stdin.write(JSON.stringify({ id: ++id, op: 'call', name: 'basic__echo', args: { text: 'x' } }) + '\n');
    readline.createInterface({ input: p.stdout }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.op === 'servers') return send();
      if (m.op !== 'call') return;
      if (m.outcome !== 'ok') return reject(new Error(line));
      if (id === warm) t0 = performance.now();
      if (id < warm + n) return send();
      p.stdin.end();
      p.kill();
      resolve((n * 1000) / (performance.now() - t0));
    });
    // "servers" is answered once the servers have settled.
    p.stdin.write(JSON.stringify({ id: 0, op: 'servers' }) + '\n');
  });
}

async function main() {
  const sides = process.argv.slice(2).map((a) => {
    const [name, cli] = a.split('=');
    if (!name || !cli || !fs.existsSync(cli)) throw new Error(`expected NAME=path/to/dist/cli.js, got "${a}"`);
    return { name, cli: path.resolve(cli), rates: [] };
  });
  if (sides.length < 2) throw new Error('usage: node bench/compareSessions.cjs NAME=cli.js NAME=cli.js …');
  const ws = workspace();
  for (let r = 0; r < 2 * sides.length; r++) {
    const order = sides.map((_, i) => sides[(i + r) % sides.length]);
    if (r % 2) order.reverse();
    for (const s of order) s.rates.push(await round(s.cli, ws, 1000, 4000));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(sides[0].rates);
  for (const s of sides) console.log(`${s.name.padEnd(12)} ${s.rates.map((x) => x.toFixed(0)).join(' ')}  median ${median(s.rates).toFixed(0)} calls/s (${(median(s.rates) / base).toFixed(3)}× ${sides[0].name})`);
  fs.rmSync(ws, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
