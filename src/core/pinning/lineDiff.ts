import { structuredPatch } from 'diff';

/**
 * A unified diff (`--- a`, `+++ b`, `@@ -a,b +c,d @@` hunks with `context` lines around each change),
 * made by jsdiff: what `lock` and `check --locked` print for a changed definition, so a changed
 * description reads as one removed and one added line. Empty when nothing differs.
 */
export function unifiedDiff(before: string, after: string, labels: { before: string; after: string }, context = 3): string[] {
  if (before === after) return [];
  const patch = structuredPatch(labels.before, labels.after, before, after, undefined, undefined, { context });
  if (patch.hunks.length === 0) return [];
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    // Definitions are canonical JSON without a final newline: jsdiff's "\ No newline" marker says nothing to a reviewer.
    for (const line of h.lines) if (!line.startsWith('\\')) out.push(line);
  }
  return out;
}
