'use strict';
// Process facts from /proc, shared by the in-editor suites, the demo check and the runner
// (plain CommonJS: it also runs inside the VS Code extension host).
const fs = require('fs');

/**
 * One row per live process: { pid, state, ppid, pgrp, startTime }, read from /proc/<pid>/stat.
 * Zombies are included (state "Z"); callers decide. Returns null where there is no procfs.
 */
function listProcesses() {
  let names;
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const out = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = processStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** { pid, state, ppid, pgrp, startTime } of one process, or null when it is gone. */
function processStat(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses: the fields start after the last ")".
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), startTime: f[19] };
}

/** Map pid → start time of every live (non-zombie) descendant of `pid`. */
function descendants(pid) {
  const children = new Map();
  for (const p of listProcesses() || []) {
    if (p.state === 'Z') continue; // already dead
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  const out = new Map();
  const stack = [pid];
  while (stack.length) {
    for (const c of children.get(stack.pop()) || []) {
      out.set(c.pid, c.startTime);
      stack.push(c.pid);
    }
  }
  return out;
}

/** Whether `pid` still runs as the same process (start time guards against pid reuse). */
function isAlive(pid, startTime) {
  const p = processStat(pid);
  return !!p && p.state !== 'Z' && (startTime === undefined || p.startTime === startTime);
}

/** The command line of `pid`, words joined by spaces ('' when gone). */
function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

module.exports = { listProcesses, processStat, descendants, isAlive, commandLine };
