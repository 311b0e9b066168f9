import * as readline from 'node:readline';
import { consentChanges, type ConsentAnswer, type ConsentPrompt, type ConsentRequest } from '../core/consent/serverConsent';
import { describeIdentity } from '../core/pinning/serverIdentity';
import type { TerminalStreams } from './terminalConfirmer';

/** The text shown before the question: the exact command (or URL), and what was allowed before when it changed. */
export function formatConsentRequest(r: ConsentRequest, workspace: string): string {
  const lines = ['', `mcp-host: the workspace ${workspace} wants to start the MCP server "${r.server}":`];
  for (const l of describeIdentity(r.identity)) lines.push(`  ${l}`);
  for (const l of consentChanges(r)) lines.push(`  (${l})`);
  if (r.previous) {
    lines.push('  (its command changed since you allowed it; before:');
    for (const l of describeIdentity(r.previous)) lines.push(`    ${l}`);
    lines.push('  )');
  }
  lines.push('  It runs with your permissions. The answer is kept for this workspace.');
  return lines.join('\n') + '\n';
}

/** Asks y/N on the terminal (question on stderr, answer on stdin); anything but y/yes is "deny", end of input is "dismiss". */
export class TerminalConsentPrompt implements ConsentPrompt {
  constructor(
    private readonly workspace: string,
    private readonly streams: TerminalStreams = { input: process.stdin, output: process.stderr },
  ) {}

  ask(request: ConsentRequest): Promise<ConsentAnswer> {
    this.streams.output.write(formatConsentRequest(request, this.workspace));
    return new Promise((resolve) => {
      const rl = readline.createInterface({ input: this.streams.input, output: this.streams.output, terminal: false });
      let done = false;
      const finish = (a: ConsentAnswer) => {
        if (done) return;
        done = true;
        rl.close();
        resolve(a);
      };
      rl.once('close', () => finish('dismiss'));
      rl.question(`Allow "${request.server}" to start? [y/N] `, (a) => finish(/^(y|yes)$/i.test(a.trim()) ? 'allow' : 'deny'));
    });
  }
}

/** Without a terminal nobody can be asked: a server not allowed yet does not start, and the error says how to allow it. */
export function noTerminalConsent(why: string): ConsentPrompt {
  return {
    ask: () =>
      Promise.reject(
        new Error(`this server has not been allowed to start in this workspace and ${why}; allow it once on a terminal (e.g. "mcp-host check"), or pass --yes`),
      ),
  };
}

/** The terminal when there is one (stdin and stderr both terminals), otherwise nobody. */
export function consentPromptFor(workspace: string, terminal: boolean): ConsentPrompt {
  return terminal ? new TerminalConsentPrompt(workspace) : noTerminalConsent('there is no terminal to ask on');
}
