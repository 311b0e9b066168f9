import { allowAllChoice, describeOffer } from '../core/consent/consentOffer';
import { choicesOf, consentChanges, type ConsentAnswer, type ConsentPrompt, type ConsentRequest } from '../core/consent/serverConsent';
import { describeIdentity } from '../core/pinning/serverIdentity';
import { describeRoots } from '../core/requests/rootsSource';
import type { TerminalStreams } from './terminalConfirmer';
import { TerminalLines } from './terminalLines';

/** The lines about one server: the exact command (or URL), its roots, what changed, what was allowed before when it changed, what it offers. */
function serverLines(r: ConsentRequest, indent: string): string[] {
  const lines = describeIdentity(r.identity).map((l) => `${indent}${l}`);
  if (r.roots !== undefined) lines.push(`${indent}${describeRoots(r.roots)}`);
  for (const l of consentChanges(r)) lines.push(`${indent}(${l})`);
  if (r.previous) {
    lines.push(`${indent}(its command changed since you allowed it; before:`);
    for (const l of describeIdentity(r.previous)) lines.push(`${indent}  ${l}`);
    lines.push(`${indent})`);
  }
  for (const l of describeOffer(r.offer)) lines.push(`${indent}${l}`);
  return lines;
}

/** The text shown before the question: the exact command (or URL), what was allowed before when it changed, what it offers. */
export function formatConsentRequest(r: ConsentRequest, workspace: string): string {
  const lines = ['', `mcp-host: the workspace ${workspace} wants to start the MCP server "${r.server}":`, ...serverLines(r, '  ')];
  lines.push('  It runs with your permissions. The answer is kept for this workspace.');
  return lines.join('\n') + '\n';
}

/** Several servers waiting at once, numbered in the order of the answer's letters. */
export function formatConsentRequests(rs: readonly ConsentRequest[], workspace: string): string {
  const lines = ['', `mcp-host: the workspace ${workspace} wants to start ${rs.length} MCP servers:`];
  rs.forEach((r, i) => lines.push(`  ${i + 1}. "${r.server}"`, ...serverLines(r, '     ')));
  lines.push('  They run with your permissions. The answers are kept for this workspace.');
  return lines.join('\n') + '\n';
}

const REVIEW_HINT = (server: string) =>
  `mcp-host: the tools of "${server}" stay quarantined until they are approved: "mcp-host check" lists them, "mcp-host lock" approves them.\n`;

/** One server's letter: y (allow; approve what it lists when nothing is pinned), r (review first, where offered), n (no). */
function letterAnswer(letter: string, r: ConsentRequest): ConsentAnswer | undefined {
  const choices = choicesOf(r);
  if (/^(y|yes)$/i.test(letter)) return allowAllChoice(choices);
  if (/^(r|review)$/i.test(letter)) return choices.includes('review') ? 'review' : undefined;
  return /^(n|no)$/i.test(letter) ? 'deny' : undefined;
}

/**
 * Asks on the terminal (question on stderr, answer on stdin). One server: y/N, or y/r/N when
 * nothing of it is pinned; anything else is "deny", end of input is "dismiss". Several servers:
 * one question: a (all), n (none), or one letter per server.
 */
export class TerminalConsentPrompt implements ConsentPrompt {
  constructor(
    private readonly workspace: string,
    private readonly streams: TerminalStreams = { input: process.stdin, output: process.stderr },
  ) {}

  async ask(request: ConsentRequest): Promise<ConsentAnswer> {
    this.streams.output.write(formatConsentRequest(request, this.workspace));
    const lines = new TerminalLines(this.streams);
    try {
      const question = choicesOf(request).includes('review')
        ? `Allow "${request.server}" to start? [y] yes, and approve the tools it lists / [r] yes, review them first / [N] no: `
        : `Allow "${request.server}" to start? [y/N] `;
      const line = await lines.ask(question);
      if (line === undefined) return 'dismiss';
      const answer = letterAnswer(line.trim(), request) ?? 'deny';
      if (answer === 'review') this.streams.output.write(REVIEW_HINT(request.server));
      return answer;
    } finally {
      lines.close();
    }
  }

  async askAll(requests: readonly ConsentRequest[]): Promise<readonly ConsentAnswer[]> {
    this.streams.output.write(formatConsentRequests(requests, this.workspace));
    const lines = new TerminalLines(this.streams);
    try {
      for (;;) {
        const line = await lines.ask(`Allow them to start? [a] all / [N] none / one letter per server in order: y yes, r review first, n no (e.g. "${'yn'.repeat(requests.length).slice(0, requests.length)}"): `);
        if (line === undefined) return requests.map(() => 'dismiss');
        const answers = parseAnswers(line, requests);
        if (typeof answers === 'string') {
          this.streams.output.write(`mcp-host: ${answers}; answer again.\n`);
          continue;
        }
        answers.forEach((a, i) => a === 'review' && this.streams.output.write(REVIEW_HINT(requests[i].server)));
        return answers;
      }
    } finally {
      lines.close();
    }
  }
}

/** The answers to one question about several servers, or what is wrong with the line. */
export function parseAnswers(line: string, requests: readonly ConsentRequest[]): ConsentAnswer[] | string {
  const text = line.trim().toLowerCase();
  if (text === 'a' || text === 'all') return requests.map((r) => allowAllChoice(choicesOf(r)));
  if (text === '' || text === 'n' || text === 'none') return requests.map(() => 'deny');
  const letters = text.replace(/[\s,]+/g, '');
  if (letters.length !== requests.length) return `"${line.trim()}" has ${letters.length} letter${letters.length === 1 ? '' : 's'} for ${requests.length} servers (a, n, or one of y/r/n per server)`;
  const out: ConsentAnswer[] = [];
  for (let i = 0; i < letters.length; i++) {
    const a = letterAnswer(letters[i], requests[i]);
    if (!a) {
      const r = choicesOf(requests[i]).includes('review') ? 'y, r or n' : 'y or n (its tools are pinned: nothing to review first)';
      return `letter ${i + 1} ("${letters[i]}", for "${requests[i].server}") is not ${r}`;
    }
    out.push(a);
  }
  return out;
}

/** Without a terminal nobody can be asked: a server not allowed yet does not start, and the error says how to allow it. */
export function noTerminalConsent(why: string): ConsentPrompt {
  return {
    ask: (r) =>
      Promise.reject(
        new Error(
          `this server has not been allowed to start in this workspace and ${why}; allow it with "mcp-host allow ${r.server}" (or once on a terminal, e.g. "mcp-host check"), or pass --allow-servers for this run`,
        ),
      ),
  };
}

/** The terminal when there is one (stdin and stderr both terminals), otherwise nobody. */
export function consentPromptFor(workspace: string, terminal: boolean): ConsentPrompt {
  return terminal ? new TerminalConsentPrompt(workspace) : noTerminalConsent('there is no terminal to ask on');
}
