/** One line of a diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

const MAX_DIFFED_LINES = 20_000;

/**
 * The shortest edit script between two line lists (Myers' O((N+M)·D) algorithm): what a person
 * reads in a review, so a changed description shows as one removed and one added line.
 */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  // The saved frontiers grow with (N+M)·D: past a size no person reads line by line, show both sides whole.
  if (a.length === 0 || b.length === 0 || a.length + b.length > MAX_DIFFED_LINES) {
    return [...a.map((text): DiffLine => ({ op: '-', text })), ...b.map((text): DiffLine => ({ op: '+', text }))];
  }
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the saved frontiers.
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[--x] });
      y--;
    }
    if (d > 0) {
      if (x === prevX) out.push({ op: '+', text: b[--y] });
      else out.push({ op: '-', text: a[--x] });
    }
  }
  return out.reverse();
}

/** A unified diff (`@@ -a,b +c,d @@` hunks with `context` lines around each change). */
export function unifiedDiff(before: string, after: string, labels: { before: string; after: string }, context = 3): string[] {
  const lines = diffLines(splitLines(before), splitLines(after));
  if (!lines.some((l) => l.op !== ' ')) return [];
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].op === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while the next change is within 2 × context lines.
    for (;;) {
      while (end < lines.length && lines[end].op !== ' ') end++;
      let next = end;
      while (next < lines.length && lines[next].op === ' ') next++;
      if (next < lines.length && next - end <= 2 * context) end = next;
      else break;
    }
    end = Math.min(lines.length, end + context);
    let aLine = 1;
    let bLine = 1;
    for (let j = 0; j < start; j++) {
      if (lines[j].op !== '+') aLine++;
      if (lines[j].op !== '-') bLine++;
    }
    const hunk = lines.slice(start, end);
    const aCount = hunk.filter((l) => l.op !== '+').length;
    const bCount = hunk.filter((l) => l.op !== '-').length;
    out.push(`@@ -${aLine},${aCount} +${bLine},${bCount} @@`);
    for (const l of hunk) out.push(`${l.op}${l.text}`);
    i = end;
  }
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
