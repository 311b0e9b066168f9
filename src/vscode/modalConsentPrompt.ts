import * as vscode from 'vscode';
import { describeOffer, offerSummary, type ConsentChoice } from '../core/consent/consentOffer';
import { allowAll, choicesOf, consentChanges, type ConsentAnswer, type ConsentPrompt, type ConsentRequest } from '../core/consent/serverConsent';
import { describeIdentity } from '../core/pinning/serverIdentity';
import { describeRoots } from '../core/requests/rootsSource';
import { inputGate } from './inputGate';

export const ALLOW_START = 'Allow';
export const DENY_START = "Don't Allow";
export const APPROVE_START = 'Allow and Approve Its Tools';
export const REVIEW_START = 'Allow, Review Tools First';
export const ALLOW_ALL = 'Allow All';
export const CHOOSE_EACH = 'Choose per Server…';
export const DENY_ALL = "Don't Allow Any";

const LABELS: Readonly<Record<ConsentChoice, string>> = { allow: ALLOW_START, approve: APPROVE_START, review: REVIEW_START, deny: DENY_START };

/** The question and its detail: the exact command (or URL), what was allowed before when it changed, and what it offers. */
export function consentMessage(r: ConsentRequest): { message: string; detail: string } {
  const lines = describeIdentity(r.identity);
  if (r.roots !== undefined) lines.push(describeRoots(r.roots));
  const changes = consentChanges(r);
  if (changes.length) lines.push('', ...changes.map((l) => l[0].toUpperCase() + l.slice(1) + '.'));
  if (r.previous) lines.push('', 'It was allowed before with:', ...describeIdentity(r.previous));
  const offer = describeOffer(r.offer);
  if (offer.length) lines.push('', ...offer);
  lines.push('', 'It runs with your permissions. Your answer is kept for this workspace (not in the repository).');
  return {
    message:
      r.previous || changes.length ? `The command of MCP server "${r.server}" changed. Allow it to start?` : `Allow the MCP server "${r.server}" of this workspace to start?`,
    detail: lines.join('\n'),
  };
}

/** One question about several servers: each one's command (or URL) and what it offers, and what "Allow All" does. */
export function consentsMessage(rs: readonly ConsentRequest[]): { message: string; detail: string } {
  const lines: string[] = [];
  for (const r of rs) {
    lines.push(`MCP server "${r.server}"${r.previous ? ' (its command changed)' : ''}:`, ...describeIdentity(r.identity).map((l) => `  ${l}`));
    if (r.roots !== undefined) lines.push(`  ${describeRoots(r.roots)}`);
    for (const c of consentChanges(r)) lines.push(`  (${c})`);
    const summary = offerSummary(r.offer);
    if (summary) lines.push(`  ${summary}`);
    lines.push('');
  }
  if (rs.some((r) => choicesOf(r).includes('approve'))) lines.push(`${ALLOW_ALL} approves the tools listed by a server not in mcp-host.lock.json; ${CHOOSE_EACH} lets you review them first.`);
  lines.push('They run with your permissions. Your answers are kept for this workspace (not in the repository).');
  return { message: `${rs.length} MCP servers of this workspace want to start. Allow them?`, detail: lines.join('\n') };
}

interface ChoiceItem extends vscode.QuickPickItem {
  readonly index: number;
  readonly choice: ConsentChoice;
}

/**
 * Asks with a modal warning before a server starts, its buttons the answers that apply. "Don't
 * Allow" is kept; closing the dialog is no answer (asked again next time). A failure to show it
 * (the workbench refusing dialogs) is not consent: the core does not start the server. Several
 * servers waiting at once are asked in one modal (Allow All / Choose per Server… / Don't Allow Any);
 * "Choose per Server…" opens one multi-select list of every server's answers.
 */
export class ModalConsentPrompt implements ConsentPrompt {
  async ask(request: ConsentRequest): Promise<ConsentAnswer> {
    await inputGate.idle();
    const { message, detail } = consentMessage(request);
    const choices = choicesOf(request);
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices.map((c) => LABELS[c]));
    return choices.find((c) => LABELS[c] === picked) ?? 'dismiss';
  }

  async askAll(requests: readonly ConsentRequest[]): Promise<readonly ConsentAnswer[]> {
    await inputGate.idle();
    const { message, detail } = consentsMessage(requests);
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW_ALL, CHOOSE_EACH, DENY_ALL);
    if (picked === ALLOW_ALL) return allowAll(requests);
    if (picked === DENY_ALL) return requests.map(() => 'deny');
    if (picked === CHOOSE_EACH) return chooseEach(requests);
    return requests.map(() => 'dismiss');
  }
}

/** Every server's starting answers in one list (checked: chosen); a server with nothing checked is not allowed; Escape answers nothing. */
export async function chooseEach(requests: readonly ConsentRequest[]): Promise<ConsentAnswer[]> {
  const items = requests.flatMap((r, index) =>
    choicesOf(r)
      .filter((c) => c !== 'deny')
      .map((choice): ChoiceItem => ({ label: r.server, description: LABELS[choice], detail: offerSummary(r.offer), index, choice })),
  );
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    ignoreFocusOut: true,
    title: 'MCP Host: which servers may start?',
    placeHolder: 'Check an answer for each server you allow; a server with nothing checked is not allowed (kept). With both checked, its tools are reviewed first.',
  });
  if (!picked) return requests.map(() => 'dismiss');
  return requests.map((_, i) => {
    const mine = picked.filter((p) => p.index === i).map((p) => p.choice);
    // Reviewing first is the careful one of two checked answers.
    return mine.includes('review') ? 'review' : (mine[0] ?? 'deny');
  });
}

/** Extension tests only (the test driver refuses dialogs): MCP_HOST_TEST_CONSENT=allow answers "allow". */
export function testConsentPrompt(mode: vscode.ExtensionMode): ConsentPrompt | undefined {
  return mode === vscode.ExtensionMode.Test && process.env.MCP_HOST_TEST_CONSENT === 'allow' ? { ask: async () => 'allow' } : undefined;
}
