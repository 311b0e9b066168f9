import { LOCKFILE_NAME, type LockedServer } from '../pinning/lockfile';
import { identityChanges, type ServerIdentity } from '../pinning/serverIdentity';
import type { PinningMode } from '../settings/hostSettings';
import { firstLine } from '../util/text';

/**
 * The answers to "may this server start?". `allow`: start it; its tools are held against the
 * lockfile as always. `approve`: start it and write the definitions it lists into the lockfile as
 * approved by the person who answered (trust on first use; only for a server the lockfile has no
 * entry for). `review`: start it with its tools quarantined and open their review. `deny`: not now,
 * and not on later starts until a person starts it.
 */
export type ConsentChoice = 'allow' | 'approve' | 'review' | 'deny';

/** One tool as the lockfile pins it, as a person reads it in the question. */
export interface PinnedToolSummary {
  readonly name: string;
  /** The first line of its description. */
  readonly summary?: string;
}

/**
 * What is known of a server's definitions before it starts. Nothing is started to learn them (an
 * unknown command never runs before a person allows it): only the lockfile can say.
 */
export interface ConsentOffer {
  /** Its tools as pinned in the lockfile; undefined: nothing is known before it starts. */
  readonly tools?: readonly PinnedToolSummary[];
  /** What happens to its definitions once it is allowed (a sentence or two). */
  readonly note: string;
}

export interface ConsentOfferInput {
  readonly mode: PinningMode;
  /** Why the lockfile cannot be used, if it cannot. */
  readonly lockError?: string;
  /** The server's lockfile entry, if any. */
  readonly entry?: LockedServer;
  /** How the server is about to start (lockfile form), to compare with its entry. */
  readonly identity?: ServerIdentity;
}

const SUMMARY_MAX = 100;

/** The first line of a description, shortened for a question. */
export function summaryLine(description: string | undefined): string | undefined {
  return firstLine(description, SUMMARY_MAX) || undefined;
}

/** What the consent question shows of a server's definitions, and which answers it offers. */
export function consentOffer(i: ConsentOfferInput): { offer?: ConsentOffer; choices: readonly ConsentChoice[] } {
  if (i.mode === 'off') return { choices: ['allow', 'deny'] };
  if (i.lockError !== undefined) {
    return { offer: { note: `Its tools cannot be checked: ${LOCKFILE_NAME} cannot be used (${i.lockError}); they stay quarantined until it is fixed.` }, choices: ['allow', 'deny'] };
  }
  if (i.entry) {
    const tools = Object.keys(i.entry.tools)
      .sort()
      .map((name): PinnedToolSummary => {
        const summary = summaryLine(i.entry!.tools[name].definition.description);
        return summary ? { name, summary } : { name };
      });
    const changed = i.identity ? identityChanges(i.entry.identity, i.identity) : [];
    const note = changed.length
      ? `${LOCKFILE_NAME} pinned these for a different start (${changed.join(', ')} changed): its tools stay quarantined until a person reviews them.`
      : `Tools it lists that differ from these stay quarantined until a person reviews them.`;
    return { offer: { tools, note }, choices: ['allow', 'deny'] };
  }
  if (i.mode === 'locked') {
    return { offer: { note: `What it offers is not known before it starts: ${LOCKFILE_NAME} has no entry for it, and with mcpHost.pinning "locked" its tools stay quarantined until the lockfile has them.` }, choices: ['allow', 'deny'] };
  }
  return { offer: { note: `What it offers is not known before it starts: ${LOCKFILE_NAME} has no entry for it.` }, choices: ['approve', 'review', 'deny'] };
}

/** Lines describing the offer, for the question's detail (the editor) or its text (the terminal). */
export function describeOffer(offer: ConsentOffer | undefined): string[] {
  if (!offer) return [];
  const lines: string[] = [];
  if (offer.tools) {
    lines.push(`It offers ${offer.tools.length} tool${offer.tools.length === 1 ? '' : 's'}, as pinned in ${LOCKFILE_NAME}:`);
    for (const t of offer.tools) lines.push(`  ${t.name}${t.summary ? ` — ${t.summary}` : ''}`);
  }
  lines.push(offer.note);
  return lines;
}

/** One line about the offer, for a question that lists several servers. */
export function offerSummary(offer: ConsentOffer | undefined, max = 8): string | undefined {
  if (!offer) return undefined;
  if (!offer.tools) return 'tools not known before it starts (no lockfile entry)';
  const names = offer.tools.map((t) => t.name);
  const shown = names.length > max ? [...names.slice(0, max), `and ${names.length - max} more`] : names;
  return `${names.length} tool${names.length === 1 ? '' : 's'} pinned in ${LOCKFILE_NAME}: ${shown.join(', ')}`;
}

/** What "Allow all" means for one server: its first answer that starts it. */
export function allowAllChoice(choices: readonly ConsentChoice[]): Exclude<ConsentChoice, 'deny'> {
  return choices.find((c): c is Exclude<ConsentChoice, 'deny'> => c !== 'deny') ?? 'allow';
}
