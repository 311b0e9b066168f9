import type { DefinitionReview } from '../core/pinning/definitionReview';
import { unifiedDiff } from '../core/pinning/lineDiff';

/** Most new tools listed by name for one server (a first review of a large server is thousands). */
const MAX_LISTED = 50;

/**
 * What `check --locked` and `lock` print for one server's differences from the lockfile: a diff a
 * person can read in a CI log. `maxListed`: most new tools named (lock, which approves them, names all).
 */
export function formatReview(r: DefinitionReview, lockfileName = 'mcp-host.lock.json', maxListed = MAX_LISTED): string[] {
  const counts = [
    r.changed.length ? `${r.changed.length} changed` : '',
    r.added.length ? `${r.added.length} new` : '',
    r.removed.length ? `${r.removed.length} removed` : '',
  ].filter(Boolean);
  const out: string[] = [];
  if (r.firstReview) out.push(`server "${r.server}" has no entry in ${lockfileName}: ${r.added.length} tool${r.added.length === 1 ? '' : 's'} not reviewed`);
  else out.push(`server "${r.server}": ${counts.join(', ') || 'no tool changed'}${r.identityChanges.length ? `; started differently (${r.identityChanges.join(', ')} changed)` : ''}`);
  let listed = 0;
  for (const t of r.tools) {
    if (t.change === 'changed') {
      out.push(`  ~ ${t.tool}: ${t.fields!.join(', ')} changed`);
      for (const l of unifiedDiff(t.before!, t.after!, { before: `${t.tool} as reviewed (${lockfileName})`, after: `${t.tool} as listed now` })) out.push(`    ${l}`);
    } else if (t.change === 'removed') {
      out.push(`  - ${t.tool}: no longer listed`);
    } else if (listed++ < maxListed) {
      if (r.firstReview) {
        out.push(`  + ${t.tool}${t.description ? `: ${oneLine(t.description)}` : ''}`);
      } else {
        out.push(`  + ${t.tool}: new since the review`);
        for (const l of (t.after ?? '').split('\n')) out.push(`    +${l}`);
      }
    }
  }
  if (listed > maxListed) out.push(`  … and ${listed - maxListed} more new tools`);
  return out;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
